CREATE TABLE `debtor_contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`role` text,
	`cc` integer DEFAULT true NOT NULL,
	`bounced_at` integer,
	`bounce_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `debtor_contacts_owner_idx` ON `debtor_contacts` (`owner_id`,`debtor_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `debtor_contacts_debtor_email_idx` ON `debtor_contacts` (`debtor_id`,`email`);--> statement-breakpoint
CREATE INDEX `debtor_contacts_owner_email_idx` ON `debtor_contacts` (`owner_id`,`email`);--> statement-breakpoint
ALTER TABLE `debtors` ADD `contact_name` text;--> statement-breakpoint
ALTER TABLE `debtors` ADD `contact_role` text;--> statement-breakpoint
ALTER TABLE `dev_outbox` ADD `cc` text;