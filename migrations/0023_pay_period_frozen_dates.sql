ALTER TABLE `pay_periods` ADD `frozen_from` text;--> statement-breakpoint
ALTER TABLE `pay_periods` ADD `frozen_to` text;--> statement-breakpoint
CREATE INDEX `pay_periods_frozen` ON `pay_periods` (`organization_id`,`frozen_to`);--> statement-breakpoint
-- Periods closed before the freeze covered whole workweeks keep what they froze then: their own dates.
UPDATE `pay_periods` SET `frozen_from` = `start_date`, `frozen_to` = `end_date` WHERE `frozen_from` IS NULL;
