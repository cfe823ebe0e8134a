CREATE TABLE `open_shift_preferences` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`open_shift_id` text NOT NULL,
	`worker_id` text NOT NULL,
	`preference` text NOT NULL,
	`status` text NOT NULL,
	`is_draft` integer DEFAULT false NOT NULL,
	`schedule_shift_id` text,
	`assigned_at` integer,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`open_shift_id`) REFERENCES `open_shifts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`worker_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `open_shift_preferences_one_live` ON `open_shift_preferences` (`open_shift_id`,`worker_id`) WHERE status IN ('PENDING', 'APPROVED') AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `open_shift_preferences_shift_status` ON `open_shift_preferences` (`open_shift_id`,`status`);--> statement-breakpoint
CREATE TABLE `open_shifts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`role_id` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`utc_offset` integer NOT NULL,
	`timezone` text NOT NULL,
	`breaks` text DEFAULT '[]' NOT NULL,
	`staff_count_required` integer NOT NULL,
	`require_approval` integer NOT NULL,
	`is_draft` integer NOT NULL,
	`published_at` integer,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `open_shifts_location_start` ON `open_shifts` (`location_id`,`start_at`);--> statement-breakpoint
CREATE TABLE `schedule_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`role_id` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`utc_offset` integer NOT NULL,
	`timezone` text NOT NULL,
	`breaks` text DEFAULT '[]' NOT NULL,
	`note` text,
	`is_draft` integer NOT NULL,
	`published_at` integer,
	`open_shift_id` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`open_shift_id`) REFERENCES `open_shifts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `schedule_entries_location_draft_start` ON `schedule_entries` (`location_id`,`is_draft`,`start_at`,`id`);--> statement-breakpoint
CREATE INDEX `schedule_entries_employee_start` ON `schedule_entries` (`employee_id`,`start_at`);