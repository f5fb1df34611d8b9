CREATE TABLE `opt_outs` (
	`owner_id` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`owner_id`, `email`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`paid_on` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payments_debtor_idx` ON `payments` (`debtor_id`,`paid_on`);--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_events_received_idx` ON `webhook_events` (`received_at`);--> statement-breakpoint
ALTER TABLE `debtors` ADD `time_zone` text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE `debtors` ADD `opt_out_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `debtors_opt_out_key_idx` ON `debtors` (`opt_out_key`);--> statement-breakpoint
ALTER TABLE `deliveries` ADD `delivered_at` integer;--> statement-breakpoint
CREATE INDEX `deliveries_provider_idx` ON `deliveries` (`provider_id`);--> statement-breakpoint
ALTER TABLE `schedules` ADD `stopped_reason` text;--> statement-breakpoint
ALTER TABLE `users` ADD `quiet_start_hour` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `quiet_end_hour` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `contact_cap` integer;