CREATE TABLE `delivery_status_counts` (
	`owner_id` text NOT NULL,
	`status` text NOT NULL,
	`n` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`owner_id`, `status`),
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Kept by triggers: every insert, status change and delete of a delivery moves its owner's count
-- (the report's all-time totals, app/models/delivery.server.ts deliveryTotals).
CREATE TRIGGER `deliveries_count_insert` AFTER INSERT ON `deliveries`
BEGIN
  INSERT INTO `delivery_status_counts` (`owner_id`, `status`, `n`) VALUES (NEW.`owner_id`, NEW.`status`, 1)
    ON CONFLICT (`owner_id`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deliveries_count_update` AFTER UPDATE OF `status`, `owner_id` ON `deliveries`
  WHEN OLD.`status` IS NOT NEW.`status` OR OLD.`owner_id` IS NOT NEW.`owner_id`
BEGIN
  UPDATE `delivery_status_counts` SET `n` = `n` - 1 WHERE `owner_id` = OLD.`owner_id` AND `status` = OLD.`status`;
  INSERT INTO `delivery_status_counts` (`owner_id`, `status`, `n`) VALUES (NEW.`owner_id`, NEW.`status`, 1)
    ON CONFLICT (`owner_id`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deliveries_count_delete` AFTER DELETE ON `deliveries`
BEGIN
  UPDATE `delivery_status_counts` SET `n` = `n` - 1 WHERE `owner_id` = OLD.`owner_id` AND `status` = OLD.`status`;
END;
--> statement-breakpoint
-- The deliveries already there.
INSERT INTO `delivery_status_counts` (`owner_id`, `status`, `n`)
  SELECT `owner_id`, `status`, count(*) FROM `deliveries` GROUP BY `owner_id`, `status`;
