ALTER TABLE `users` ADD `brand_logo` text;--> statement-breakpoint
ALTER TABLE `users` ADD `brand_accent` text;--> statement-breakpoint
ALTER TABLE `users` ADD `brand_signature` text;--> statement-breakpoint
ALTER TABLE `users` ADD `brand_powered_by` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `users_brand_logo_unique` ON `users` (`brand_logo`);