CREATE TABLE `bank_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`import_id` integer NOT NULL,
	`entry_key` text NOT NULL,
	`entry_ref` text NOT NULL,
	`booked_at` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`counterparty` text DEFAULT '' NOT NULL,
	`remittance` text DEFAULT '' NOT NULL,
	`status` text NOT NULL,
	`order_id` integer,
	`applied_at` text,
	FOREIGN KEY (`import_id`) REFERENCES `payment_imports`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "bank_entries_status_check" CHECK("bank_entries"."status" IN ('matched', 'amount_mismatch', 'unmatched', 'already_imported'))
);
--> statement-breakpoint
CREATE INDEX `bank_entries_import_idx` ON `bank_entries` (`import_id`);--> statement-breakpoint
CREATE INDEX `bank_entries_order_idx` ON `bank_entries` (`order_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `bank_entries_applied_unique` ON `bank_entries` (`entry_key`) WHERE "bank_entries"."applied_at" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `payment_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`filename` text NOT NULL,
	`created_by` integer,
	`created_at` text NOT NULL,
	`confirmed_at` text
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `invoice_total_cents` integer;--> statement-breakpoint
ALTER TABLE `orders` ADD `invoice_amounts` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `paid_at` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `cancelled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `credit_note_number` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `credit_note_date` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `reminders_sent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `last_reminder_at` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `delivered` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `orders` ADD `delivered_at` text;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_credit_note_number_unique` ON `orders` (`credit_note_number`);--> statement-breakpoint
CREATE INDEX `orders_invoice_date_idx` ON `orders` (`invoice_date`);--> statement-breakpoint
UPDATE `orders` SET `paid_at` = `updated_at` WHERE `paid` = 1;
