ALTER TABLE `users` ADD `deleting_at` integer;--> statement-breakpoint
CREATE INDEX `users_deleting_idx` ON `users` (`deleting_at`) WHERE "users"."deleting_at" IS NOT NULL;