CREATE TABLE `organization_freezes` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`moving_to` text NOT NULL,
	`started_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `organization_moves` (
	`organization_id` text PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`target` text NOT NULL,
	`step` text NOT NULL,
	`table_index` integer DEFAULT 0 NOT NULL,
	`cursor` text,
	`verify_failures` integer DEFAULT 0 NOT NULL,
	`rows_copied` integer DEFAULT 0 NOT NULL,
	`rows_deleted` integer DEFAULT 0 NOT NULL,
	`error` text,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `write_guards` ADD `settled` integer DEFAULT 1 NOT NULL;