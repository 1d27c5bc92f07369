import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { clubIdColumn } from './clubs';

// docs/product.md §3 Version: an Android APK; the file lives in R2 (Worker) or on disk (Node) under `fileKey`.
export const versions = sqliteTable(
  'versions',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    versionName: text('version_name').notNull(),
    versionCode: integer('version_code').notNull(),
    fileKey: text('file_key').notNull(),
    size: integer('size').notNull(),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('versions_version_code_unique').on(t.clubId, t.versionCode)],
);

// docs/architecture.md §3 mail: every outgoing message is written here first, then delivered with retries.
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    // JSON list of {filename, contentType, fileKey}: attachments are kept in file storage, not in the row.
    attachments: text('attachments').notNull().default('[]'),
    // What to mark when the SMTP server accepted the message, e.g. 'order:12' for an invoice.
    relatedRef: text('related_ref'),
    // The Reply-To header (docs/decisions/058): who an answer to this message should reach; null for none.
    replyTo: text('reply_to'),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    createdAt: text('created_at').notNull(),
    sentAt: text('sent_at'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.clubId, t.status, t.nextAttemptAt),
    check('mail_outbox_status_check', sql`${t.status} IN ('queued', 'sending', 'sent', 'failed')`),
  ],
);

// docs/architecture.md §3 rate limits: a fixed window per key, kept in the database so it holds across Worker isolates.
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    clubId: clubIdColumn(),
    key: text('key').notNull(),
    count: integer('count').notNull(),
    windowStart: integer('window_start').notNull(),
    windowEnd: integer('window_end').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.key] }), index('rate_limits_window_end_idx').on(t.clubId, t.windowEnd)],
);

// Facts about the data itself rather than the club's settings, e.g. the fingerprint of the secret key that
// encrypted it (docs/decisions/050), so a restore without its key is refused instead of silently re-keyed.
export const instanceMeta = sqliteTable('instance_meta', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

// docs/decisions/066: the payment provider refused the club's API key (HTTP 401). The settings screen warns
// while the key it was refused for (by digest, never the key) is still the one stored.
export const providerKeyRefusals = sqliteTable(
  'provider_key_refusals',
  {
    clubId: clubIdColumn(),
    provider: text('provider').notNull(),
    keyDigest: text('key_digest').notNull(),
    refusedAt: text('refused_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.clubId, t.provider] })],
);
