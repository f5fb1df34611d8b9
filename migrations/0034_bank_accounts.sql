CREATE TABLE `bank_accounts` (
	`owner_id` text NOT NULL,
	`currency` text NOT NULL,
	`holder` text NOT NULL,
	`iban` text,
	`bic` text,
	`account_number` text,
	`sort_code` text,
	`routing_number` text,
	`reference` text DEFAULT '{invoice}' NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`owner_id`, `currency`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
