import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { groupPermissions, groups, permissions, settings } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import { BUILT_IN_SETTINGS } from '../settings/settings.defaults';

/** DESIGN §3 seed data. Every insert is "if absent": a second run changes nothing. */
export const SEED_PERMISSIONS = [
  { key: 'admin.access', description: 'Access to the admin area; passes every permission check and bypasses maintenance mode.' },
  { key: 'premium.aiusage', description: 'Access to the premium-only area (/protected).' },
  { key: 'users.assign', description: "Edit a user's groups." },
  { key: 'users.delete', description: 'Delete users.' },
  { key: 'settings.delete', description: 'Delete deletable settings.' },
  { key: 'management.access', description: 'The Management dashboard: tablers, orders, invoices, payments and the CSV export, without the rest of the admin area.' },
] as const;

export const ADMIN_GROUP = 'Administrators';
export const USERS_GROUP = 'Users';
/** issue 13: the treasurer's group, holding management.access only. */
export const TREASURERS_GROUP = 'Penningmeesters';

/** Which seeded group holds which seeded permission. */
const SEED_GRANTS = [
  { group: ADMIN_GROUP, permission: 'admin.access' },
  { group: TREASURERS_GROUP, permission: 'management.access' },
] as const;

export async function seedDatabase(db: Db, clock: Clock): Promise<void> {
  const now = clock.now().toISOString();
  await db.batch([
    db
      .insert(permissions)
      .values(SEED_PERMISSIONS.map((p) => ({ key: p.key, description: p.description, deletable: false })))
      .onConflictDoNothing(),
    // Without a conflict target, DO NOTHING covers the case-insensitive unique index on names.
    db
      .insert(groups)
      .values([
        { name: ADMIN_GROUP, description: 'Club administrators with full access.', deletable: false },
        { name: USERS_GROUP, description: 'Registered users (default group).', deletable: false },
        { name: TREASURERS_GROUP, description: 'Treasurers: the Management dashboard (orders, invoices, payments), nothing else of the admin area.', deletable: false },
      ])
      .onConflictDoNothing(),
    // The seeded groups hold their seeded permission after every start.
    ...SEED_GRANTS.map((grant) =>
      db
        .insert(groupPermissions)
        .select(
          db
            .select({ groupId: groups.id, permissionId: permissions.id })
            .from(groups)
            .innerJoin(permissions, eq(permissions.key, grant.permission))
            .where(eq(sql`lower(${groups.name})`, grant.group.toLowerCase())),
        )
        .onConflictDoNothing(),
    ),
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
      .set({ value: sql`(SELECT CAST(${groups.id} AS TEXT) FROM ${groups} WHERE lower(${groups.name}) = ${USERS_GROUP.toLowerCase()})` })
      .where(
        and(
          eq(settings.key, 'default_user_group_id'),
          eq(settings.value, '0'),
          sql`EXISTS (SELECT 1 FROM ${groups} WHERE lower(${groups.name}) = ${USERS_GROUP.toLowerCase()})`,
        ),
      ),
  ]);
}

export async function findGroupId(db: Db, name: string): Promise<number | null> {
  const [row] = await db.select({ id: groups.id }).from(groups).where(eq(sql`lower(${groups.name})`, name.toLowerCase())).limit(1);
  return row?.id ?? null;
}
