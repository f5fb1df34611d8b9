ALTER TABLE `accounting_connections` ADD `reconnect_told_at` integer;--> statement-breakpoint
ALTER TABLE `invoices` ADD `source_url` text;