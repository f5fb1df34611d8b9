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
CREATE INDEX `accounting_connections_tenant_idx` ON `accounting_connections` (`provider`,`tenant_id`);--> statement-breakpoint
ALTER TABLE `invoices` ADD `source_url` text;