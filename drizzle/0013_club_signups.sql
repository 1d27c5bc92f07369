CREATE TABLE `club_signups` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`club_name` text NOT NULL,
	`slug` text NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`password_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `club_signups_expires_idx` ON `club_signups` (`expires_at`);