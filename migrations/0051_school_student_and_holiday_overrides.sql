CREATE TABLE `holiday_overrides` (
	`location_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`added` text NOT NULL,
	`removed` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `holiday_overrides_organization` ON `holiday_overrides` (`organization_id`);--> statement-breakpoint
ALTER TABLE `staff_members` ADD `school_student` integer DEFAULT false NOT NULL;