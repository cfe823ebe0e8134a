CREATE TABLE `cost_code_assignments` (
	`organization_id` text NOT NULL,
	`cost_code_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`cost_code_id`, `employee_id`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cost_code_id`) REFERENCES `cost_codes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `cost_code_assignments_employee` ON `cost_code_assignments` (`employee_id`);--> statement-breakpoint
CREATE TABLE `cost_codes` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`parent_id` text,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`external_id` text,
	`depth` integer NOT NULL,
	`assign_all` integer DEFAULT false NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cost_codes_root_code` ON `cost_codes` (`organization_id`,`code`) WHERE parent_id IS NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `cost_codes_child_code` ON `cost_codes` (`parent_id`,`code`) WHERE parent_id IS NOT NULL AND deleted_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `cost_codes_organization_external_id` ON `cost_codes` (`organization_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `cost_codes_organization_id` ON `cost_codes` (`organization_id`,`id`);--> statement-breakpoint
ALTER TABLE `shifts` ADD `cost_code_id` text REFERENCES cost_codes(id);