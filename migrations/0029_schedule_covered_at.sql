ALTER TABLE `schedules` ADD `covered_at` integer;--> statement-breakpoint
-- What existing schedules know of their last e-mail: its occurrence's time.
UPDATE `schedules` SET `covered_at` = `last_run_at` WHERE `last_run_at` IS NOT NULL;
