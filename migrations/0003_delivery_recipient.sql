ALTER TABLE `deliveries` ADD `recipient` text;--> statement-breakpoint
CREATE INDEX `deliveries_recipient_idx` ON `deliveries` (`recipient`,`created_at`);--> statement-breakpoint
-- The per-address cap counts the last 24 hours: those deliveries get their debtor's address.
UPDATE `deliveries` SET `recipient` = lower(trim((SELECT `email` FROM `debtors` WHERE `debtors`.`id` = `deliveries`.`debtor_id`))) WHERE `created_at` > cast(unixepoch('subsec') * 1000 as integer) - 86400000;
