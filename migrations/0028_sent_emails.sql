-- Every e-mail other than a reminder or a notice, recorded before its first attempt: retried by the
-- watchdog and shown in Settings → E-mails (app/mail/recorded.server.ts). The notices get an index
-- for the same list.
CREATE TABLE `emails` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`kind` text NOT NULL,
	`debtor_id` integer,
	`recipient` text NOT NULL,
	`idem_key` text NOT NULL,
	`payload` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "emails_status_check" CHECK("emails"."status" IN ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `emails_idem_key_idx` ON `emails` (`idem_key`);--> statement-breakpoint
CREATE INDEX `emails_owner_idx` ON `emails` (`owner_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `emails_retry_idx` ON `emails` (`next_attempt_at`) WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX `user_notifications_owner_created_idx` ON `user_notifications` (`owner_id`,`created_at`,`id`);