ALTER TABLE `bank_entries` ADD `settled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `bank_entries` ADD `follow_up_at` text;--> statement-breakpoint
ALTER TABLE `bank_entries` ADD `resolution` text;--> statement-breakpoint
ALTER TABLE `bank_entries` ADD `resolved_at` text;--> statement-breakpoint
ALTER TABLE `bank_entries` ADD `resolved_by` integer;--> statement-breakpoint
ALTER TABLE `bank_entries` ADD `resolution_note` text;--> statement-breakpoint
CREATE UNIQUE INDEX `bank_entries_follow_up_unique` ON `bank_entries` (`entry_key`) WHERE "bank_entries"."follow_up_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `bank_entries_open_follow_up_idx` ON `bank_entries` (`follow_up_at`) WHERE "bank_entries"."follow_up_at" IS NOT NULL AND "bank_entries"."resolution" IS NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `paid_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_imports` ADD `statement_id` text;--> statement-breakpoint
ALTER TABLE `payment_imports` ADD `period_from` text;--> statement-breakpoint
ALTER TABLE `payment_imports` ADD `period_to` text;--> statement-breakpoint
ALTER TABLE `payment_imports` ADD `skipped` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
UPDATE `bank_entries` SET `settled` = 1 WHERE `applied_at` IS NOT NULL;--> statement-breakpoint
UPDATE `bank_entries` SET `follow_up_at` = (SELECT `p`.`confirmed_at` FROM `payment_imports` AS `p` WHERE `p`.`id` = `bank_entries`.`import_id`)
WHERE `status` IN ('amount_mismatch', 'unmatched') AND `applied_at` IS NULL
  AND NOT EXISTS (SELECT 1 FROM `bank_entries` AS `o` WHERE `o`.`entry_key` = `bank_entries`.`entry_key` AND `o`.`applied_at` IS NOT NULL)
  AND `id` = (
    SELECT min(`o`.`id`) FROM `bank_entries` AS `o` JOIN `payment_imports` AS `p` ON `p`.`id` = `o`.`import_id`
    WHERE `o`.`entry_key` = `bank_entries`.`entry_key` AND `p`.`confirmed_at` IS NOT NULL AND `o`.`status` IN ('amount_mismatch', 'unmatched') AND `o`.`applied_at` IS NULL
  );
