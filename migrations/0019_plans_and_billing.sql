ALTER TABLE `users` ADD `stripe_customer_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `stripe_subscription_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `subscription_status` text;--> statement-breakpoint
ALTER TABLE `users` ADD `current_period_end` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `cancel_at_period_end` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `subscription_event_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `trial_ends_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `trial_warned_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `trial_ended_sent_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `users_stripe_customer_id_unique` ON `users` (`stripe_customer_id`);--> statement-breakpoint
CREATE INDEX `users_trial_idx` ON `users` (`trial_ends_at`);--> statement-breakpoint
-- Accounts made before plans were sold get their 14-day trial of Medium from this migration (docs/decisions/019).
UPDATE `users` SET `trial_ends_at` = CAST(unixepoch('subsec') * 1000 AS INTEGER) + 1209600000 WHERE `trial_ends_at` IS NULL;
