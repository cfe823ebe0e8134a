CREATE TABLE `custom_fields` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`options` text,
	`pattern` text,
	`required` integer DEFAULT false NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `custom_fields_active_name` ON `custom_fields` (`organization_id`,`name`) WHERE active = 1 AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `custom_fields_organization_id` ON `custom_fields` (`organization_id`,`id`);--> statement-breakpoint
ALTER TABLE `shifts` ADD `custom_fields` text DEFAULT '{}' NOT NULL;