-- docs/decisions/074: the orders page without walks of the club's orders. The counts by flags, kept by triggers in the
-- statement that changes an order; the tabler's sort key on the order, kept by triggers on both tables; and the two
-- most used sorts' indexes holding the id and the flags, so a filtered or deep page is read from the index alone, and
-- 'overdue' (invoiced, unpaid, not credited, before a date) as one range of an index.
CREATE TABLE `order_counts` (
	`club_id` integer NOT NULL,
	`paid` integer NOT NULL,
	`invoice_sent` integer NOT NULL,
	`cancelled` integer NOT NULL,
	`delivered` integer NOT NULL,
	`orders` integer NOT NULL,
	PRIMARY KEY(`club_id`, `paid`, `invoice_sent`, `cancelled`, `delivered`)
);
--> statement-breakpoint
DROP INDEX `orders_created_idx`;--> statement-breakpoint
DROP INDEX `orders_invoice_date_idx`;--> statement-breakpoint
DROP INDEX `orders_search_text_idx`;--> statement-breakpoint
ALTER TABLE `orders` ADD `tabler_sort` text;--> statement-breakpoint
UPDATE `orders` SET `tabler_sort` = (SELECT `search_name` FROM `tablers` WHERE `tablers`.`id` = `orders`.`tabler_id`) WHERE `tabler_id` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `orders_created_filters_idx` ON `orders` (`club_id`,`created_at`,`id`,`paid`,`invoice_sent`,`cancelled`,`delivered`,`invoice_date`);--> statement-breakpoint
CREATE INDEX `orders_tabler_sort_idx` ON `orders` (`club_id`,`tabler_sort`,`id`);--> statement-breakpoint
CREATE INDEX `orders_created_idx` ON `orders` (`club_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `orders_invoice_date_idx` ON `orders` (`club_id`,`paid`,`cancelled`,`invoice_date`);--> statement-breakpoint
CREATE INDEX `orders_search_text_idx` ON `orders` (`club_id`,`search_text`,`id`,`paid`,`invoice_sent`,`cancelled`,`delivered`);
--> statement-breakpoint
INSERT INTO `order_counts` (`club_id`, `paid`, `invoice_sent`, `cancelled`, `delivered`, `orders`)
  SELECT `club_id`, `paid`, `invoice_sent`, `cancelled`, `delivered`, count(*) FROM `orders` GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER `order_counts_insert` AFTER INSERT ON `orders` BEGIN
  INSERT INTO `order_counts` (`club_id`, `paid`, `invoice_sent`, `cancelled`, `delivered`, `orders`)
    VALUES (new.`club_id`, new.`paid`, new.`invoice_sent`, new.`cancelled`, new.`delivered`, 1)
    ON CONFLICT (`club_id`, `paid`, `invoice_sent`, `cancelled`, `delivered`) DO UPDATE SET `orders` = `orders` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `order_counts_delete` AFTER DELETE ON `orders` BEGIN
  UPDATE `order_counts` SET `orders` = `orders` - 1
    WHERE `club_id` = old.`club_id` AND `paid` = old.`paid` AND `invoice_sent` = old.`invoice_sent`
      AND `cancelled` = old.`cancelled` AND `delivered` = old.`delivered`;
END;
--> statement-breakpoint
CREATE TRIGGER `order_counts_update` AFTER UPDATE OF `club_id`, `paid`, `invoice_sent`, `cancelled`, `delivered` ON `orders`
  WHEN old.`club_id` IS NOT new.`club_id` OR old.`paid` IS NOT new.`paid` OR old.`invoice_sent` IS NOT new.`invoice_sent`
    OR old.`cancelled` IS NOT new.`cancelled` OR old.`delivered` IS NOT new.`delivered`
BEGIN
  UPDATE `order_counts` SET `orders` = `orders` - 1
    WHERE `club_id` = old.`club_id` AND `paid` = old.`paid` AND `invoice_sent` = old.`invoice_sent`
      AND `cancelled` = old.`cancelled` AND `delivered` = old.`delivered`;
  INSERT INTO `order_counts` (`club_id`, `paid`, `invoice_sent`, `cancelled`, `delivered`, `orders`)
    VALUES (new.`club_id`, new.`paid`, new.`invoice_sent`, new.`cancelled`, new.`delivered`, 1)
    ON CONFLICT (`club_id`, `paid`, `invoice_sent`, `cancelled`, `delivered`) DO UPDATE SET `orders` = `orders` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `orders_tabler_sort_insert` AFTER INSERT ON `orders` WHEN new.`tabler_id` IS NOT NULL BEGIN
  UPDATE `orders` SET `tabler_sort` = (SELECT `search_name` FROM `tablers` WHERE `id` = new.`tabler_id`) WHERE `id` = new.`id`;
END;
--> statement-breakpoint
-- Also when deleting a tabler sets its orders' tabler_id to null (the foreign key's action fires it).
CREATE TRIGGER `orders_tabler_sort_update` AFTER UPDATE OF `tabler_id` ON `orders` BEGIN
  UPDATE `orders` SET `tabler_sort` = (SELECT `search_name` FROM `tablers` WHERE `id` = new.`tabler_id`) WHERE `id` = new.`id`;
END;
--> statement-breakpoint
CREATE TRIGGER `tablers_sort_update` AFTER UPDATE OF `search_name` ON `tablers` BEGIN
  UPDATE `orders` SET `tabler_sort` = new.`search_name` WHERE `tabler_id` = new.`id`;
END;
