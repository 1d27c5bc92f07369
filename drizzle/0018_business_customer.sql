ALTER TABLE `orders` ADD `customer_kvk_number` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `customer_vat_id` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `invoice_ubl_key` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `credit_note_ubl_key` text;