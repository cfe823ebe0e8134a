CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`subject` text NOT NULL,
	`step` text,
	`step_index` integer DEFAULT 0 NOT NULL,
	`steps` integer,
	`progress_permille` integer DEFAULT 0 NOT NULL,
	`error` text,
	`error_code` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `jobs_organization` ON `jobs` (`organization_id`,`kind`,`subject`);