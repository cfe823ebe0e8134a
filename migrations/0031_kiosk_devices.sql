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
