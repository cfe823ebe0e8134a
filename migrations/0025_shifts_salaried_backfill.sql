-- Shifts recorded before `salaried` existed with no hourly wage (0), of staff members salaried now: they were recorded
-- as salaried, so they read hourlyWage null, as their pay lines already say (rate null). A shift with a wage keeps it.
UPDATE shifts SET salaried = 1
WHERE hourly_wage = 0 AND employee_id IN (SELECT id FROM staff_members WHERE wage_type = 'salary');
