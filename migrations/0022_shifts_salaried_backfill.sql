-- Shifts recorded before `salaried` existed: those of staff members salaried now are not paid by the hour, as their
-- pay lines already say (rate null), so they read hourlyWage null and add no amount to timesheet totals.
UPDATE shifts SET salaried = 1, hourly_wage = 0
WHERE employee_id IN (SELECT id FROM staff_members WHERE wage_type = 'salary');
