CREATE TABLE `demand_intervals` (
	`organization_id` text NOT NULL,
	`location_id` text NOT NULL,
	`metric` text NOT NULL,
	`kind` text NOT NULL,
	`start_at` integer NOT NULL,
	`value` real NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`location_id`, `metric`, `kind`, `start_at`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `labor_targets` (
	`location_id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`labor_percent` real NOT NULL,
	`sales_per_labor_hour` real NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
