CREATE TABLE `exports` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`kind` text NOT NULL,
	`format` text NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`location_id` text,
	`employee_id` text,
	`status` text NOT NULL,
	`rows_written` integer DEFAULT 0 NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`sha256` text,
	`error` text,
	`finished_at` integer,
	`chunk` integer DEFAULT 0 NOT NULL,
	`cursor` text,
	`object_key` text NOT NULL,
	`upload_id` text,
	`parts` text NOT NULL,
	`pending_key` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE INDEX `exports_organization` ON `exports` (`organization_id`);