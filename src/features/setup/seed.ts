import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { ownerValue } from '../../db/club-db';
import { groupPermissions, groups, permissions, settings } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import { BUILT_IN_SETTINGS } from '../settings/settings.defaults';
import { PERMISSIONS, PLATFORM_ACCESS } from '../auth/permission-keys';
import { ADMIN_GROUP, PLATFORM_PERMISSION, SEED_GROUPS, SEED_PERMISSIONS, TREASURERS_GROUP, USERS_GROUP } from './seed-data';

export { ADMIN_GROUP, SEED_PERMISSIONS, TREASURERS_GROUP, USERS_GROUP };

/** Which seeded group holds which seeded permission. */
const SEED_GRANTS = [
  { group: ADMIN_GROUP, permission: PERMISSIONS.adminAccess },
  { group: TREASURERS_GROUP, permission: PERMISSIONS.managementAccess },
] as const;

/** docs/decisions/071: the first club also holds the platform's permission, granted to its Administrators. */
const PLATFORM_GRANT = { group: ADMIN_GROUP, permission: PLATFORM_ACCESS } as const;

/** Whether this club is the first one, which runs the deployment. */
export interface SeedScope {
  platform: boolean;
}

const permissionsOf = (scope: SeedScope) => (scope.platform ? [...SEED_PERMISSIONS, PLATFORM_PERMISSION] : SEED_PERMISSIONS);
const grantsOf = (scope: SeedScope) => (scope.platform ? [...SEED_GRANTS, PLATFORM_GRANT] : SEED_GRANTS);

export async function seedDatabase(db: ClubDb, clock: Clock, scope: SeedScope = { platform: false }): Promise<void> {
  const [first, ...rest] = seedStatements(db, clock, scope);
  await db.batch([first, ...rest]);
}

/**
 * The statements that give a club its built-in permissions, groups, grants and settings, each "if absent", for a
 * batch: a new club's are part of the one batch that makes the club (docs/decisions/071).
 */
export function seedStatements(db: ClubDb, clock: Clock, scope: SeedScope = { platform: false }) {
  const now = clock.now().toISOString();
  return [
    db
      .insert(permissions)
      .values(permissionsOf(scope).map((p) => ({ key: p.key, description: p.description, deletable: false })))
      .onConflictDoNothing(),
    // Without a conflict target, DO NOTHING covers the case-insensitive unique index on names.
    db.insert(groups).values(SEED_GROUPS).onConflictDoNothing(),
    // The seeded groups hold their seeded permission after every start.
    ...grantsOf(scope).map((grant) => db.insert(groupPermissions).select(grantPair(db, grant)).onConflictDoNothing()),
    // One statement per setting: D1 allows at most 100 bound values in a statement.
    ...BUILT_IN_SETTINGS.map((s) =>
      db
        .insert(settings)
        .values({
          key: s.key,
          value: s.value,
          type: s.type,
          description: s.description,
          visibility: s.visibility,
          deletable: false,
          minValue: s.min_value ?? null,
          maxValue: s.max_value ?? null,
          groupName: s.group_name,
          updatedAt: now,
        })
        .onConflictDoNothing(),
    ),
    // The default group is the Users group; set only while it still has the placeholder 0.
    db
      .update(settings)
      .set({
        value: sql`${db
          .select({ id: sql`CAST(${groups.id} AS TEXT)` })
          .from(groups)
          .where(eq(sql`lower(${groups.name})`, USERS_GROUP.toLowerCase()))}`,
      })
      .where(
        and(
          eq(settings.key, 'default_user_group_id'),
          eq(settings.value, '0'),
          sql`EXISTS ${db
            .select({ one: sql`1` })
            .from(groups)
            .where(eq(sql`lower(${groups.name})`, USERS_GROUP.toLowerCase()))}`,
        ),
      ),
  ] as const;
}

/** The (group id, permission id) pair of a seeded grant, when both rows exist. */
function grantPair(db: ClubDb, grant: { group: string; permission: string }) {
  return db
    .select({ clubId: ownerValue(db), groupId: groups.id, permissionId: permissions.id })
    .from(groups)
    .innerJoin(permissions, eq(permissions.key, grant.permission))
    .where(eq(sql`lower(${groups.name})`, grant.group.toLowerCase()));
}

/**
 * True (as SQL) when `seedDatabase` would change nothing: every seeded permission, group, grant and setting
 * is there and the default group is no longer the placeholder. Part of the one read that lets a start skip
 * the seeding writes (`prepareDatabase`).
 */
export function seedIsComplete(db: ClubDb, scope: SeedScope = { platform: false }): SQL {
  const permissionKeys = permissionsOf(scope).map((p) => p.key);
  const groupNames = SEED_GROUPS.map((g) => g.name.toLowerCase());
  const settingKeys = BUILT_IN_SETTINGS.map((s) => s.key);
  const grantsHeld = grantsOf(scope).map((grant) => {
    const held = db
      .select({ one: sql`1` })
      .from(groupPermissions)
      .innerJoin(groups, eq(groups.id, groupPermissions.groupId))
      .innerJoin(permissions, eq(permissions.id, groupPermissions.permissionId))
      .where(and(eq(sql`lower(${groups.name})`, grant.group.toLowerCase()), eq(permissions.key, grant.permission)));
    return sql`EXISTS ${held}`;
  });
  return sql.join(
    [
      // An embedded query is parenthesised by Drizzle: a scalar subquery here, the operand of EXISTS below.
      sql`${db.select({ n: count() }).from(permissions).where(inArray(permissions.key, permissionKeys))} = ${permissionKeys.length}`,
      sql`${db
        .select({ n: count() })
        .from(groups)
        .where(inArray(sql`lower(${groups.name})`, groupNames))} = ${groupNames.length}`,
      sql`${db.select({ n: count() }).from(settings).where(inArray(settings.key, settingKeys))} = ${settingKeys.length}`,
      ...grantsHeld,
      sql`NOT EXISTS ${db
        .select({ one: sql`1` })
        .from(settings)
        .where(and(eq(settings.key, 'default_user_group_id'), eq(settings.value, '0')))}`,
    ],
    sql` AND `,
  );
}

export async function findGroupId(db: ClubDb, name: string): Promise<number | null> {
  const [row] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(eq(sql`lower(${groups.name})`, name.toLowerCase()))
    .limit(1);
  return row?.id ?? null;
}
