CREATE TABLE `access_roles` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`permissions` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_roles_organization_name` ON `access_roles` (`organization_id`,`name`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `access_roles_organization_id` ON `access_roles` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `locations` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`website` text,
	`country` text,
	`state` text,
	`city` text,
	`address_line1` text,
	`address_line2` text,
	`zip_code` integer,
	`external_id` text,
	`longitude` text,
	`latitude` text,
	`clock_in_distance_centimeters` integer,
	`clock_out_distance_centimeters` integer,
	`break_start_distance_centimeters` integer,
	`break_end_distance_centimeters` integer,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`geofence_mode` text DEFAULT 'block' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `locations_organization_external_id` ON `locations` (`organization_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `locations_organization_id` ON `locations` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`name` text NOT NULL,
	`external_id` text,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`country` text,
	`currency_code` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `organizations_partner_external_id` ON `organizations` (`partner_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `organizations_partner_updated` ON `organizations` (`partner_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `policy_types` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `policy_types_organization_id` ON `policy_types` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `roles` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`hourly_wage` real,
	`external_id` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roles_organization_external_id` ON `roles` (`organization_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `roles_organization_id` ON `roles` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `staff_members` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone_number` text,
	`external_id` text,
	`external_payroll_id` text,
	`access_role_id` text NOT NULL,
	`hourly_wage` real,
	`wage_type` text,
	`employment_type` text,
	`currency_code` text,
	`birth_date` integer,
	`location_ids` text NOT NULL,
	`role_ids` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`access_role_id`) REFERENCES `access_roles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_members_organization_external_id` ON `staff_members` (`organization_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `staff_members_organization_id` ON `staff_members` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `time_off_settings` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`settings` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
