CREATE TABLE `pay_period_settings` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`frequency` text NOT NULL,
	`anchor_date` text NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `pay_period_snapshots` (
	`organization_id` text NOT NULL,
	`period_start_date` text NOT NULL,
	`version` integer NOT NULL,
	`snapshot` text NOT NULL,
	`snapshot_hash` text NOT NULL,
	PRIMARY KEY(`organization_id`, `period_start_date`, `version`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `pay_periods` (
	`organization_id` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`status` text NOT NULL,
	`version` integer NOT NULL,
	`closed_at` integer,
	`closed_by` text,
	`snapshot_hash` text,
	`reopened_at` integer,
	`reopened_by` text,
	`reopen_reason` text,
	PRIMARY KEY(`organization_id`, `start_date`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pay_periods_end` ON `pay_periods` (`organization_id`,`end_date`);--> statement-breakpoint
CREATE TABLE `pay_rule_set_uses` (
	`rule_set_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`period_start_date` text NOT NULL,
	PRIMARY KEY(`rule_set_id`, `period_start_date`),
	FOREIGN KEY (`rule_set_id`) REFERENCES `pay_rule_sets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `pay_rule_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text,
	`scope_key` text NOT NULL,
	`name` text NOT NULL,
	`effective_from` text NOT NULL,
	`preset` text NOT NULL,
	`workweek_starts_on` text NOT NULL,
	`daily_overtime_after_minutes` integer,
	`daily_double_time_after_minutes` integer,
	`weekly_overtime_after_minutes` integer,
	`seventh_consecutive_day` integer NOT NULL,
	`overtime_multiplier` real NOT NULL,
	`double_time_multiplier` real NOT NULL,
	`rounding_increment_minutes` integer NOT NULL,
	`rounding_mode` text NOT NULL,
	`meal_break` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pay_rule_sets_version` ON `pay_rule_sets` (`organization_id`,`scope_key`,`effective_from`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE TABLE `timesheet_approvals` (
	`organization_id` text NOT NULL,
	`period_start_date` text NOT NULL,
	`period_end_date` text NOT NULL,
	`employee_id` text NOT NULL,
	`approved_at` integer NOT NULL,
	`approved_by` text NOT NULL,
	PRIMARY KEY(`organization_id`, `period_start_date`, `employee_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `timesheet_approvals_employee` ON `timesheet_approvals` (`employee_id`,`period_end_date`);