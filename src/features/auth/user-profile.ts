import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groupPermissions, groups, permissions, twoFactorSecrets, userGroups, users } from '../../db/schema';

/** The user as the API shows it (DESIGN §4 `/api/account/me`). */
export interface UserProfile {
  id: number;
  username: string;
  email: string | null;
  status: 'active' | 'inactive';
  deletable: boolean;
  created_at: string;
  updated_at: string;
  two_factor_enabled: boolean;
  groups: { id: number; name: string }[];
  permissions: { key: string }[];
}

type UserRow = typeof users.$inferSelect;

/** Builds profiles for many users with three queries, whatever their number. */
export async function loadUserProfiles(db: Db, rows: UserRow[]): Promise<UserProfile[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [memberships, grants, twoFactor] = await Promise.all([
    db
      .select({ userId: userGroups.userId, id: groups.id, name: groups.name })
      .from(userGroups)
      .innerJoin(groups, eq(groups.id, userGroups.groupId))
      .where(inArray(userGroups.userId, ids))
      .orderBy(asc(groups.id)),
    db
      .select({ userId: userGroups.userId, key: permissions.key })
      .from(userGroups)
      .innerJoin(groupPermissions, eq(groupPermissions.groupId, userGroups.groupId))
      .innerJoin(permissions, eq(permissions.id, groupPermissions.permissionId))
      .where(inArray(userGroups.userId, ids))
      .orderBy(asc(permissions.key)),
    db
      .select({ userId: twoFactorSecrets.userId })
      .from(twoFactorSecrets)
      .where(and(inArray(twoFactorSecrets.userId, ids), isNotNull(twoFactorSecrets.enabledAt))),
  ]);
  const enabled = new Set(twoFactor.map((t) => t.userId));
  return rows.map((row) => {
    const keys = new Set<string>();
    for (const g of grants) if (g.userId === row.id) keys.add(g.key);
    return {
      id: row.id,
      username: row.username,
      email: row.email,
      status: row.status,
      deletable: row.deletable,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
      two_factor_enabled: enabled.has(row.id),
      groups: memberships.filter((m) => m.userId === row.id).map((m) => ({ id: m.id, name: m.name })),
      permissions: [...keys].map((key) => ({ key })),
    };
  });
}

export async function loadUserProfile(db: Db, userId: number): Promise<UserProfile | null> {
  const rows = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  const [profile] = await loadUserProfiles(db, rows);
  return profile ?? null;
}
