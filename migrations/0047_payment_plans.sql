CREATE TABLE `payment_plans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`proposed_by` text NOT NULL,
	`total_cents` integer NOT NULL,
	`asked_count` integer,
	`asked_per_month_cents` integer,
	`first_on` text NOT NULL,
	`grace_days` integer DEFAULT 7 NOT NULL,
	`auto_break` integer DEFAULT false NOT NULL,
	`paid_at_start_cents` integer DEFAULT 0 NOT NULL,
	`started_on` text,
	`message` text,
	`missed_seq` integer,
	`write_key` text,
	`decided_at` integer,
	`ended_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payment_plans_total" CHECK(total_cents > 0 AND grace_days >= 0)
);
--> statement-breakpoint
CREATE INDEX `payment_plans_owner_idx` ON `payment_plans` (`owner_id`,`debtor_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `payment_plans_live_idx` ON `payment_plans` (`owner_id`,`debtor_id`,`currency`) WHERE status IN ('requested', 'offered', 'active');--> statement-breakpoint
CREATE INDEX `payment_plans_owner_status_idx` ON `payment_plans` (`owner_id`,`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `payment_plans_active_idx` ON `payment_plans` (`status`) WHERE status = 'active';--> statement-breakpoint
CREATE TABLE `plan_instalments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`plan_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`due_on` text NOT NULL,
	`amount_cents` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`plan_id`) REFERENCES `payment_plans`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "plan_instalments_amount" CHECK(amount_cents > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_instalments_plan_idx` ON `plan_instalments` (`plan_id`,`seq`);--> statement-breakpoint
CREATE INDEX `plan_instalments_owner_idx` ON `plan_instalments` (`owner_id`,`id`);--> statement-breakpoint
CREATE TABLE `plan_invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`plan_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`plan_id`) REFERENCES `payment_plans`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plan_invoices_plan_idx` ON `plan_invoices` (`plan_id`,`invoice_id`);--> statement-breakpoint
CREATE INDEX `plan_invoices_invoice_idx` ON `plan_invoices` (`invoice_id`,`plan_id`);--> statement-breakpoint
CREATE INDEX `plan_invoices_owner_idx` ON `plan_invoices` (`owner_id`,`id`);