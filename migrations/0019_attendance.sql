CREATE TABLE `attendance_exceptions` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`type` text NOT NULL,
	`business_date` text NOT NULL,
	`schedule_entry_id` text,
	`shift_id` text,
	`minutes` integer,
	`status` text NOT NULL,
	`note` text,
	`detected_at` integer NOT NULL,
	`resolved_at` integer,
	`resolved_by` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`schedule_entry_id`) REFERENCES `schedule_entries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shift_id`) REFERENCES `shifts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `attendance_exceptions_date` ON `attendance_exceptions` (`organization_id`,`business_date`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `attendance_exceptions_once_per_shift` ON `attendance_exceptions` (`shift_id`,`type`) WHERE shift_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `attendance_exceptions_once_per_entry` ON `attendance_exceptions` (`schedule_entry_id`,`type`) WHERE type IN ('NO_SHOW', 'LATE_CLOCK_IN', 'EARLY_CLOCK_OUT');--> statement-breakpoint
CREATE TABLE `attendance_settings` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`late_grace_minutes` integer NOT NULL,
	`early_leave_grace_minutes` integer NOT NULL,
	`no_show_after_minutes` integer NOT NULL,
	`auto_clock_out_after_minutes` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `schedule_entries_published_start` ON `schedule_entries` (`start_at`) WHERE is_draft = 0 AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `shifts_open_start` ON `shifts` (`start_at`) WHERE end_at IS NULL AND deleted_at IS NULL;