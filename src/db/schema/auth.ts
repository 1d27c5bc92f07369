import { sql } from 'drizzle-orm';
import { DEFAULT_LOCALE, LOCALES } from '../../core/locales';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { clubIdColumn } from './clubs';

// docs/product.md §3 User; docs/architecture.md §3: username unique case-insensitively, e-mail unique when present.
export const users = sqliteTable(
  'users',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    email: text('email'),
    passwordHash: text('password_hash').notNull(),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    deletable: integer('deletable', { mode: 'boolean' }).notNull().default(true),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    locale: text('locale', { enum: LOCALES }).notNull().default(DEFAULT_LOCALE),
  },
  (t) => [
    uniqueIndex('users_username_nocase_unique').on(t.clubId, sql`lower(${t.username})`),
    uniqueIndex('users_email_nocase_unique').on(t.clubId, sql`lower(${t.email})`).where(sql`${t.email} IS NOT NULL`),
    check('users_status_check', sql`${t.status} IN ('active', 'inactive')`),
  ],
);

export const groups = sqliteTable(
  'groups',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    deletable: integer('deletable', { mode: 'boolean' }).notNull().default(true),
  },
  (t) => [uniqueIndex('groups_name_nocase_unique').on(t.clubId, sql`lower(${t.name})`)],
);

// docs/product.md §3 Permission: key is dotted `prefix.action`.
export const permissions = sqliteTable(
  'permissions',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    key: text('key').notNull(),
    description: text('description').notNull().default(''),
    deletable: integer('deletable', { mode: 'boolean' }).notNull().default(true),
  },
  (t) => [uniqueIndex('permissions_key_unique').on(t.clubId, t.key)],
);

export const userGroups = sqliteTable(
  'user_groups',
  {
    clubId: clubIdColumn(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupId] }), index('user_groups_group_idx').on(t.groupId)],
);

export const groupPermissions = sqliteTable(
  'group_permissions',
  {
    clubId: clubIdColumn(),
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.permissionId] }), index('group_permissions_permission_idx').on(t.permissionId)],
);

// docs/architecture.md §3 sessions: only the SHA-256 of the cookie token is stored; 30-day sliding expiry.
// A session of a two-factor user starts pending and only /api/twofactor/completelogin upgrades it.
export const sessions = sqliteTable(
  'sessions',
  {
    clubId: clubIdColumn(),
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    twoFactorPending: integer('two_factor_pending', { mode: 'boolean' }).notNull().default(false),
    expiresAt: integer('expires_at').notNull(),
    createdAt: text('created_at').notNull(),
    // docs/decisions/012: what the account page lists (device, address, last use). `lastSeenAt` is epoch ms and is
    // written only when it moved by minutes, not on every request.
    userAgent: text('user_agent').notNull().default(''),
    ip: text('ip').notNull().default(''),
    lastSeenAt: integer('last_seen_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.clubId, t.expiresAt)],
);

// docs/architecture.md §5 forgot password: a single-use link; only the SHA-256 of its token is kept.
export const passwordResets = sqliteTable(
  'password_resets',
  {
    clubId: clubIdColumn(),
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId), index('password_resets_expires_idx').on(t.clubId, t.expiresAt)],
);

// docs/architecture.md §5 audit log: who did what, when, from where. The actor's name is copied so an entry outlives
// the account; a failed sign-in has no actor and names the tried username as target.
export const auditLog = sqliteTable(
  'audit_log',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    at: text('at').notNull(),
    // No foreign key: an entry must never stand in the way of the change it records, and it outlives
    // the account (the username is kept beside the id).
    actorId: integer('actor_id'),
    actorUsername: text('actor_username'),
    action: text('action').notNull(),
    target: text('target').notNull().default(''),
    // JSON object: old → new values where it fits; never a password.
    details: text('details').notNull().default('{}'),
    ip: text('ip').notNull().default(''),
  },
  (t) => [
    index('audit_log_at_idx').on(t.clubId, t.at),
    index('audit_log_action_at_idx').on(t.clubId, t.action, t.at),
    index('audit_log_actor_at_idx').on(t.clubId, sql`lower(${t.actorUsername})`, t.at),
  ],
);

// Two-factor secret, encrypted with SECRET_KEY. `enabledAt` is null while set-up is not yet verified;
// `lastUsedStep` refuses replay of a time step already accepted.
export const twoFactorSecrets = sqliteTable('two_factor_secrets', {
  clubId: clubIdColumn(),
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretEncrypted: text('secret_encrypted').notNull(),
  enabledAt: text('enabled_at'),
  lastUsedStep: integer('last_used_step'),
  createdAt: text('created_at').notNull(),
});

export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    clubId: clubIdColumn(),
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: text('used_at'),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_unique').on(t.userId, t.codeHash)],
);
