import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groups, userGroups, users } from '../../db/schema';
import { loadUserProfile } from '../auth/user-profile';
import { staleAdminProfile } from '../../../test/support/stale-admin';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { adminRemainsAfter, adminRemainsAfterCheck, LAST_ADMIN_MESSAGE } from './last-admin';
import { deleteUser, editUser, removeGroup, type UsersCtx } from './users.service';

/**
 * The last-admin rule must hold even when the admin asking has just been demoted by someone else
 * (two admins demoting each other at once): the guarded statements decide, not the caller's session.
 */
let t: TestApp;
let adminGroupId: number;
let soloId: number;
let firstAdminId: number;

/** An admin whose session was loaded before they lost admin.access: they pass requireAdmin but hold nothing. */
function staleAdmin(): UsersCtx {
  const user = staleAdminProfile('demoted');
  return { db: t.db, clock: t.clock, passwords: t.deps.passwords, settingsCache: t.deps.settingsCache, session: null, user, ip: '127.0.0.1' };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'no refusal',
    (e: Error) => e.message,
  );
}

beforeAll(async () => {
  t = await createTestApp();
  adminGroupId = (await t.db.select().from(groups).where(eq(groups.name, 'Administrators')))[0]!.id;
  firstAdminId = (await t.db.select().from(users).where(eq(users.username, 'admin')))[0]!.id;
  soloId = (await t.createUser('solo', ['Administrators', 'Users'])).id;
  // The first admin is switched off: solo is the one active admin left.
  await t.db.update(users).set({ status: 'inactive' }).where(eq(users.id, firstAdminId));
});

afterAll(async () => t.close());

describe('adminRemainsAfter', () => {
  it('counts only active users holding admin.access through a membership the change leaves alone', async () => {
    expect(await adminRemainsAfterCheck(t.db, { membership: { userId: soloId, groupId: adminGroupId } })).toBe(false);
    expect(await adminRemainsAfterCheck(t.db, { userId: soloId })).toBe(false);
    expect(await adminRemainsAfterCheck(t.db, { groupId: adminGroupId })).toBe(false);
    expect(await adminRemainsAfterCheck(t.db, { userId: firstAdminId })).toBe(true);
    expect(await adminRemainsAfterCheck(t.db, { membership: { userId: firstAdminId, groupId: adminGroupId } })).toBe(true);
  });

  it('stops a guarded write in the statement itself', async () => {
    const membership = and(eq(userGroups.userId, soloId), eq(userGroups.groupId, adminGroupId));
    const removed = await t.db
      .delete(userGroups)
      .where(and(membership, adminRemainsAfter(t.db, { membership: { userId: soloId, groupId: adminGroupId } })))
      .returning();
    expect(removed).toEqual([]);
    expect(await t.db.select().from(userGroups).where(membership)).toHaveLength(1);
  });
});

describe('the users service with an admin demoted meanwhile', () => {
  it('refuses to deactivate, delete or take the admin group from the last active admin', async () => {
    const ctx = staleAdmin();
    expect(await refusal(editUser(ctx, soloId, { status: 'inactive' }))).toBe(LAST_ADMIN_MESSAGE);
    expect(await refusal(deleteUser(ctx, soloId))).toBe(LAST_ADMIN_MESSAGE);
    expect(await refusal(removeGroup(ctx, { user_id: soloId, group_id: adminGroupId }))).toBe(LAST_ADMIN_MESSAGE);
    const solo = await loadUserProfile(t.db, soloId);
    expect(solo?.status).toBe('active');
    expect(solo?.permissions).toEqual([{ key: 'admin.access' }, { key: 'platform.access' }]);
  });

  it('still lets other changes through', async () => {
    const ctx = staleAdmin();
    await editUser(ctx, soloId, { email: 'solo@example.nl' });
    expect((await loadUserProfile(t.db, soloId))?.email).toBe('solo@example.nl');
    await editUser(ctx, firstAdminId, { status: 'active' });
    expect((await loadUserProfile(t.db, firstAdminId))?.status).toBe('active');
    // With the first admin active again, solo may go.
    await removeGroup(ctx, { user_id: soloId, group_id: adminGroupId });
    expect((await loadUserProfile(t.db, soloId))?.permissions).toEqual([]);
  });
});
