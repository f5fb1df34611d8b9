CREATE TABLE `invoice_owed_days` (
	`owner_id` text NOT NULL,
	`due_on` text NOT NULL,
	`currency` text NOT NULL,
	`invoices` integer DEFAULT 0 NOT NULL,
	`balance_cents` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`owner_id`, `due_on`, `currency`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Kept by triggers (docs/decisions/028): an owed invoice ('open' or 'disputed') counts in the row
-- of its owner, due date and currency, with its balance (amount_cents - paid_cents). A row whose
-- count reaches 0 is deleted. Foreign-key cascades (a debtor or an account deleted) fire the
-- delete trigger too.
CREATE TRIGGER `invoices_owed_insert` AFTER INSERT ON `invoices`
  WHEN NEW.`status` IN ('open', 'disputed')
BEGIN
  INSERT INTO `invoice_owed_days` (`owner_id`, `due_on`, `currency`, `invoices`, `balance_cents`)
    VALUES (NEW.`owner_id`, NEW.`due_on`, NEW.`currency`, 1, NEW.`amount_cents` - NEW.`paid_cents`)
    ON CONFLICT (`owner_id`, `due_on`, `currency`) DO UPDATE
      SET `invoices` = `invoices` + 1, `balance_cents` = `balance_cents` + excluded.`balance_cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `invoices_owed_update` AFTER UPDATE OF `owner_id`, `due_on`, `currency`, `amount_cents`, `paid_cents`, `status` ON `invoices`
  WHEN OLD.`status` IN ('open', 'disputed') OR NEW.`status` IN ('open', 'disputed')
BEGIN
  UPDATE `invoice_owed_days`
    SET `invoices` = `invoices` - 1, `balance_cents` = `balance_cents` - (OLD.`amount_cents` - OLD.`paid_cents`)
    WHERE OLD.`status` IN ('open', 'disputed')
      AND `owner_id` = OLD.`owner_id` AND `due_on` = OLD.`due_on` AND `currency` = OLD.`currency`;
  DELETE FROM `invoice_owed_days`
    WHERE `owner_id` = OLD.`owner_id` AND `due_on` = OLD.`due_on` AND `currency` = OLD.`currency` AND `invoices` <= 0;
  INSERT INTO `invoice_owed_days` (`owner_id`, `due_on`, `currency`, `invoices`, `balance_cents`)
    SELECT NEW.`owner_id`, NEW.`due_on`, NEW.`currency`, 1, NEW.`amount_cents` - NEW.`paid_cents`
    WHERE NEW.`status` IN ('open', 'disputed')
    ON CONFLICT (`owner_id`, `due_on`, `currency`) DO UPDATE
      SET `invoices` = `invoices` + 1, `balance_cents` = `balance_cents` + excluded.`balance_cents`;
END;
--> statement-breakpoint
CREATE TRIGGER `invoices_owed_delete` AFTER DELETE ON `invoices`
  WHEN OLD.`status` IN ('open', 'disputed')
BEGIN
  UPDATE `invoice_owed_days`
    SET `invoices` = `invoices` - 1, `balance_cents` = `balance_cents` - (OLD.`amount_cents` - OLD.`paid_cents`)
    WHERE `owner_id` = OLD.`owner_id` AND `due_on` = OLD.`due_on` AND `currency` = OLD.`currency`;
  DELETE FROM `invoice_owed_days`
    WHERE `owner_id` = OLD.`owner_id` AND `due_on` = OLD.`due_on` AND `currency` = OLD.`currency` AND `invoices` <= 0;
END;
--> statement-breakpoint
-- The owed invoices already there.
INSERT INTO `invoice_owed_days` (`owner_id`, `due_on`, `currency`, `invoices`, `balance_cents`)
  SELECT `owner_id`, `due_on`, `currency`, count(*), sum(`amount_cents` - `paid_cents`)
  FROM `invoices` WHERE `status` IN ('open', 'disputed')
  GROUP BY `owner_id`, `due_on`, `currency`;
