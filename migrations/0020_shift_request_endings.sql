ALTER TABLE `schedule_entries` ADD `ignore_availability` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `shift_requests` ADD `cancel_reason` text;--> statement-breakpoint
CREATE INDEX `shift_requests_live_target_entry` ON `shift_requests` (`target_schedule_entry_id`) WHERE status IN ('PENDING', 'ACCEPTED');