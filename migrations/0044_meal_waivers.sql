ALTER TABLE `staff_members` ADD `meal_waivers` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `pay_rule_sets` ADD `meal_breaks` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `pay_rule_sets` ADD `meal_penalty_hours` real DEFAULT 1 NOT NULL;--> statement-breakpoint
-- The single meal rule becomes the first meal period, its penalty the set's meal penalty hours.
UPDATE `pay_rule_sets` SET
  `meal_breaks` = CASE WHEN `meal_break` IS NULL THEN '[]' ELSE json_array(json_object(
    'afterMinutes', json_extract(`meal_break`, '$.afterMinutes'),
    'minimumMinutes', json_extract(`meal_break`, '$.minimumMinutes'))) END,
  `meal_penalty_hours` = COALESCE(json_extract(`meal_break`, '$.penaltyHours'), 1);--> statement-breakpoint
ALTER TABLE `pay_rule_sets` DROP COLUMN `meal_break`;
