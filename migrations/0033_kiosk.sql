CREATE TABLE `devices` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`enrollment_code_hash` text,
	`enrollment_expires_at` integer,
	`token_hash` text,
	`last_seen_at` integer,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `devices_enrollment_code` ON `devices` (`enrollment_code_hash`) WHERE enrollment_code_hash IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `devices_token` ON `devices` (`token_hash`) WHERE token_hash IS NOT NULL;--> statement-breakpoint
CREATE INDEX `devices_location` ON `devices` (`organization_id`,`location_id`,`id`);--> statement-breakpoint
CREATE TABLE `pin_failures` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`device_id` text,
	`failed_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pin_failures_member` ON `pin_failures` (`employee_id`,`failed_at`);--> statement-breakpoint
CREATE TABLE `staff_member_pins` (
	`employee_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`hash` text NOT NULL,
	`salt` text NOT NULL,
	`iterations` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `photos` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`device_id` text NOT NULL,
	`employee_id` text,
	`shift_id` text,
	`object_key` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`content_type` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`device_id`) REFERENCES `devices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `photos_shift` ON `photos` (`shift_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `photos_organization` ON `photos` (`organization_id`,`id`);--> statement-breakpoint
ALTER TABLE `locations` ADD `kiosk_photo_required` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `shift_events` ADD `source` text DEFAULT 'MOBILE' NOT NULL;--> statement-breakpoint
ALTER TABLE `shift_events` ADD `device_id` text;--> statement-breakpoint
ALTER TABLE `shift_events` ADD `photo_id` text;--> statement-breakpoint
ALTER TABLE `shifts` ADD `clock_in_source` text DEFAULT 'MOBILE' NOT NULL;--> statement-breakpoint
ALTER TABLE `shifts` ADD `clock_in_device_id` text;--> statement-breakpoint
ALTER TABLE `shifts` ADD `clock_out_source` text;--> statement-breakpoint
ALTER TABLE `shifts` ADD `clock_out_device_id` text;