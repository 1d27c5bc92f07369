import { eq, sql } from 'drizzle-orm';
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
] as const;

export const ADMIN_GROUP = 'Administrators';
export const USERS_GROUP = 'Users';

export async function seedDatabase(db: Db, clock: Clock): Promise<void> {
  const now = clock.now().toISOString();
  await db.batch([
    db
      .insert(permissions)
      .values(SEED_PERMISSIONS.map((p) => ({ key: p.key, description: p.description, deletable: false })))
      .onConflictDoNothing(),
    // Group names are unique case-insensitively (an expression index), so insert only when absent.
    db.run(sql`INSERT INTO ${groups} (name, description, deletable)
      SELECT ${ADMIN_GROUP}, 'Club administrators with full access.', 0
      WHERE NOT EXISTS (SELECT 1 FROM ${groups} WHERE lower(name) = lower(${ADMIN_GROUP}))`),
    db.run(sql`INSERT INTO ${groups} (name, description, deletable)
      SELECT ${USERS_GROUP}, 'Registered users (default group).', 0
      WHERE NOT EXISTS (SELECT 1 FROM ${groups} WHERE lower(name) = lower(${USERS_GROUP}))`),
    db.run(sql`INSERT OR IGNORE INTO ${groupPermissions} (group_id, permission_id)
      SELECT g.id, p.id FROM ${groups} g, ${permissions} p
      WHERE lower(g.name) = lower(${ADMIN_GROUP}) AND p.key = 'admin.access'`),
    db
      .insert(settings)
      .values(
        BUILT_IN_SETTINGS.map((s) => ({
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
        })),
      )
      .onConflictDoNothing(),
    // The default group is the Users group; set only while it still has the placeholder 0.
    db.run(sql`UPDATE ${settings}
      SET value = (SELECT CAST(id AS TEXT) FROM ${groups} WHERE lower(name) = lower(${USERS_GROUP}))
      WHERE key = 'default_user_group_id' AND value = '0'
        AND EXISTS (SELECT 1 FROM ${groups} WHERE lower(name) = lower(${USERS_GROUP}))`),
  ]);
}

export async function findGroupId(db: Db, name: string): Promise<number | null> {
  const [row] = await db.select({ id: groups.id }).from(groups).where(eq(sql`lower(${groups.name})`, name.toLowerCase())).limit(1);
  return row?.id ?? null;
}
