import { and, eq, exists, ne, not, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { ClubDb } from '../../db/client';
import { groupPermissions, permissions, userGroups, users } from '../../db/schema';
import { AppError } from '../../core/errors';
import { PERMISSIONS } from '../auth/permission-keys';

export const LAST_ADMIN_MESSAGE = 'At least one active administrator must remain';
export const lastAdminRefused = () => new AppError('LAST_ADMIN', LAST_ADMIN_MESSAGE);

/** What a change takes away: one membership, every membership of a user, or a group's admin grant. */
export type AdminChange = { membership: { userId: number; groupId: number } } | { userId: number } | { groupId: number };

// Aliases, so the subquery never confuses its tables with those of the statement it guards.
const ug = alias(userGroups, 'guard_user_groups');
const gu = alias(users, 'guard_users');
const gp = alias(groupPermissions, 'guard_group_permissions');
const gperm = alias(permissions, 'guard_permissions');

function untouched(change: AdminChange): SQL {
  if ('membership' in change) return not(and(eq(ug.userId, change.membership.userId), eq(ug.groupId, change.membership.groupId))!);
  if ('userId' in change) return ne(ug.userId, change.userId);
  return ne(ug.groupId, change.groupId);
}

/** Active users holding admin.access through a membership the change leaves alone. */
function remainingAdmins(db: ClubDb, change: AdminChange) {
  return db
    .select({ one: sql`1` })
    .from(ug)
    .innerJoin(gu, eq(gu.id, ug.userId))
    .innerJoin(gp, eq(gp.groupId, ug.groupId))
    .innerJoin(gperm, eq(gperm.id, gp.permissionId))
    .where(and(eq(gperm.key, PERMISSIONS.adminAccess), eq(gu.status, 'active'), untouched(change)));
}

/**
 * A condition for the WHERE of the guarded write itself: the write happens only if an active admin is
 * left afterwards. One statement decides, so two admins demoting each other at once cannot both win
 * (D1 has no interactive transactions to hold a lock between a check and a write).
 */
export function adminRemainsAfter(db: ClubDb, change: AdminChange): SQL {
  return exists(remainingAdmins(db, change));
}

/** The same question asked before writing, so the usual refusal comes with nothing written. */
export async function adminRemainsAfterCheck(db: ClubDb, change: AdminChange): Promise<boolean> {
  const rows = await remainingAdmins(db, change).limit(1);
  return rows.length > 0;
}
