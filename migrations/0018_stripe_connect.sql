CREATE TABLE `online_payments` (
	`session_id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`account_id` text NOT NULL,
	`invoice_id` integer,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`payment_intent_id` text,
	`received_cents` integer DEFAULT 0 NOT NULL,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`dispute_lost_cents` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `online_payments_debtor_idx` ON `online_payments` (`debtor_id`,`status`);--> statement-breakpoint
CREATE INDEX `online_payments_owner_idx` ON `online_payments` (`owner_id`,`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `online_payments_intent_idx` ON `online_payments` (`payment_intent_id`);--> statement-breakpoint
CREATE TABLE `stripe_accounts` (
	`user_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`charges_enabled` integer DEFAULT false NOT NULL,
	`details_submitted` integer DEFAULT false NOT NULL,
	`livemode` integer DEFAULT false NOT NULL,
	`connected_at` integer NOT NULL,
	`disconnected_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `stripe_accounts_account_idx` ON `stripe_accounts` (`account_id`);--> statement-breakpoint
ALTER TABLE `payments` ADD `source` text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_payment_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_provider_payment_idx` ON `payments` (`provider_payment_id`);