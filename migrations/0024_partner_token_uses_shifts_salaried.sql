CREATE TABLE `partner_token_uses` (
	`partner_id` text NOT NULL,
	`jti` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`partner_id`, `jti`)
);
--> statement-breakpoint
CREATE INDEX `partner_token_uses_expires` ON `partner_token_uses` (`expires_at`);--> statement-breakpoint
ALTER TABLE `shifts` ADD `salaried` integer DEFAULT false NOT NULL;