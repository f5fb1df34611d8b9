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
	`synced_debtors` integer DEFAULT 0 NOT NULL,
	`synced_invoices` integer DEFAULT 0 NOT NULL,
	`synced_payments` integer DEFAULT 0 NOT NULL,
	`connected_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
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
CREATE UNIQUE INDEX `invoices_owner_external_idx` ON `invoices` (`owner_id`,`source_provider`,`external_id`) WHERE external_id IS NOT NULL;