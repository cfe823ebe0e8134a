ALTER TABLE `availabilities` ADD `exdates` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `availabilities` ADD `occurrences_through` integer;--> statement-breakpoint
CREATE INDEX `availabilities_occurrences_through` ON `availabilities` (`occurrences_through`) WHERE deleted_at IS NULL AND occurrences_through IS NOT NULL;--> statement-breakpoint
-- Rules written before the rolling horizon hold two years from their first occurrence: the Cron goes on from there.
UPDATE `availabilities` SET `occurrences_through` = `start_time` + 731 * 86400000 WHERE `recurrence` IS NOT NULL AND `deleted_at` IS NULL;
