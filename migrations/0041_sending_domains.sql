CREATE TABLE `dev_resend_domains` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'not_started' NOT NULL,
	`records` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sending_domains` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`local_part` text NOT NULL,
	`provider_id` text NOT NULL,
	`status` text DEFAULT 'not_started' NOT NULL,
	`provider_status` text DEFAULT 'not_started' NOT NULL,
	`records` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`checked_at` integer,
	`verified_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sending_domains_name_idx` ON `sending_domains` (`name`);--> statement-breakpoint
CREATE INDEX `sending_domains_checked_idx` ON `sending_domains` (`status`,`checked_at`);