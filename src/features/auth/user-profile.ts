import { asc, eq, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Locale } from '../../core/locales';
import type { ClubDb } from '../../db/client';
import { groupPermissions, groups, permissions, twoFactorSecrets, userGroups, users } from '../../db/schema';

/** The user as the API shows it (docs/architecture.md §4 `/api/account/me`). */
export interface UserProfile {
  id: number;
  username: string;
  email: string | null;
  status: 'active' | 'inactive';
  deletable: boolean;
  created_at: string;
  updated_at: string;
  two_factor_enabled: boolean;
  /** The back-office language the user chose on the account page (docs/decisions/011). */
  locale: Locale;
  groups: { id: number; name: string }[];
  permissions: { key: string }[];
}

/**
 * A column as "table"."column" wherever it stands. Drizzle writes the columns in the fields of a
 * one-table SELECT (loadUserProfile's) without their table: inside a subquery, "id" would then be the
 * subquery's own column.
 */
const col = (column: AnySQLiteColumn) => sql`${column.table}.${sql.identifier(column.name)}`;

/**
 * The profile as columns of one SELECT over `users` (docs/decisions/033): groups and permission keys come as JSON
 * arrays from correlated subqueries and two-factor as a flag, so a profile, or a session with its
 * user's profile, is one statement: one round trip on D1 and Turso instead of four. Plain SQLite JSON
 * functions (no aggregate ORDER BY, which needs SQLite 3.44), so libSQL, D1 and Turso run it alike.
 * Each array is aggregated from an ordered subquery, which SQLite does not flatten into an aggregate
 * query (the query flattener's rule 16), so json_group_array receives the rows in that order: groups
 * by id, keys by key. The query-count tests check it on libSQL and D1.
 */
export const profileColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  status: users.status,
  deletable: users.deletable,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  locale: users.locale,
  groups: sql<string>`(SELECT json_group_array(json_object('id', "id", 'name', "name")) FROM (
    SELECT ${col(groups.id)} AS "id", ${col(groups.name)} AS "name" FROM ${userGroups}
    INNER JOIN ${groups} ON ${col(groups.id)} = ${col(userGroups.groupId)}
    WHERE ${col(userGroups.userId)} = ${col(users.id)} ORDER BY ${col(groups.id)}))`,
  permissionKeys: sql<string>`(SELECT json_group_array("key") FROM (
    SELECT DISTINCT ${col(permissions.key)} AS "key" FROM ${userGroups}
    INNER JOIN ${groupPermissions} ON ${col(groupPermissions.groupId)} = ${col(userGroups.groupId)}
    INNER JOIN ${permissions} ON ${col(permissions.id)} = ${col(groupPermissions.permissionId)}
    WHERE ${col(userGroups.userId)} = ${col(users.id)} ORDER BY ${col(permissions.key)}))`,
  twoFactorEnabled: sql<number>`EXISTS (SELECT 1 FROM ${twoFactorSecrets}
    WHERE ${col(twoFactorSecrets.userId)} = ${col(users.id)} AND ${col(twoFactorSecrets.enabledAt)} IS NOT NULL)`,
};

export interface ProfileRow {
  id: number;
  username: string;
  email: string | null;
  status: 'active' | 'inactive';
  deletable: boolean;
  createdAt: string;
  updatedAt: string;
  locale: Locale;
  groups: string;
  permissionKeys: string;
  twoFactorEnabled: number;
}

export function profileFromRow(row: ProfileRow): UserProfile {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    status: row.status,
    deletable: row.deletable,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    two_factor_enabled: Boolean(row.twoFactorEnabled),
    locale: row.locale,
    groups: JSON.parse(row.groups) as UserProfile['groups'],
    permissions: (JSON.parse(row.permissionKeys) as string[]).map((key) => ({ key })),
  };
}

/** Every user's profile, ordered by id, in one statement (the admin's user list). */
export async function loadAllUserProfiles(db: ClubDb): Promise<UserProfile[]> {
  return (await db.select(profileColumns).from(users).orderBy(asc(users.id))).map(profileFromRow);
}

/** One user's profile in one statement (sign-in, account and two-factor changes). */
export async function loadUserProfile(db: ClubDb, userId: number): Promise<UserProfile | null> {
  const [row] = await db.select(profileColumns).from(users).where(eq(users.id, userId)).limit(1);
  return row ? profileFromRow(row) : null;
}
