ALTER TABLE `organizations` ADD `sandbox` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `organizations` ADD `clock_offset_ms` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `organizations_sandboxes` ON `organizations` (`id`) WHERE sandbox = 1;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `failing_since` integer;--> statement-breakpoint
CREATE INDEX `webhook_deliveries_pending` ON `webhook_deliveries` (`webhook_id`) WHERE status = 'pending';--> statement-breakpoint
-- A sandbox never becomes a live organization, nor a live one a sandbox, whatever writes the row.
CREATE TRIGGER `organizations_sandbox_permanent` BEFORE UPDATE OF `sandbox` ON `organizations`
WHEN NEW.`sandbox` IS NOT OLD.`sandbox`
BEGIN SELECT RAISE(ABORT, 'SANDBOX_PERMANENT'); END;
