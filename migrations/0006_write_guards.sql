CREATE TABLE `write_guards` (
	`id` integer PRIMARY KEY NOT NULL,
	`ok` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `access_roles` ADD `permissions_version` integer DEFAULT 1 NOT NULL;