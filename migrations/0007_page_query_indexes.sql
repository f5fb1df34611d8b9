DROP INDEX `deliveries_owner_idx`;--> statement-breakpoint
CREATE INDEX `deliveries_debtor_sent_idx` ON `deliveries` (`debtor_id`,`status`,`occurrence_key`);--> statement-breakpoint
CREATE INDEX `deliveries_schedule_idx` ON `deliveries` (`schedule_id`,`status`);--> statement-breakpoint
CREATE INDEX `deliveries_owner_idx` ON `deliveries` (`owner_id`,`created_at`,`id`,`status`);--> statement-breakpoint
DROP INDEX `schedules_owner_idx`;--> statement-breakpoint
DROP INDEX `schedules_debtor_idx`;--> statement-breakpoint
CREATE INDEX `schedules_owner_idx` ON `schedules` (`owner_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `schedules_debtor_idx` ON `schedules` (`debtor_id`,`state`,`stopped_reason`);--> statement-breakpoint
CREATE INDEX `debtors_owner_status_idx` ON `debtors` (`owner_id`,`status`);--> statement-breakpoint
CREATE INDEX `debtors_paid_claim_idx` ON `debtors` (`owner_id`,`paid_claimed_at`);