CREATE TABLE `debtor_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`type` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `debtor_events_debtor_idx` ON `debtor_events` (`debtor_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `debtors` ADD `invoice_number` text;--> statement-breakpoint
ALTER TABLE `debtors` ADD `paid_claimed_at` integer;--> statement-breakpoint
ALTER TABLE `organizations` ADD `payment_url` text;--> statement-breakpoint
ALTER TABLE `users` ADD `payment_url` text;