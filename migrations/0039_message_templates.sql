CREATE TABLE `message_templates` (
	`owner_id` text NOT NULL,
	`template` text NOT NULL,
	`tone` integer NOT NULL,
	`language` text NOT NULL,
	`subject` text NOT NULL,
	`body` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`owner_id`, `template`, `tone`, `language`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
