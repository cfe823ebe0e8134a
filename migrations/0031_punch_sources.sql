ALTER TABLE `shift_events` ADD `source` text DEFAULT 'MOBILE' NOT NULL;--> statement-breakpoint
ALTER TABLE `shift_events` ADD `device_id` text;--> statement-breakpoint
ALTER TABLE `shift_events` ADD `photo_id` text;--> statement-breakpoint
ALTER TABLE `shifts` ADD `clock_in_source` text DEFAULT 'MOBILE' NOT NULL;--> statement-breakpoint
ALTER TABLE `shifts` ADD `clock_in_device_id` text;--> statement-breakpoint
ALTER TABLE `shifts` ADD `clock_out_source` text;--> statement-breakpoint
ALTER TABLE `shifts` ADD `clock_out_device_id` text;