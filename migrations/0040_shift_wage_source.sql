ALTER TABLE `shifts` ADD `wage_source` text DEFAULT 'RESOLVED' NOT NULL;--> statement-breakpoint
-- Shifts recorded before the column: a wage that is neither a rate's nor the role's (else the staff member's) wage
-- as they are now was set by hand. One the rules gave but whose role wage changed since reads as set by hand too:
-- a retroactive rate then leaves it as it is, never re-rating a wage someone set.
UPDATE `shifts` SET `wage_source` = 'SET_BY_HAND'
WHERE `wage_rate_id` IS NULL AND `salaried` = 0
  AND `hourly_wage` IS NOT coalesce(
    (SELECT `hourly_wage` FROM `roles` WHERE `roles`.`id` = `shifts`.`role_id`),
    (SELECT `hourly_wage` FROM `staff_members` WHERE `staff_members`.`id` = `shifts`.`employee_id`),
    0);
