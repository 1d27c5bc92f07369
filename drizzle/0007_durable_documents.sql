CREATE TABLE `instance_meta` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `invoice_file_key` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `invoice_qr_key` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `credit_note_file_key` text;--> statement-breakpoint
UPDATE `orders` SET `invoice_file_key` = 'invoices/' || `invoice_number` || '.pdf', `invoice_qr_key` = 'invoices/' || `invoice_number` || '-betaal-qr.png' WHERE `invoice_number` IS NOT NULL;--> statement-breakpoint
UPDATE `orders` SET `credit_note_file_key` = 'invoices/' || `credit_note_number` || '.pdf' WHERE `credit_note_number` IS NOT NULL;
