CREATE TABLE `payroll_settings` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`provider` text,
	`company_code` text,
	`batch_id` text,
	`earning_codes` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `staff_members` ADD `payroll_ids` text DEFAULT '{}' NOT NULL;