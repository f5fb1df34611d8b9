ALTER TABLE `invoices` ADD `document_key` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `document_name` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `document_size` integer;