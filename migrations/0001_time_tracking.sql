CREATE TABLE `break_types` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`name` text NOT NULL,
	`duration_minutes` integer NOT NULL,
	`frequency_minutes` integer NOT NULL,
	`paid` integer NOT NULL,
	`mandatory` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `break_types_location` ON `break_types` (`organization_id`,`location_id`,`id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`status` integer,
	`body` text,
	`content_type` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_expires` ON `idempotency_keys` (`expires_at`);--> statement-breakpoint
CREATE TABLE `locked_days` (
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`date` text NOT NULL,
	`locked_by` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`location_id`, `date`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `locked_days_organization_date` ON `locked_days` (`organization_id`,`date`);--> statement-breakpoint
CREATE TABLE `shift_breaks` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`shift_id` text NOT NULL,
	`type_id` text,
	`name` text NOT NULL,
	`paid` integer NOT NULL,
	`mandatory` integer NOT NULL,
	`frequency_minutes` integer NOT NULL,
	`duration_in_settings_minutes` integer NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer,
	`automatic` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shift_id`) REFERENCES `shifts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`type_id`) REFERENCES `break_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shift_breaks_shift` ON `shift_breaks` (`shift_id`,`start_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `shift_breaks_one_open_per_shift` ON `shift_breaks` (`shift_id`) WHERE end_at IS NULL;--> statement-breakpoint
CREATE TABLE `shift_events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`shift_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`kind` text NOT NULL,
	`break_id` text DEFAULT '' NOT NULL,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL,
	`latitude` real,
	`longitude` real,
	`accuracy_centimeters` integer,
	`distance_centimeters` integer,
	`verdict` text NOT NULL,
	`flags` text NOT NULL,
	`idempotency_key` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shift_id`) REFERENCES `shifts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shift_events_once` ON `shift_events` (`shift_id`,`kind`,`break_id`);--> statement-breakpoint
CREATE INDEX `shift_events_employee` ON `shift_events` (`employee_id`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `shift_notes` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`shift_id` text NOT NULL,
	`author_id` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shift_id`) REFERENCES `shifts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shift_notes_shift` ON `shift_notes` (`shift_id`,`id`);--> statement-breakpoint
CREATE TABLE `shifts` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`location_id` text NOT NULL,
	`role_id` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer,
	`utc_offset` integer NOT NULL,
	`business_date` text NOT NULL,
	`hourly_wage` real DEFAULT 0 NOT NULL,
	`duration` integer DEFAULT 0 NOT NULL,
	`total_paid_breaks` integer DEFAULT 0 NOT NULL,
	`total_unpaid_breaks` integer DEFAULT 0 NOT NULL,
	`payable_duration` integer DEFAULT 0 NOT NULL,
	`flags` text DEFAULT '[]' NOT NULL,
	`manual_entry` integer DEFAULT false NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`role_id`) REFERENCES `roles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shifts_one_open_per_employee` ON `shifts` (`employee_id`) WHERE end_at IS NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `shifts_organization_business_date` ON `shifts` (`organization_id`,`business_date`,`id`);--> statement-breakpoint
CREATE INDEX `shifts_employee_business_date` ON `shifts` (`organization_id`,`employee_id`,`business_date`);--> statement-breakpoint
CREATE INDEX `shifts_location_business_date` ON `shifts` (`organization_id`,`location_id`,`business_date`);