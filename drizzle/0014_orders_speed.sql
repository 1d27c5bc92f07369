CREATE INDEX `orders_amount_idx` ON `orders` (`club_id`,`amount`);--> statement-breakpoint
CREATE INDEX `orders_paid_idx` ON `orders` (`club_id`,`paid`);