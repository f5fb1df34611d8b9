CREATE TABLE `charge_allocations` (
	`payment_id` integer NOT NULL,
	`charge_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	PRIMARY KEY(`payment_id`, `charge_id`),
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`charge_id`) REFERENCES `charges`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `charge_allocations_charge_idx` ON `charge_allocations` (`charge_id`);--> statement-breakpoint
CREATE TABLE `charge_pauses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`invoice_id` integer NOT NULL,
	`reason` text NOT NULL,
	`plan_id` integer,
	`from_on` text NOT NULL,
	`to_on` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `charge_pauses_invoice_idx` ON `charge_pauses` (`invoice_id`,`from_on`);--> statement-breakpoint
CREATE INDEX `charge_pauses_owner_idx` ON `charge_pauses` (`owner_id`);--> statement-breakpoint
CREATE TABLE `charges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`kind` text NOT NULL,
	`currency` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`paid_cents` integer DEFAULT 0 NOT NULL,
	`basis` text NOT NULL,
	`accrued_through` text NOT NULL,
	`waived_at` integer,
	`waived_by` text,
	`waived_cents` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "charges_ledger" CHECK(amount_cents >= 0 AND paid_cents >= 0 AND paid_cents <= amount_cents)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `charges_invoice_kind_idx` ON `charges` (`invoice_id`,`kind`);--> statement-breakpoint
CREATE INDEX `charges_owner_debtor_idx` ON `charges` (`owner_id`,`debtor_id`,`invoice_id`);--> statement-breakpoint
CREATE INDEX `charges_owner_currency_idx` ON `charges` (`owner_id`,`currency`,`amount_cents`,`paid_cents`);--> statement-breakpoint
CREATE TABLE `late_charge_terms` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`rule` text NOT NULL,
	`compensation` integer DEFAULT true NOT NULL,
	`contract_kind` text,
	`contract_fee_cents` integer,
	`contract_fee_currency` text,
	`contract_rate_bp` integer,
	`contract_grace_days` integer DEFAULT 0 NOT NULL,
	`contract_cap_bp` integer,
	`payment_order` text DEFAULT 'principal_first' NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `reference_rates` (
	`series` text NOT NULL,
	`effective_on` text NOT NULL,
	`rate_bp` integer NOT NULL,
	`source` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`series`, `effective_on`)
);
--> statement-breakpoint
ALTER TABLE `debtors` ADD `late_charges` text;