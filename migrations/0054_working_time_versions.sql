CREATE TABLE `location_working_time_versions` (
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
CREATE UNIQUE INDEX `location_working_time_versions_location_date` ON `location_working_time_versions` (`location_id`,`effective_from`);--> statement-breakpoint
CREATE INDEX `location_working_time_versions_organization` ON `location_working_time_versions` (`organization_id`,`location_id`);--> statement-breakpoint
ALTER TABLE `location_working_time` ADD `effective_from` text;--> statement-breakpoint
-- Each location's setting so far becomes its first version (from the day it was last written; the earliest version
-- also judges the dates before it, so what was judged before stays as it was).
UPDATE `location_working_time` SET `effective_from` = date(`updated_at` / 1000, 'unixepoch') WHERE `rule_pack` IS NOT NULL OR `overrides` IS NOT NULL;
--> statement-breakpoint
INSERT INTO `location_working_time_versions` (`id`, `organization_id`, `location_id`, `effective_from`, `rule_pack`, `overrides`, `created_at`, `updated_at`)
SELECT 'v-' || `location_id`, `organization_id`, `location_id`, `effective_from`, `rule_pack`, `overrides`, `created_at`, `updated_at`
FROM `location_working_time` WHERE `effective_from` IS NOT NULL;
