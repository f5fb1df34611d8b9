CREATE TABLE `debtor_replies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`from_address` text NOT NULL,
	`subject` text DEFAULT '' NOT NULL,
	`sent_at` integer,
	`text` text DEFAULT '' NOT NULL,
	`attachments` text DEFAULT '[]' NOT NULL,
	`auto` integer DEFAULT false NOT NULL,
	`handled_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `debtor_replies_debtor_idx` ON `debtor_replies` (`debtor_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `debtor_replies_owner_idx` ON `debtor_replies` (`owner_id`,`handled_at`,`created_at`);