CREATE TABLE `shift_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`schedule_entry_id` text NOT NULL,
	`requester_id` text NOT NULL,
	`target_employee_id` text,
	`target_schedule_entry_id` text,
	`accepted_by` text,
	`decided_by` text,
	`note` text,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`schedule_entry_id`) REFERENCES `schedule_entries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`requester_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shift_requests_location` ON `shift_requests` (`organization_id`,`location_id`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `shift_requests_live_entry` ON `shift_requests` (`schedule_entry_id`) WHERE status IN ('PENDING', 'ACCEPTED');