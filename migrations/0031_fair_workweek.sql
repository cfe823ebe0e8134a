CREATE TABLE `good_faith_estimates` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`weekly_hours_min` real NOT NULL,
	`weekly_hours_max` real NOT NULL,
	`effective_from` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `good_faith_estimates_employee_date` ON `good_faith_estimates` (`employee_id`,`effective_from`);--> statement-breakpoint
CREATE INDEX `good_faith_estimates_organization` ON `good_faith_estimates` (`organization_id`,`id`);--> statement-breakpoint
CREATE TABLE `location_fair_workweek` (
	`location_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`rule_pack` text,
	`overrides` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
