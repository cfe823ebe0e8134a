PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_pay_period_snapshots` (
	`organization_id` text NOT NULL,
	`period_start_date` text NOT NULL,
	`version` integer NOT NULL,
	`snapshot` text,
	`snapshot_hash` text NOT NULL,
	`object_key` text,
	`object_size` integer,
	`object_sha256` text,
	PRIMARY KEY(`organization_id`, `period_start_date`, `version`),
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
-- Snapshots stored before R2 keep their packed payroll (no object); drizzle-kit would select the new columns from the old table.
INSERT INTO `__new_pay_period_snapshots`("organization_id", "period_start_date", "version", "snapshot", "snapshot_hash") SELECT "organization_id", "period_start_date", "version", "snapshot", "snapshot_hash" FROM `pay_period_snapshots`;--> statement-breakpoint
DROP TABLE `pay_period_snapshots`;--> statement-breakpoint
ALTER TABLE `__new_pay_period_snapshots` RENAME TO `pay_period_snapshots`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `pay_period_snapshots_object` ON `pay_period_snapshots` (`object_key`);