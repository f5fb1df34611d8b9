ALTER TABLE `debtors` ADD `paid_claim_cents` integer;--> statement-breakpoint
ALTER TABLE `debtors` ADD `paid_claim_currency` text;--> statement-breakpoint
ALTER TABLE `debtors` ADD `paid_claim_on` text;--> statement-breakpoint
ALTER TABLE `debtors` ADD `paid_claim_reference` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `claimed_at` integer;--> statement-breakpoint
-- A claim made before it could name invoices held every open invoice of its debtor.
UPDATE `invoices` SET `claimed_at` = (SELECT `paid_claimed_at` FROM `debtors` WHERE `debtors`.`id` = `invoices`.`debtor_id`) WHERE `status` = 'open' AND `debtor_id` IN (SELECT `id` FROM `debtors` WHERE `paid_claimed_at` IS NOT NULL);
