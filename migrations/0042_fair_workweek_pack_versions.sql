CREATE TABLE `location_fair_workweek_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`effective_from` text NOT NULL,
	`rule_pack` text,
	`overrides` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `location_fair_workweek_versions_location_date` ON `location_fair_workweek_versions` (`location_id`,`effective_from`);--> statement-breakpoint
CREATE INDEX `location_fair_workweek_versions_organization` ON `location_fair_workweek_versions` (`organization_id`,`location_id`);--> statement-breakpoint
-- A setting written before versions existed governed every date: it stays in effect from the earliest date.
INSERT INTO `location_fair_workweek_versions` (`id`, `organization_id`, `location_id`, `effective_from`, `rule_pack`, `overrides`, `created_at`, `updated_at`)
SELECT 'v-' || `location_id`, `organization_id`, `location_id`, '1970-01-01', `rule_pack`, `overrides`, `created_at`, `updated_at`
FROM `location_fair_workweek`;
