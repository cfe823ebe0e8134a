CREATE TABLE `organization_directory` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`external_id` text,
	`shard` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organization_directory_partner_external_id` ON `organization_directory` (`partner_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `organization_directory_partner` ON `organization_directory` (`partner_id`,`organization_id`);