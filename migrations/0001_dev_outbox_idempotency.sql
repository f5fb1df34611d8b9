ALTER TABLE `dev_outbox` ADD `idempotency_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `dev_outbox_idempotency_key_idx` ON `dev_outbox` (`idempotency_key`);