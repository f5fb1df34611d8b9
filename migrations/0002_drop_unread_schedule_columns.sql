ALTER TABLE `schedules` DROP COLUMN `cron`;--> statement-breakpoint
ALTER TABLE `schedules` DROP COLUMN `run_at`;--> statement-breakpoint
ALTER TABLE `schedules` DROP COLUMN `input`;