CREATE INDEX `orders_amount_idx` ON `orders` (`club_id`,`amount`);--> statement-breakpoint
CREATE INDEX `orders_paid_idx` ON `orders` (`club_id`,`paid`);--> statement-breakpoint
CREATE INDEX `orders_club_tabler_idx` ON `orders` (`club_id`,`tabler_id`);