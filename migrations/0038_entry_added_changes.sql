DROP INDEX `schedule_changes_employee_date`;--> statement-breakpoint
DROP INDEX `schedule_changes_organization_date`;--> statement-breakpoint
CREATE INDEX `schedule_changes_organization_date` ON `schedule_changes` (`organization_id`,`entry_date`,`id`,`employee_id`);--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_change_id` text;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_employee_id` text;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_notice_minutes` integer;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_minutes` integer;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_entry_date` text;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_rule_pack` text;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_premium_hours` real;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_premium_amount` real;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_premium_rule` text;--> statement-breakpoint
ALTER TABLE `schedule_entries` ADD `added_at` integer;--> statement-breakpoint
CREATE INDEX `schedule_entries_added_date` ON `schedule_entries` (`organization_id`,`added_entry_date`,`added_change_id`,`added_employee_id`,`added_premium_hours`,`added_premium_amount`) WHERE added_change_id IS NOT NULL;