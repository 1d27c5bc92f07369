import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupPermissions, groups, permissions, userGroups, users } from '../../db/schema';
import { staleAdminProfile } from '../../../test/support/stale-admin';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { LAST_ADMIN_MESSAGE } from '../users/last-admin';
import { addGroup, addGroupPermissions, deleteGroup, removeGroupPermissions, type GroupsCtx } from './groups.service';

let t: TestApp;
let ctx: GroupsCtx;
let adminGroupId: number;
let adminAccessId: number;
let platformAccessId: number;
let manyIds: number[];

const admin = staleAdminProfile('elsewhere');

const grantsOf = async (groupId: number) =>
  (await t.db.select().from(groupPermissions).where(eq(groupPermissions.groupId, groupId))).map((g) => g.permissionId).sort((a, b) => a - b);

beforeAll(async () => {
  t = await createTestApp();
  // An admin whose own membership is gone (demoted meanwhile): only the statements' guards protect the site.
  ctx = { db: t.db, clock: t.clock, ip: '127.0.0.1', settingsCache: t.deps.settingsCache, user: admin };
  adminGroupId = (await t.db.select().from(groups).where(eq(groups.name, 'Administrators')))[0]!.id;
  adminAccessId = (await t.db.select().from(permissions).where(eq(permissions.key, 'admin.access')))[0]!.id;
  platformAccessId = (await t.db.select().from(permissions).where(eq(permissions.key, 'platform.access')))[0]!.id;
  // 250 permissions: more ids than one D1 statement may bind.
  for (let i = 0; i < 250; i += 30) {
    const values = Array.from({ length: Math.min(30, 250 - i) }, (_, j) => ({ key: `bulk.p${i + j}`, description: '' }));
    await t.db.insert(permissions).values(values);
  }
  manyIds = (
    await t.db
      .select({ id: permissions.id })
      .from(permissions)
      .where(
        inArray(
          permissions.key,
          Array.from({ length: 250 }, (_, i) => `bulk.p${i}`),
        ),
      )
  ).map((r) => r.id);
});

afterAll(async () => t.close());

describe('group permissions as sets, in pieces D1 accepts', () => {
  it('grants and takes away 250 permissions in one call each', async () => {
    const group = await addGroup(ctx, { name: 'Bulk', description: '' });
    await addGroupPermissions(ctx, { group_id: group.id, permission_ids: manyIds });
    expect(await grantsOf(group.id)).toEqual([...manyIds].sort((a, b) => a - b));
    await addGroupPermissions(ctx, { group_id: group.id, permission_ids: manyIds });
    expect(await grantsOf(group.id)).toHaveLength(250);
    await removeGroupPermissions(ctx, { group_id: group.id, permission_ids: manyIds.slice(0, 200) });
    expect(await grantsOf(group.id)).toEqual([...manyIds.slice(200)].sort((a, b) => a - b));
  });
});

describe('the last active admin', () => {
  it('keeps admin.access on the only group giving it, and removes nothing else asked in the same call', async () => {
    await addGroupPermissions(ctx, { group_id: adminGroupId, permission_ids: manyIds.slice(0, 120) });
    const before = await grantsOf(adminGroupId);
    const error = await removeGroupPermissions(ctx, { group_id: adminGroupId, permission_ids: [...manyIds.slice(0, 120), adminAccessId] }).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toBe(LAST_ADMIN_MESSAGE);
    expect(await grantsOf(adminGroupId)).toEqual(before);
    await removeGroupPermissions(ctx, { group_id: adminGroupId, permission_ids: manyIds.slice(0, 120) });
    // The first club's Administrators also hold platform.access (docs/decisions/071).
    expect(await grantsOf(adminGroupId)).toEqual([adminAccessId, platformAccessId]);
  });

  it('refuses to delete the only deletable group that gives an active admin admin.access', async () => {
    const group = await addGroup(ctx, { name: 'Beheer', description: '' });
    await addGroupPermissions(ctx, { group_id: group.id, permission_ids: [adminAccessId] });
    const [only] = await t.db.select().from(users).where(eq(users.username, 'admin'));
    // Move the first admin from Administrators to Beheer, so Beheer is the one path left.
    await t.db.insert(userGroups).values({ userId: only!.id, groupId: group.id });
    await t.db.delete(userGroups).where(and(eq(userGroups.userId, only!.id), eq(userGroups.groupId, adminGroupId)));
    const error = await deleteGroup(ctx, group.id).catch((e: Error) => e);
    expect((error as Error).message).toBe(LAST_ADMIN_MESSAGE);
    expect(await t.db.select().from(groups).where(eq(groups.id, group.id))).toHaveLength(1);
    // With admin.access back on Administrators and the admin in it, Beheer may go.
    await t.db.insert(userGroups).values({ userId: only!.id, groupId: adminGroupId });
    await deleteGroup(ctx, group.id);
    expect(await t.db.select().from(groups).where(eq(groups.id, group.id))).toHaveLength(0);
  });
});
