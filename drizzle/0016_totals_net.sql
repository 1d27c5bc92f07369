DROP INDEX `orders_totals_idx`;--> statement-breakpoint
ALTER TABLE `orders` ADD `invoice_net_cents` integer;--> statement-breakpoint
UPDATE `orders` SET `invoice_net_cents` = json_extract(`invoice_amounts`, '$.netCents') WHERE `invoice_amounts` IS NOT NULL;--> statement-breakpoint
CREATE INDEX `orders_totals_idx` ON `orders` (`club_id`,`cancelled`,`tabler_id`,`amount`,`paid`,`invoice_total_cents`,`invoice_net_cents`,`invoice_sent`,`created_at`,`invoice_date`,`paid_at`);--> statement-breakpoint
-- The issued sums' net amount beside them, in the same statement that writes them (docs/decisions/075).
CREATE TRIGGER `orders_invoice_net_insert` AFTER INSERT ON `orders` WHEN new.`invoice_amounts` IS NOT NULL BEGIN
  UPDATE `orders` SET `invoice_net_cents` = json_extract(new.`invoice_amounts`, '$.netCents') WHERE `id` = new.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `orders_invoice_net_update` AFTER UPDATE OF `invoice_amounts` ON `orders` BEGIN
  UPDATE `orders` SET `invoice_net_cents` = json_extract(new.`invoice_amounts`, '$.netCents') WHERE `id` = new.`id`;
END;
