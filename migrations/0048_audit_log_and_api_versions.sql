CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`sequence` integer NOT NULL,
	`at` integer NOT NULL,
	`actor_type` text NOT NULL,
	`actor_id` text NOT NULL,
	`device_id` text,
	`operation_id` text,
	`event_type` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text,
	`staff_member_id` text,
	`ip_country` text,
	`before_form` text,
	`before` text,
	`after_form` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_organization_sequence` ON `audit_log` (`organization_id`,`sequence`);--> statement-breakpoint
CREATE INDEX `audit_log_resource` ON `audit_log` (`organization_id`,`resource_type`,`resource_id`,`sequence`);--> statement-breakpoint
CREATE INDEX `audit_log_staff_member` ON `audit_log` (`organization_id`,`staff_member_id`,`sequence`);--> statement-breakpoint
CREATE INDEX `audit_log_actor` ON `audit_log` (`organization_id`,`actor_id`,`sequence`);--> statement-breakpoint
CREATE TABLE `partner_api_versions` (
	`partner_id` text PRIMARY KEY NOT NULL,
	`version` text NOT NULL,
	`pinned_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `webhooks` ADD `api_version` text;--> statement-breakpoint
-- The audit log is immutable: no statement changes an entry, and one is deleted only with its organization (deleted,
-- or gone) or by a move between shards (its organization frozen here).
CREATE TRIGGER `audit_log_immutable` BEFORE UPDATE ON `audit_log` BEGIN SELECT RAISE(ABORT, 'audit_log entries are immutable'); END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_kept` BEFORE DELETE ON `audit_log`
WHEN EXISTS (SELECT 1 FROM `organizations` o WHERE o.`id` = OLD.`organization_id` AND o.`deleted_at` IS NULL)
  AND NOT EXISTS (SELECT 1 FROM `organization_freezes` f WHERE f.`organization_id` = OLD.`organization_id`)
BEGIN SELECT RAISE(ABORT, 'audit_log entries are deleted only with their organization'); END;
