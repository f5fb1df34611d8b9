ALTER TABLE `account_cadences` ADD `cadence_voices` text;--> statement-breakpoint
ALTER TABLE `schedules` ADD `cadence_voices` text;