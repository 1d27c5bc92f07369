CREATE TABLE `clubs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` text NOT NULL,
	CONSTRAINT "clubs_status_check" CHECK("clubs"."status" IN ('active', 'suspended'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `clubs_slug_unique` ON `clubs` (`slug`);--> statement-breakpoint
-- docs/decisions/071: the data already here is the first club's (id 1), named as its settings name it.
INSERT INTO `clubs` (`id`, `slug`, `name`, `status`, `created_at`)
  VALUES (1, 'kerstactie', coalesce((SELECT `value` FROM `settings` WHERE `key` = 'club_name'), 'Ronde Tafel 144 Harlingen'), 'active', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));--> statement-breakpoint
CREATE TABLE `club_hosts` (
	`host` text PRIMARY KEY NOT NULL,
	`club_id` integer NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`club_id`) REFERENCES `clubs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `club_hosts_club_idx` ON `club_hosts` (`club_id`,`position`);--> statement-breakpoint
DROP INDEX `audit_log_at_idx`;--> statement-breakpoint
DROP INDEX `audit_log_action_at_idx`;--> statement-breakpoint
DROP INDEX `audit_log_actor_at_idx`;--> statement-breakpoint
ALTER TABLE `audit_log` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`club_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_action_at_idx` ON `audit_log` (`club_id`,`action`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_at_idx` ON `audit_log` (`club_id`,lower("actor_username"),`at`);--> statement-breakpoint
DROP INDEX `groups_name_nocase_unique`;--> statement-breakpoint
ALTER TABLE `groups` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `groups_name_nocase_unique` ON `groups` (`club_id`,lower("name"));--> statement-breakpoint
DROP INDEX `password_resets_expires_idx`;--> statement-breakpoint
ALTER TABLE `password_resets` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `password_resets_expires_idx` ON `password_resets` (`club_id`,`expires_at`);--> statement-breakpoint
DROP INDEX `permissions_key_unique`;--> statement-breakpoint
ALTER TABLE `permissions` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `permissions_key_unique` ON `permissions` (`club_id`,`key`);--> statement-breakpoint
DROP INDEX `sessions_expires_idx`;--> statement-breakpoint
ALTER TABLE `sessions` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`club_id`,`expires_at`);--> statement-breakpoint
DROP INDEX `users_username_nocase_unique`;--> statement-breakpoint
DROP INDEX `users_email_nocase_unique`;--> statement-breakpoint
ALTER TABLE `users` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_nocase_unique` ON `users` (`club_id`,lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_nocase_unique` ON `users` (`club_id`,lower("email")) WHERE "users"."email" IS NOT NULL;--> statement-breakpoint
DROP INDEX `bank_entries_applied_unique`;--> statement-breakpoint
DROP INDEX `bank_entries_follow_up_unique`;--> statement-breakpoint
DROP INDEX `bank_entries_open_follow_up_idx`;--> statement-breakpoint
ALTER TABLE `bank_entries` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `bank_entries_applied_unique` ON `bank_entries` (`club_id`,`entry_key`) WHERE "bank_entries"."applied_at" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `bank_entries_follow_up_unique` ON `bank_entries` (`club_id`,`entry_key`) WHERE "bank_entries"."follow_up_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `bank_entries_open_follow_up_idx` ON `bank_entries` (`club_id`,`follow_up_at`) WHERE "bank_entries"."follow_up_at" IS NOT NULL AND "bank_entries"."resolution" IS NULL;--> statement-breakpoint
CREATE TABLE `__new_idempotency_keys` (
	`club_id` integer NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`order_id` integer,
	`order_reference` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`club_id`, `key`),
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_idempotency_keys`("club_id", "key", "request_hash", "order_id", "order_reference", "created_at") SELECT 1, "key", "request_hash", "order_id", "order_reference", "created_at" FROM `idempotency_keys`;--> statement-breakpoint
DROP TABLE `idempotency_keys`;--> statement-breakpoint
ALTER TABLE `__new_idempotency_keys` RENAME TO `idempotency_keys`;--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`club_id`,`created_at`);--> statement-breakpoint
DROP INDEX `online_payments_provider_id_unique`;--> statement-breakpoint
DROP INDEX `online_payments_created_idx`;--> statement-breakpoint
ALTER TABLE `online_payments` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `online_payments_provider_id_unique` ON `online_payments` (`club_id`,`provider_id`);--> statement-breakpoint
CREATE INDEX `online_payments_created_idx` ON `online_payments` (`club_id`,`created_at`);--> statement-breakpoint
DROP INDEX `orders_reference_unique`;--> statement-breakpoint
DROP INDEX `orders_invoice_number_unique`;--> statement-breakpoint
DROP INDEX `orders_credit_note_number_unique`;--> statement-breakpoint
DROP INDEX `orders_created_idx`;--> statement-breakpoint
DROP INDEX `orders_invoice_date_idx`;--> statement-breakpoint
DROP INDEX `orders_search_text_idx`;--> statement-breakpoint
DROP INDEX `orders_totals_idx`;--> statement-breakpoint
ALTER TABLE `orders` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `orders_reference_unique` ON `orders` (`club_id`,`reference`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_invoice_number_unique` ON `orders` (`club_id`,`invoice_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `orders_credit_note_number_unique` ON `orders` (`club_id`,`credit_note_number`);--> statement-breakpoint
CREATE INDEX `orders_created_idx` ON `orders` (`club_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `orders_invoice_date_idx` ON `orders` (`club_id`,`invoice_date`);--> statement-breakpoint
CREATE INDEX `orders_search_text_idx` ON `orders` (`club_id`,`search_text`);--> statement-breakpoint
CREATE INDEX `orders_totals_idx` ON `orders` (`club_id`,`cancelled`,`amount`,`paid`,`invoice_sent`,`invoice_total_cents`,`tabler_id`,`created_at`,`invoice_date`,`paid_at`,`invoice_amounts`);--> statement-breakpoint
DROP INDEX `sequences_name_year_unique`;--> statement-breakpoint
ALTER TABLE `sequences` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `sequences_name_year_unique` ON `sequences` (`club_id`,`name`,`year`);--> statement-breakpoint
DROP INDEX `tablers_name_nocase_unique`;--> statement-breakpoint
ALTER TABLE `tablers` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `tablers_name_nocase_unique` ON `tablers` (`club_id`,lower("name"));--> statement-breakpoint
DROP INDEX `mail_outbox_due_idx`;--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `mail_outbox_due_idx` ON `mail_outbox` (`club_id`,`status`,`next_attempt_at`);--> statement-breakpoint
CREATE TABLE `__new_rate_limits` (
	`club_id` integer NOT NULL,
	`key` text NOT NULL,
	`count` integer NOT NULL,
	`window_start` integer NOT NULL,
	`window_end` integer NOT NULL,
	PRIMARY KEY(`club_id`, `key`)
);
--> statement-breakpoint
INSERT INTO `__new_rate_limits`("club_id", "key", "count", "window_start", "window_end") SELECT 1, "key", "count", "window_start", "window_end" FROM `rate_limits`;--> statement-breakpoint
DROP TABLE `rate_limits`;--> statement-breakpoint
ALTER TABLE `__new_rate_limits` RENAME TO `rate_limits`;--> statement-breakpoint
CREATE INDEX `rate_limits_window_end_idx` ON `rate_limits` (`club_id`,`window_end`);--> statement-breakpoint
DROP INDEX `versions_version_code_unique`;--> statement-breakpoint
ALTER TABLE `versions` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `versions_version_code_unique` ON `versions` (`club_id`,`version_code`);--> statement-breakpoint
CREATE TABLE `__new_settings` (
	`club_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`type` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`visibility` text DEFAULT 'public' NOT NULL,
	`deletable` integer DEFAULT true NOT NULL,
	`min_value` integer,
	`max_value` integer,
	`group_name` text DEFAULT 'general' NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`club_id`, `key`),
	CONSTRAINT "settings_type_check" CHECK("__new_settings"."type" IN ('string', 'integer', 'boolean', 'json', 'password')),
	CONSTRAINT "settings_visibility_check" CHECK("__new_settings"."visibility" IN ('public', 'private', 'admin'))
);
--> statement-breakpoint
INSERT INTO `__new_settings`("club_id", "key", "value", "type", "description", "visibility", "deletable", "min_value", "max_value", "group_name", "updated_at") SELECT 1, "key", "value", "type", "description", "visibility", "deletable", "min_value", "max_value", "group_name", "updated_at" FROM `settings`;--> statement-breakpoint
DROP TABLE `settings`;--> statement-breakpoint
ALTER TABLE `__new_settings` RENAME TO `settings`;--> statement-breakpoint
CREATE TABLE `__new_provider_key_refusals` (
	`club_id` integer NOT NULL,
	`provider` text NOT NULL,
	`key_digest` text NOT NULL,
	`refused_at` text NOT NULL,
	PRIMARY KEY(`club_id`, `provider`)
);
--> statement-breakpoint
INSERT INTO `__new_provider_key_refusals`("club_id", "provider", "key_digest", "refused_at") SELECT 1, "provider", "key_digest", "refused_at" FROM `provider_key_refusals`;--> statement-breakpoint
DROP TABLE `provider_key_refusals`;--> statement-breakpoint
ALTER TABLE `__new_provider_key_refusals` RENAME TO `provider_key_refusals`;--> statement-breakpoint
ALTER TABLE `group_permissions` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `recovery_codes` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `two_factor_secrets` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `user_groups` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `contact_messages` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `contact_messages_club_idx` ON `contact_messages` (`club_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `order_links` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `payment_imports` ADD `club_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE INDEX `payment_imports_club_idx` ON `payment_imports` (`club_id`,`created_at`);--> statement-breakpoint
-- docs/decisions/071: the flag that the first club's old invoice files have their series markers becomes that club's.
INSERT INTO `sequences` (`club_id`, `name`, `year`, `value`)
  SELECT 1, `name`, 0, CAST(`value` AS INTEGER) FROM `instance_meta` WHERE `name` = 'invoice_series_markers';--> statement-breakpoint
DELETE FROM `instance_meta` WHERE `name` = 'invoice_series_markers';
