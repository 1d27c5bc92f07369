CREATE TABLE `online_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider_id` text NOT NULL,
	`order_id` integer,
	`reference` text NOT NULL,
	`status` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`refunded_cents` integer DEFAULT 0 NOT NULL,
	`charged_back_cents` integer DEFAULT 0 NOT NULL,
	`applied` integer DEFAULT false NOT NULL,
	`double_payment` integer DEFAULT false NOT NULL,
	`checkout_url` text,
	`expires_at` text,
	`paid_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `online_payments_provider_id_unique` ON `online_payments` (`provider_id`);--> statement-breakpoint
CREATE INDEX `online_payments_order_idx` ON `online_payments` (`order_id`);--> statement-breakpoint
CREATE INDEX `online_payments_created_idx` ON `online_payments` (`created_at`);--> statement-breakpoint
CREATE TABLE `order_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`order_id` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `order_links_order_idx` ON `order_links` (`order_id`);--> statement-breakpoint
CREATE TABLE `provider_key_refusals` (
	`provider` text PRIMARY KEY NOT NULL,
	`key_digest` text NOT NULL,
	`refused_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `orders` ADD `payment_method` text;--> statement-breakpoint
ALTER TABLE `orders` ADD `refunded_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- docs/decisions/066: orders paid before the column existed: by a statement import when one of its bookings paid them, else by hand.
UPDATE `orders` SET `payment_method` = CASE
    WHEN EXISTS (SELECT 1 FROM `bank_entries` WHERE `bank_entries`.`order_id` = `orders`.`id` AND `bank_entries`.`applied_at` IS NOT NULL) THEN 'bank'
    ELSE 'manual'
  END
  WHERE `paid` = 1;
