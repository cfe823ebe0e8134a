CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`organization_id` text NOT NULL,
	`sequence` integer NOT NULL,
	`type` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`form` text NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `events_organization_sequence` ON `events` (`organization_id`,`sequence`);--> statement-breakpoint
CREATE INDEX `events_occurred_at` ON `events` (`occurred_at`);