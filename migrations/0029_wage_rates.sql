CREATE TABLE `wage_rates` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`role_id` text,
	`location_id` text,
	`hourly_rate` real NOT NULL,
	`effective_from` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `wage_rates_unique` ON `wage_rates` (`employee_id`,coalesce(`role_id`, ''),coalesce(`location_id`, ''),`effective_from`) WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX `wage_rates_organization` ON `wage_rates` (`organization_id`,`id`);--> statement-breakpoint
ALTER TABLE `shifts` ADD `wage_rate_id` text;