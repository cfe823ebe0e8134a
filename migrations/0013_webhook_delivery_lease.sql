ALTER TABLE `webhooks` ADD `delivery_lease` text;--> statement-breakpoint
ALTER TABLE `webhooks` ADD `delivering_until` integer;