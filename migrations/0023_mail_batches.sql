CREATE TABLE `mail_batches` (
	`key` text PRIMARY KEY NOT NULL,
	`jobs` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`lease_until` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mail_batches_due_idx` ON `mail_batches` (`next_attempt_at`);--> statement-breakpoint
ALTER TABLE `deliveries` ADD `batch_key` text;--> statement-breakpoint
CREATE INDEX `deliveries_sending_idx` ON `deliveries` (`created_at`) WHERE status = 'sending';