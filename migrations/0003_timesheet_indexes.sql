DROP INDEX `shifts_employee_business_date`;--> statement-breakpoint
DROP INDEX `shifts_location_business_date`;--> statement-breakpoint
CREATE INDEX `shifts_employee_business_date` ON `shifts` (`employee_id`,`business_date`,`id`);--> statement-breakpoint
CREATE INDEX `shifts_location_business_date` ON `shifts` (`location_id`,`business_date`,`id`);