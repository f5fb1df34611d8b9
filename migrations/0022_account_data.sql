-- An account's debtor events in id order: the keyset pages of its export and the slices of its
-- deletion read them through this, not a scan of every account's events (docs/decisions/023).
CREATE INDEX `debtor_events_owner_idx` ON `debtor_events` (`owner_id`,`id`);
