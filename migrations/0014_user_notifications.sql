CREATE TABLE `user_notifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`kind` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`event_key` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_notifications_event_key_idx` ON `user_notifications` (`event_key`);--> statement-breakpoint
CREATE INDEX `user_notifications_pending_idx` ON `user_notifications` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `user_notifications_owner_idx` ON `user_notifications` (`owner_id`,`status`);--> statement-breakpoint
CREATE INDEX `user_notifications_debtor_idx` ON `user_notifications` (`debtor_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `notify_debtor_actions` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `notify_delivery_problems` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `notify_digest` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `digest_sent_on` text;--> statement-breakpoint
CREATE INDEX `users_digest_idx` ON `users` (`notify_digest`,`digest_sent_on`);