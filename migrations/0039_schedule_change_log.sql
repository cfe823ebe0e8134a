-- The change log as readers see it (drizzle/schema/schedule-changes.ts scheduleChangeLog): schedule_changes, and the
-- ADDED changes a publish keeps on its entries' rows. Each arm's WHERE matches its partial indexes. A later migration
-- that rebuilds either table must drop this view first and create it again after.
CREATE VIEW `schedule_change_log` AS
SELECT `id`, `organization_id`, `location_id`, `schedule_entry_id`, `employee_id`, `kind`, `notice_minutes`, `minutes_lost`,
  `minutes_added`, `entry_minutes`, `initiated_by`, `exemption`, `reason`, `entry_date`, `rule_pack`, `premium_hours`,
  `premium_amount`, `premium_rule`, `active`, `created_at`, `updated_at`, `deleted_at`
FROM `schedule_changes`
UNION ALL
SELECT `added_change_id`, `organization_id`, `location_id`, `id`, `added_employee_id`, 'ADDED', `added_notice_minutes`, 0,
  `added_minutes`, `added_minutes`, 'EMPLOYER', NULL, NULL, `added_entry_date`, `added_rule_pack`, `added_premium_hours`,
  `added_premium_amount`, `added_premium_rule`, 1, `added_at`, `added_at`, NULL
FROM `schedule_entries` WHERE `added_change_id` IS NOT NULL;
