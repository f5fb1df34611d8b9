CREATE TABLE `accounting_writebacks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`payment_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`provider` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`account_id` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`refusals` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`external_payment_id` text,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounting_writebacks_payment_idx` ON `accounting_writebacks` (`payment_id`,`invoice_id`);--> statement-breakpoint
CREATE INDEX `accounting_writebacks_owner_idx` ON `accounting_writebacks` (`owner_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `accounting_writebacks_due_idx` ON `accounting_writebacks` (`next_attempt_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE TABLE `dev_quickbooks_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`realm_id` text,
	`data` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dev_quickbooks_objects_realm_idx` ON `dev_quickbooks_objects` (`realm_id`,`kind`,`updated_at`);--> statement-breakpoint
ALTER TABLE `accounting_connections` ADD `import_page` integer;--> statement-breakpoint
ALTER TABLE `accounting_connections` ADD `import_skipped` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `accounting_connections` ADD `reconnect_told_at` integer;--> statement-breakpoint
ALTER TABLE `accounting_connections` ADD `writeback_account_id` text;--> statement-breakpoint
ALTER TABLE `accounting_connections` ADD `writeback_account_name` text;--> statement-breakpoint
CREATE INDEX `accounting_connections_tenant_idx` ON `accounting_connections` (`provider`,`tenant_id`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `source_url` text;