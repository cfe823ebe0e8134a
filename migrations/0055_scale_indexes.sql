CREATE INDEX `worker_policies_policy_id` ON `worker_policies` (`policy_id`,`id`);--> statement-breakpoint
CREATE INDEX `shifts_organization_employee_date` ON `shifts` (`organization_id`,`employee_id`,`business_date`);--> statement-breakpoint
CREATE INDEX `shifts_employee_end` ON `shifts` (`employee_id`,`end_at`);