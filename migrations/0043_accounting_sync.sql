CREATE TABLE `accounting_connections` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`tenant_id` text,
	`tenant_name` text,
	`connection_id` text,
	`access_token` text NOT NULL,
	`refresh_token` text NOT NULL,
	`access_expires_at` integer NOT NULL,
	`refresh_lock_until` integer,
	`status` text DEFAULT 'connected' NOT NULL,
	`imported_at` integer,
	`sync_cursor` text,
	`sync_lease_until` integer,
	`last_sync_at` integer,
	`last_error` text,
	`last_error_at` integer,
	`synced_payments` integer DEFAULT 0 NOT NULL,
	`import_page` integer,
	`import_skipped` integer DEFAULT 0 NOT NULL,
	`reconnect_told_at` integer,
	`writeback_account_id` text,
	`writeback_account_name` text,
	`connected_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `accounting_connections_tenant_idx` ON `accounting_connections` (`provider`,`tenant_id`);--> statement-breakpoint
CREATE TABLE `accounting_oauth_states` (
	`hash` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`provider` text NOT NULL,
	`code_verifier` text NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `accounting_oauth_states_owner_idx` ON `accounting_oauth_states` (`owner_id`);--> statement-breakpoint
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
CREATE TABLE `dev_xero_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`tenant_id` text,
	`data` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dev_xero_objects_tenant_idx` ON `dev_xero_objects` (`tenant_id`,`kind`,`updated_at`);--> statement-breakpoint
ALTER TABLE `debtors` ADD `source_provider` text;--> statement-breakpoint
ALTER TABLE `debtors` ADD `external_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `debtors_owner_external_idx` ON `debtors` (`owner_id`,`source_provider`,`external_id`) WHERE external_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `invoices` ADD `source_provider` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `external_id` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `source_url` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_owner_external_idx` ON `invoices` (`owner_id`,`source_provider`,`external_id`) WHERE external_id IS NOT NULL;