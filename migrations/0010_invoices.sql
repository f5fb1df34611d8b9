CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` text NOT NULL,
	`debtor_id` integer NOT NULL,
	`number` text,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`issued_on` text NOT NULL,
	`due_on` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`paid_cents` integer DEFAULT 0 NOT NULL,
	`dispute_reason` text,
	`disputed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`debtor_id`) REFERENCES `debtors`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "invoices_ledger" CHECK(paid_cents >= 0 AND paid_cents <= amount_cents AND amount_cents > 0)
);
--> statement-breakpoint
CREATE INDEX `invoices_debtor_idx` ON `invoices` (`debtor_id`,`status`,`due_on`);--> statement-breakpoint
CREATE INDEX `invoices_owner_idx` ON `invoices` (`owner_id`,`id`);--> statement-breakpoint
CREATE TABLE `payment_allocations` (
	`payment_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	PRIMARY KEY(`payment_id`, `invoice_id`),
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_allocations_invoice_idx` ON `payment_allocations` (`invoice_id`);--> statement-breakpoint
ALTER TABLE `debtors` ADD `promised_on` text;--> statement-breakpoint
ALTER TABLE `debtors` ADD `promise_ends_at` integer;--> statement-breakpoint
ALTER TABLE `debtors` ADD `promise_broken_at` integer;--> statement-breakpoint
CREATE INDEX `debtors_promise_ends_idx` ON `debtors` (`promise_ends_at`);--> statement-breakpoint
ALTER TABLE `payments` ADD `currency` text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `invoice_id` integer REFERENCES invoices(id);--> statement-breakpoint
-- Every debtor becomes one invoice (docs/architecture.md §10): its debt, currency and invoice number,
-- issued the day the debtor was added, due on the date of its newest schedule that has one (else
-- that same day). A number another debtor of the account already carries gets ' #<debtor id>' so
-- numbers are unique within the account.
INSERT INTO `invoices` (`owner_id`, `debtor_id`, `number`, `amount_cents`, `currency`, `issued_on`, `due_on`, `status`, `paid_cents`, `created_at`, `updated_at`)
SELECT d.`owner_id`, d.`id`,
  CASE
    WHEN nullif(trim(d.`invoice_number`), '') IS NULL THEN NULL
    WHEN EXISTS (SELECT 1 FROM `debtors` AS o WHERE o.`owner_id` = d.`owner_id` AND o.`id` < d.`id` AND o.`invoice_number` = d.`invoice_number`) THEN d.`invoice_number` || ' #' || d.`id`
    ELSE d.`invoice_number`
  END,
  d.`debt_cents`, d.`currency`,
  date(d.`created_at` / 1000, 'unixepoch'),
  coalesce(
    (SELECT s.`due_date` FROM `schedules` AS s WHERE s.`debtor_id` = d.`id` AND s.`due_date` IS NOT NULL ORDER BY s.`created_at` DESC, s.`id` DESC LIMIT 1),
    date(d.`created_at` / 1000, 'unixepoch')
  ),
  'open', 0, d.`created_at`, d.`updated_at`
FROM `debtors` AS d;--> statement-breakpoint
UPDATE `payments` SET `currency` = (SELECT d.`currency` FROM `debtors` AS d WHERE d.`id` = `payments`.`debtor_id`);--> statement-breakpoint
-- Each payment pays the debtor's invoice, oldest payment first, up to the invoice's amount (a debt
-- lowered below what was paid, which the old ledger allowed, leaves the excess unallocated).
INSERT INTO `payment_allocations` (`payment_id`, `invoice_id`, `amount_cents`)
SELECT p.id, p.invoice_id, min(p.amount_cents, p.cap - p.before)
FROM (
  SELECT pay.`id` AS id, i.`id` AS invoice_id, pay.`amount_cents` AS amount_cents, i.`amount_cents` AS cap,
    coalesce(sum(pay.`amount_cents`) OVER (PARTITION BY pay.`debtor_id` ORDER BY pay.`paid_on`, pay.`id` ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
  FROM `payments` AS pay JOIN `invoices` AS i ON i.`debtor_id` = pay.`debtor_id`
) AS p
WHERE p.cap - p.before > 0 AND p.amount_cents > 0;--> statement-breakpoint
UPDATE `invoices` SET `paid_cents` = coalesce((SELECT sum(a.`amount_cents`) FROM `payment_allocations` AS a WHERE a.`invoice_id` = `invoices`.`id`), 0);--> statement-breakpoint
UPDATE `invoices` SET `status` = 'paid' WHERE `paid_cents` >= `amount_cents`;--> statement-breakpoint
UPDATE `debtors` SET `paid_cents` = (SELECT i.`paid_cents` FROM `invoices` AS i WHERE i.`debtor_id` = `debtors`.`id`) WHERE `paid_cents` > `debt_cents`;--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_owner_number_idx` ON `invoices` (`owner_id`,`number`) WHERE number IS NOT NULL;--> statement-breakpoint
ALTER TABLE `debtors` DROP COLUMN `invoice_number`;
