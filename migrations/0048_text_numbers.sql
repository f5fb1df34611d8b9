CREATE TABLE `text_opt_outs` (
	`owner_id` text NOT NULL,
	`number` text NOT NULL,
	`source` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`owner_id`, `number`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `text_settings` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`countries` text DEFAULT '' NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `text_usage` (
	`owner_id` text NOT NULL,
	`month` text NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`owner_id`, `month`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `debtor_contacts` ADD `phone` text;--> statement-breakpoint
ALTER TABLE `debtors` ADD `phone` text;--> statement-breakpoint
ALTER TABLE `debtors` ADD `text_consent_at` integer;--> statement-breakpoint
ALTER TABLE `debtors` ADD `text_consent_by` text;--> statement-breakpoint
CREATE INDEX `debtors_owner_phone_idx` ON `debtors` (`owner_id`,`phone`) WHERE phone IS NOT NULL;