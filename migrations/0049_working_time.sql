CREATE TABLE `location_working_time` (
	`location_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`rule_pack` text,
	`overrides` text,
	`school_terms` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `staff_members` ADD `working_time_opt_out` text;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `working_time_override` text;