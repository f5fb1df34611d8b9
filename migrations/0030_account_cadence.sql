CREATE TABLE `account_cadences` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`cadence_steps` text NOT NULL,
	`cadence_repeat_days` integer,
	`send_hour` integer NOT NULL,
	`autopilot` integer DEFAULT false NOT NULL,
	`autopilot_since` integer,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `schedules` ADD `follows_account` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `schedules_following_idx` ON `schedules` (`owner_id`,`debtor_id`) WHERE follows_account = 1;