-- schedule_changes clustered on its id (WITHOUT ROWID, which drizzle-kit does not model: drizzle/schema/schedule-changes.ts
-- says why). A rebuild as 0026's; the same columns, foreign keys and indexes.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_schedule_changes` (
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
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_schedule_changes`("id", "organization_id", "location_id", "schedule_entry_id", "employee_id", "kind", "notice_minutes", "minutes_lost", "minutes_added", "entry_minutes", "initiated_by", "exemption", "reason", "entry_date", "rule_pack", "premium_hours", "premium_amount", "premium_rule", "active", "created_at", "updated_at", "deleted_at") SELECT "id", "organization_id", "location_id", "schedule_entry_id", "employee_id", "kind", "notice_minutes", "minutes_lost", "minutes_added", "entry_minutes", "initiated_by", "exemption", "reason", "entry_date", "rule_pack", "premium_hours", "premium_amount", "premium_rule", "active", "created_at", "updated_at", "deleted_at" FROM `schedule_changes` ORDER BY "id";--> statement-breakpoint
DROP TABLE `schedule_changes`;--> statement-breakpoint
ALTER TABLE `__new_schedule_changes` RENAME TO `schedule_changes`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `schedule_changes_organization_date` ON `schedule_changes` (`organization_id`,`entry_date`,`id`);--> statement-breakpoint
CREATE INDEX `schedule_changes_employee_date` ON `schedule_changes` (`employee_id`,`entry_date`);
