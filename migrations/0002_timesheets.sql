CREATE TABLE `shift_audits` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`shift_id` text NOT NULL,
	`action` text NOT NULL,
	`actor_partner_id` text NOT NULL,
	`actor_staff_member_id` text,
	`at` integer NOT NULL,
	`before` text,
	`after` text,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`shift_id`) REFERENCES `shifts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shift_audits_shift` ON `shift_audits` (`organization_id`,`shift_id`,`at`);--> statement-breakpoint
DROP INDEX `shifts_employee_business_date`;--> statement-breakpoint
DROP INDEX `shifts_location_business_date`;--> statement-breakpoint
CREATE INDEX `shifts_employee_business_date` ON `shifts` (`organization_id`,`employee_id`,`business_date`,`id`);--> statement-breakpoint
CREATE INDEX `shifts_location_business_date` ON `shifts` (`organization_id`,`location_id`,`business_date`,`id`);