-- Hand-written (drizzle-kit knows no triggers): text_status_counts follows the deliveries whose
-- channel is 'text' as delivery_status_counts (0008) follows them all: every insert, status change
-- and delete moves its owner's count. A delivery's channel is written once, at its claim.
CREATE TRIGGER `deliveries_text_count_insert` AFTER INSERT ON `deliveries`
  WHEN NEW.`channel` = 'text'
BEGIN
  INSERT INTO `text_status_counts` (`owner_id`, `status`, `n`) VALUES (NEW.`owner_id`, NEW.`status`, 1)
    ON CONFLICT (`owner_id`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deliveries_text_count_update` AFTER UPDATE OF `status`, `owner_id`, `channel` ON `deliveries`
  WHEN (OLD.`channel` = 'text' OR NEW.`channel` = 'text')
    AND (OLD.`status` IS NOT NEW.`status` OR OLD.`owner_id` IS NOT NEW.`owner_id` OR OLD.`channel` IS NOT NEW.`channel`)
BEGIN
  UPDATE `text_status_counts` SET `n` = `n` - 1
    WHERE OLD.`channel` = 'text' AND `owner_id` = OLD.`owner_id` AND `status` = OLD.`status`;
  INSERT INTO `text_status_counts` (`owner_id`, `status`, `n`)
    SELECT NEW.`owner_id`, NEW.`status`, 1 WHERE NEW.`channel` = 'text'
    ON CONFLICT (`owner_id`, `status`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `deliveries_text_count_delete` AFTER DELETE ON `deliveries`
  WHEN OLD.`channel` = 'text'
BEGIN
  UPDATE `text_status_counts` SET `n` = `n` - 1 WHERE `owner_id` = OLD.`owner_id` AND `status` = OLD.`status`;
END;
