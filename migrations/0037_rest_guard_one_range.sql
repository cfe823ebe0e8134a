DROP INDEX `schedule_entries_employee_end`;--> statement-breakpoint
DROP INDEX `schedule_entries_employee_start`;--> statement-breakpoint
CREATE INDEX `schedule_entries_employee_start` ON `schedule_entries` (`employee_id`,`start_at`,`end_at`);