ALTER TABLE `users` ADD `notify_digest` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `digest_sent_on` text;--> statement-breakpoint
CREATE INDEX `users_digest_idx` ON `users` (`notify_digest`,`digest_sent_on`);