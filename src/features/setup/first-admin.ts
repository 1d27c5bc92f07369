import { eq, sql, type SQL } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { ownerValue } from '../../db/club-db';
import { groupPermissions, permissions, userGroups, users } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import { randomPassword } from '../../platform/crypto';
import type { PasswordHasher } from '../../platform/password';
import { PERMISSIONS } from '../auth/permission-keys';
import { ADMIN_GROUP, findGroupId } from './seed';

export interface FirstAdminResult {
  created: boolean;
  username?: string;
  /** Set only when the password was generated: it is shown once and never stored in clear. */
  generatedPassword?: string;
}

function anAdmin(db: ClubDb) {
  return db
    .select({ userId: userGroups.userId })
    .from(userGroups)
    .innerJoin(groupPermissions, eq(groupPermissions.groupId, userGroups.groupId))
    .innerJoin(permissions, eq(permissions.id, groupPermissions.permissionId))
    .innerJoin(users, eq(users.id, userGroups.userId))
    .where(eq(permissions.key, PERMISSIONS.adminAccess))
    .limit(1);
}

export async function hasAnyAdmin(db: ClubDb): Promise<boolean> {
  const [row] = await anAdmin(db);
  return !!row;
}

/** True (as SQL) when a user holds admin.access, i.e. `ensureFirstAdmin` has nothing to do. */
export function anyAdminExists(db: ClubDb): SQL {
  return sql`EXISTS ${anAdmin(db)}`;
}

/**
 * docs/architecture.md §2: on a database where nobody holds admin.access, create a non-deletable admin from
 * ADMIN_USERNAME / ADMIN_PASSWORD, or with a random password that the caller prints once.
 */
export async function ensureFirstAdmin(
  deps: { db: ClubDb; clock: Clock; passwords: PasswordHasher },
  options: { username: string; password?: string | undefined },
): Promise<FirstAdminResult> {
  const { db, clock, passwords } = deps;
  if (await hasAnyAdmin(db)) return { created: false };
  const groupId = await findGroupId(db, ADMIN_GROUP);
  if (groupId === null) throw new Error(`The ${ADMIN_GROUP} group is missing; seed the database first.`);
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, options.username.toLowerCase()))
    .limit(1);
  if (taken) {
    throw new Error(
      `Invalid configuration: ADMIN_USERNAME '${options.username}' belongs to an existing user without admin.access; choose another ADMIN_USERNAME`,
    );
  }
  const generatedPassword = options.password ? undefined : randomPassword();
  const hash = await passwords.hash(options.password ?? generatedPassword!);
  const now = clock.now().toISOString();
  // One batch, so there is never an admin account without its group.
  await db.batch([
    db.insert(users).values({ username: options.username, passwordHash: hash, status: 'active', deletable: false, createdAt: now, updatedAt: now }),
    db.insert(userGroups).select(
      db
        .select({ clubId: ownerValue(db), userId: users.id, groupId: sql<number>`${groupId}`.as('group_id') })
        .from(users)
        .where(eq(sql`lower(${users.username})`, options.username.toLowerCase())),
    ),
  ]);
  return { created: true, username: options.username, ...(generatedPassword ? { generatedPassword } : {}) };
}
