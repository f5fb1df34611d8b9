CREATE TABLE `dev_stripe_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`object` text NOT NULL,
	`account` text,
	`data` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dev_stripe_objects_object_idx` ON `dev_stripe_objects` (`object`,`created_at`);