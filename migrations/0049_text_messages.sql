CREATE TABLE `text_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer,
	`delivery_id` integer,
	`idempotency_key` text NOT NULL,
	`to` text NOT NULL,
	`body` text NOT NULL,
	`sid` text,
	`provider` text NOT NULL,
	`status` text NOT NULL,
	`error_code` text,
	`error` text,
	`attempted_at` integer NOT NULL,
	`attempts` integer DEFAULT 1 NOT NULL,
	`status_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `text_messages_key_idx` ON `text_messages` (`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `text_messages_sid_idx` ON `text_messages` (`sid`);--> statement-breakpoint
CREATE INDEX `text_messages_owner_idx` ON `text_messages` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `text_messages_to_idx` ON `text_messages` (`to`,`created_at`);--> statement-breakpoint
DROP INDEX `debtors_owner_phone_idx`;--> statement-breakpoint
CREATE INDEX `debtors_phone_idx` ON `debtors` (`phone`,`owner_id`) WHERE phone IS NOT NULL;