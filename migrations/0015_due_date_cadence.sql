ALTER TABLE `schedules` ADD `cadence_steps` text;--> statement-breakpoint
ALTER TABLE `schedules` ADD `cadence_repeat_days` integer;--> statement-breakpoint
ALTER TABLE `schedules` ADD `send_hour` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `notify_schedule_ends` integer DEFAULT true NOT NULL;