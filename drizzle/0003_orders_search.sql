ALTER TABLE `orders` ADD `search_text` text;--> statement-breakpoint
CREATE INDEX `orders_search_pending_idx` ON `orders` (`id`) WHERE "orders"."search_text" IS NULL;--> statement-breakpoint
ALTER TABLE `tablers` ADD `search_name` text;