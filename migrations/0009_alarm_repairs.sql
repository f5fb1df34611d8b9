CREATE TABLE `alarm_repairs` (
	`schedule_id` text PRIMARY KEY NOT NULL,
	`error` text NOT NULL,
	`failed_at` integer NOT NULL
);
