CREATE INDEX `online_payments_open_idx` ON `online_payments` (`created_at`) WHERE "online_payments"."status" = 'open';--> statement-breakpoint
-- A payment's amount is at least 0, held by the database itself. SQLite adds a CHECK constraint only
-- by rebuilding the table, and dropping `payments` for that would cascade to its allocations
-- through their foreign key: these two triggers are the same check without the rebuild.
CREATE TRIGGER `payments_amount_insert_check` BEFORE INSERT ON `payments`
  WHEN NEW.`amount_cents` < 0 OR typeof(NEW.`amount_cents`) <> 'integer'
BEGIN
  SELECT RAISE(ABORT, 'CHECK failed: payments.amount_cents must be a whole number of at least 0');
END;
--> statement-breakpoint
CREATE TRIGGER `payments_amount_update_check` BEFORE UPDATE OF `amount_cents` ON `payments`
  WHEN NEW.`amount_cents` < 0 OR typeof(NEW.`amount_cents`) <> 'integer'
BEGIN
  SELECT RAISE(ABORT, 'CHECK failed: payments.amount_cents must be a whole number of at least 0');
END;
