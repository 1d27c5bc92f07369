CREATE TABLE `payment_reversals` (
	`club_id` integer NOT NULL,
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`online_payment_id` integer NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`booked_at` text NOT NULL,
	FOREIGN KEY (`online_payment_id`) REFERENCES `online_payments`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "payment_reversals_kind_check" CHECK("payment_reversals"."kind" IN ('refund', 'chargeback'))
);
--> statement-breakpoint
CREATE INDEX `payment_reversals_booked_idx` ON `payment_reversals` (`club_id`,`booked_at`);--> statement-breakpoint
CREATE TRIGGER `online_payments_refund_grew` AFTER UPDATE OF `refunded_cents` ON `online_payments`
WHEN NEW.`refunded_cents` > OLD.`refunded_cents`
BEGIN
	INSERT INTO `payment_reversals` (`club_id`, `online_payment_id`, `kind`, `amount_cents`, `booked_at`)
	VALUES (NEW.`club_id`, NEW.`id`, 'refund', NEW.`refunded_cents` - OLD.`refunded_cents`, NEW.`updated_at`);
END;
--> statement-breakpoint
CREATE TRIGGER `online_payments_chargeback_grew` AFTER UPDATE OF `charged_back_cents` ON `online_payments`
WHEN NEW.`charged_back_cents` > OLD.`charged_back_cents`
BEGIN
	INSERT INTO `payment_reversals` (`club_id`, `online_payment_id`, `kind`, `amount_cents`, `booked_at`)
	VALUES (NEW.`club_id`, NEW.`id`, 'chargeback', NEW.`charged_back_cents` - OLD.`charged_back_cents`, NEW.`updated_at`);
END;
--> statement-breakpoint
INSERT INTO `payment_reversals` (`club_id`, `online_payment_id`, `kind`, `amount_cents`, `booked_at`)
SELECT `club_id`, `id`, 'refund', `refunded_cents`, `updated_at` FROM `online_payments` WHERE `refunded_cents` > 0;
--> statement-breakpoint
INSERT INTO `payment_reversals` (`club_id`, `online_payment_id`, `kind`, `amount_cents`, `booked_at`)
SELECT `club_id`, `id`, 'chargeback', `charged_back_cents`, `updated_at` FROM `online_payments` WHERE `charged_back_cents` > 0;
