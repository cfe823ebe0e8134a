DROP INDEX `pin_failures_member`;--> statement-breakpoint
ALTER TABLE `pin_failures` ADD `location_id` text;--> statement-breakpoint
CREATE INDEX `pin_failures_member_location` ON `pin_failures` (`employee_id`,`location_id`,`failed_at`);--> statement-breakpoint
-- A failure belongs to its device's location (a device never moves location).
UPDATE `pin_failures` SET `location_id` = (SELECT `location_id` FROM `devices` WHERE `devices`.`id` = `pin_failures`.`device_id`) WHERE `device_id` IS NOT NULL;
