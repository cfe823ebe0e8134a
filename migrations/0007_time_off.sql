CREATE TABLE `time_off_ledger` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`worker_policy_id` text NOT NULL,
	`kind` text NOT NULL,
	`hours` real NOT NULL,
	`effective_date` text NOT NULL,
	`source_type` text NOT NULL,
	`source_id` text NOT NULL,
	`basis` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`worker_policy_id`) REFERENCES `worker_policies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `time_off_ledger_source` ON `time_off_ledger` (`worker_policy_id`,`kind`,`source_type`,`source_id`);--> statement-breakpoint
CREATE INDEX `time_off_ledger_balance` ON `time_off_ledger` (`worker_policy_id`,`effective_date`);--> statement-breakpoint
CREATE TABLE `time_off_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`location_id` text,
	`name` text NOT NULL,
	`type_id` text NOT NULL,
	`paid` integer DEFAULT true NOT NULL,
	`units` text DEFAULT 'hours' NOT NULL,
	`requires_approval` integer DEFAULT true NOT NULL,
	`carryover_limit` real,
	`allow_negative_balance` integer DEFAULT false NOT NULL,
	`full_day_duration` real DEFAULT 8 NOT NULL,
	`status` text DEFAULT 'Draft' NOT NULL,
	`default_settings` text NOT NULL,
	`limit_settings` text NOT NULL,
	`activated_at` integer,
	`shift_cursor` integer,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`type_id`) REFERENCES `policy_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `time_off_policies_organization_id` ON `time_off_policies` (`organization_id`,`id`);--> statement-breakpoint
CREATE INDEX `time_off_policies_status` ON `time_off_policies` (`status`,`organization_id`);--> statement-breakpoint
CREATE TABLE `time_off_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`worker_id` text NOT NULL,
	`policy_id` text NOT NULL,
	`worker_policy_id` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	`is_all_day` integer DEFAULT false NOT NULL,
	`hour_configuration` text NOT NULL,
	`total_hours` real NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`note` text,
	`timezone` text NOT NULL,
	`utc_offset` integer NOT NULL,
	`submitted_at` integer NOT NULL,
	`decided_at` integer,
	`decline_reason` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`worker_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`policy_id`) REFERENCES `time_off_policies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`worker_policy_id`) REFERENCES `worker_policies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `time_off_requests_organization_id` ON `time_off_requests` (`organization_id`,`id`);--> statement-breakpoint
CREATE INDEX `time_off_requests_worker_start` ON `time_off_requests` (`worker_id`,`start_at`);--> statement-breakpoint
CREATE INDEX `time_off_requests_balance` ON `time_off_requests` (`worker_policy_id`,`status`);--> statement-breakpoint
CREATE TABLE `worker_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`policy_id` text NOT NULL,
	`worker_id` text NOT NULL,
	`is_included` integer,
	`included_at` integer,
	`accrued_through` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`policy_id`) REFERENCES `time_off_policies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`worker_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `worker_policies_policy_worker` ON `worker_policies` (`policy_id`,`worker_id`);--> statement-breakpoint
CREATE INDEX `worker_policies_worker` ON `worker_policies` (`worker_id`,`policy_id`);--> statement-breakpoint
CREATE INDEX `worker_policies_organization_id` ON `worker_policies` (`organization_id`,`id`);--> statement-breakpoint
CREATE INDEX `shifts_organization_updated` ON `shifts` (`organization_id`,`updated_at`);