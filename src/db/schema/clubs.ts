import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/**
 * docs/decisions/071: the clubs of one deployment. Every table a club owns carries `club_id` (`clubIdColumn`),
 * and services reach those tables only through the club's handle (db/club-db.ts). The first club (id 1) is the
 * one a fresh install makes; its data is the data of a deployment from before there were clubs.
 */
export const clubs = sqliteTable(
  'clubs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    status: text('status', { enum: ['active', 'suspended'] })
      .notNull()
      .default('active'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [uniqueIndex('clubs_slug_unique').on(t.slug), check('clubs_status_check', sql`${t.status} IN ('active', 'suspended')`)],
);

/** The hosts a club answers on (lower case, no port); the first by position is the club's origin. */
export const clubHosts = sqliteTable(
  'club_hosts',
  {
    host: text('host').primaryKey(),
    clubId: integer('club_id')
      .notNull()
      .references(() => clubs.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('club_hosts_club_idx').on(t.clubId, t.position)],
);

/**
 * The owner column of every table a club owns. Not null and without a default in the schema, so an insert
 * that is not made through a club's handle does not type-check (the handle fills it in).
 */
export const clubIdColumn = () => integer('club_id').notNull();

/**
 * docs/decisions/071: a sign-up on /aanmelden waiting for its e-mail to be verified. The club exists only once the
 * link is used (single use, 24 h); only the SHA-256 of the link's token is kept, and the password only as its hash.
 */
export const clubSignups = sqliteTable(
  'club_signups',
  {
    tokenHash: text('token_hash').primaryKey(),
    clubName: text('club_name').notNull(),
    slug: text('slug').notNull(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('club_signups_expires_idx').on(t.expiresAt)],
);
