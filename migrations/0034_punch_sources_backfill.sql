-- Shifts and events recorded before sources existed: a manual entry came from a manager's hand, a shift the attendance
-- pass closed (AUTO_CLOCK_OUT) was closed by it, every other punch from a phone (the column's default, MOBILE).
UPDATE shifts SET clock_in_source = 'MANUAL', clock_out_source = CASE WHEN end_at IS NULL THEN NULL ELSE 'MANUAL' END
WHERE manual_entry = 1;--> statement-breakpoint
UPDATE shifts SET clock_out_source = CASE WHEN flags LIKE '%"AUTO_CLOCK_OUT"%' THEN 'AUTO' ELSE 'MOBILE' END
WHERE manual_entry = 0 AND end_at IS NOT NULL;--> statement-breakpoint
UPDATE shift_events SET source = 'AUTO' WHERE flags LIKE '%"AUTO_CLOCK_OUT"%';
