import { sql } from 'drizzle-orm';
import { check, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { clubIdColumn } from './clubs';

export const settingTypes = ['string', 'integer', 'boolean', 'json', 'password'] as const;
export const settingVisibilities = ['public', 'private', 'admin'] as const;

// docs/product.md §3 Setting. The value is stored as text and typed on the way out (docs/architecture.md §4).
export const settings = sqliteTable(
  'settings',
  {
    clubId: clubIdColumn(),
    key: text('key').notNull(),
    value: text('value').notNull(),
    type: text('type', { enum: settingTypes }).notNull(),
    description: text('description').notNull().default(''),
    visibility: text('visibility', { enum: settingVisibilities }).notNull().default('public'),
    deletable: integer('deletable', { mode: 'boolean' }).notNull().default(true),
    minValue: integer('min_value'),
    maxValue: integer('max_value'),
    groupName: text('group_name').notNull().default('general'),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.clubId, t.key] }),
    check('settings_type_check', sql`${t.type} IN ('string', 'integer', 'boolean', 'json', 'password')`),
    check('settings_visibility_check', sql`${t.visibility} IN ('public', 'private', 'admin')`),
  ],
);
