CREATE TABLE `availabilities` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`type` text NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`timezone` text NOT NULL,
	`recurrence` text,
	`note` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `staff_members`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `availabilities_employee` ON `availabilities` (`employee_id`,`organization_id`);--> statement-breakpoint
CREATE TABLE `availability_occurrences` (
	`availability_id` text NOT NULL,
	`organization_id` text NOT NULL,
	`employee_id` text NOT NULL,
	`type` text NOT NULL,
	`start_at` integer NOT NULL,
	`end_at` integer NOT NULL,
	PRIMARY KEY(`availability_id`, `start_at`),
	FOREIGN KEY (`availability_id`) REFERENCES `availabilities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `availability_occurrences_employee` ON `availability_occurrences` (`employee_id`,`start_at`);