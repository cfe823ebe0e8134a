-- One change log (issue 45 item 1): the ADDED changes publishes kept on their entries' rows move into
-- schedule_changes with their ids, so every change a client saw stays; then the view and the columns go.
DROP VIEW `schedule_change_log`;--> statement-breakpoint
INSERT INTO `schedule_changes` (`id`, `organization_id`, `location_id`, `schedule_entry_id`, `employee_id`, `kind`,
  `notice_minutes`, `minutes_lost`, `minutes_added`, `entry_minutes`, `initiated_by`, `exemption`, `reason`, `entry_date`,
  `rule_pack`, `premium_hours`, `premium_amount`, `premium_rule`, `active`, `created_at`, `updated_at`, `deleted_at`)
SELECT `added_change_id`, `organization_id`, `location_id`, `id`, `added_employee_id`, 'ADDED', `added_notice_minutes`, 0,
  `added_minutes`, `added_minutes`, 'EMPLOYER', NULL, NULL, `added_entry_date`, `added_rule_pack`, `added_premium_hours`,
  `added_premium_amount`, `added_premium_rule`, 1, `added_at`, `added_at`, NULL
FROM `schedule_entries` WHERE `added_change_id` IS NOT NULL;--> statement-breakpoint
-- schedule_changes.recorded is no longer recorded: an endpoint subscribed to it receives schedule.published, whose
-- data now carries the publish's changes and premiums.
UPDATE `webhooks` SET `types` = (SELECT json_group_array(`value`) FROM (SELECT DISTINCT CASE `value` WHEN 'schedule_changes.recorded'
  THEN 'schedule.published' ELSE `value` END AS `value` FROM json_each(`webhooks`.`types`)))
WHERE EXISTS (SELECT 1 FROM json_each(`webhooks`.`types`) WHERE `value` = 'schedule_changes.recorded');--> statement-breakpoint
DROP INDEX `schedule_entries_added_date`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_change_id`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_employee_id`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_notice_minutes`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_minutes`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_entry_date`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_rule_pack`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_premium_hours`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_premium_amount`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_premium_rule`;--> statement-breakpoint
ALTER TABLE `schedule_entries` DROP COLUMN `added_at`;