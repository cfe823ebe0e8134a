CREATE TABLE `consents` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`kind` text NOT NULL,
	`schedule_entry_id` text,
	`note` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `consents_employee` ON `consents` (`employee_id`,`id`);--> statement-breakpoint
CREATE INDEX `consents_organization` ON `consents` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `schedule_changes` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`schedule_entry_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`kind` text NOT NULL,
	`notice_minutes` integer NOT NULL,
	`minutes_lost` integer NOT NULL,
	`minutes_added` integer NOT NULL,
	`entry_minutes` integer NOT NULL,
	`initiated_by` text NOT NULL,
	`exemption` text,
	`reason` text,
	`entry_date` text NOT NULL,
	`rule_pack` text NOT NULL,
	`premium_hours` real,
	`premium_amount` real,
	`premium_rule` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `schedule_changes_organization_date` ON `schedule_changes` (`organization_id`,`entry_date`,`id`);--> statement-breakpoint
CREATE INDEX `schedule_changes_employee_date` ON `schedule_changes` (`employee_id`,`entry_date`);