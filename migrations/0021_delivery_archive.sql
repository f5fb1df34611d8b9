-- Bounded deliveries (docs/architecture.md §12, docs/decisions/022): deliveries older than 13
-- months move to one file per account and month in the ARCHIVE bucket; delivery_archives says
-- where, delivery_rollups keeps their counts per debtor, month, status, kind (test send or not)
-- and schedule.
CREATE TABLE `delivery_archives` (
	`owner_id` text NOT NULL,
	`month` text NOT NULL,
	`object_key` text NOT NULL,
	`rows` integer NOT NULL,
	`bytes` integer NOT NULL,
	`archived_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`owner_id`, `month`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `delivery_rollups` (
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`month` text NOT NULL,
	`status` text NOT NULL,
	`test_send` integer NOT NULL,
	`schedule_id` text DEFAULT '' NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`owner_id`, `debtor_id`, `month`, `status`, `test_send`, `schedule_id`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `delivery_rollups_schedule_idx` ON `delivery_rollups` (`owner_id`,`schedule_id`,`status`);--> statement-breakpoint
-- The archive finds the oldest delivery of any account in one step.
CREATE INDEX `deliveries_created_idx` ON `deliveries` (`created_at`);