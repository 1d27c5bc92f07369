import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groupPermissions, groups, permissions, settings, twoFactorSecrets, users } from '../../src/db/schema';
import { loadAllUserProfiles, loadUserProfile } from '../../src/features/auth/user-profile';
import { createNodeAssets } from '../../src/platform/node-assets';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * docs/decisions/033, identity in one round trip: what a request costs in database round trips, counted at the
 * libSQL client (test/support/query-counter.ts). The settings cache is warmed first, as it is on every
 * request but the first of a minute (Node) or a few seconds (Worker). The same counts in workerd on D1:
 * test/worker/query-counts.test.ts.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const CREATED = '2026-11-22T10:00:00.000Z';

let t: TestApp;
let assetsDir: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  assetsDir = mkdtempSync(join(tmpdir(), 'kerstactie-query-assets-'));
  mkdirSync(join(assetsDir, 'assets'));
  writeFileSync(join(assetsDir, 'assets/app-abc123.js'), 'export const kerst = true;\n');
  writeFileSync(join(assetsDir, 'faq.html'), '<!doctype html><title>FAQ</title>');
  t = await createTestApp({ assets: createNodeAssets(assetsDir) });
  ids.admin = 1;
  // Groups whose names sort against their ids, and two of them granting the same permission: the
  // profile lists groups by id and each permission key once, by key.
  const [zeta] = await t.db.insert(groups).values({ name: 'Zeta' }).returning();
  const [alpha] = await t.db.insert(groups).values({ name: 'Alpha' }).returning();
  const permissionId = async (key: string) => (await t.db.select().from(permissions).where(eq(permissions.key, key)))[0]!.id;
  // Read group by group, the keys come as users.delete, premium.aiusage, users.delete: not in key order.
  await t.db.insert(groupPermissions).values([
    { groupId: zeta!.id, permissionId: await permissionId('users.delete') },
    { groupId: alpha!.id, permissionId: await permissionId('premium.aiusage') },
    { groupId: alpha!.id, permissionId: await permissionId('users.delete') },
  ]);
  ids.many = (await t.createUser('many', ['Alpha', 'Users', 'Zeta'])).id;
  ids.secure = (await t.createUser('secure', ['Users'])).id;
  await t.db.insert(twoFactorSecrets).values({ userId: ids.secure, secretEncrypted: 'sealed', enabledAt: CREATED, createdAt: CREATED });
  ids.loner = (await t.createUser('loner', [])).id;
  await t.db.update(users).set({ email: 'loner@example.nl' }).where(eq(users.id, ids.loner));
  // Set up but never verified: not enabled.
  await t.db.insert(twoFactorSecrets).values({ userId: ids.loner, secretEncrypted: 'sealed', enabledAt: null, createdAt: CREATED });
});
afterAll(async () => {
  await t.close();
  rmSync(assetsDir, { recursive: true, force: true });
});
afterEach(() => expect(t.errors).toEqual([]));

/** Sends one request with the settings cache warm and returns it with the SQL of every round trip it made. */
async function measure(path: string, init: Parameters<TestApp['request']>[1] = {}) {
  await t.deps.settingsCache.all(t.db);
  t.queries.reset();
  const response = await t.request(path, init);
  return { response, statements: [...t.queries.statements] };
}

const profile = (id: number, username: string, extra: Record<string, unknown>) => ({
  id,
  username,
  email: null,
  status: 'active',
  deletable: true,
  created_at: CREATED,
  updated_at: CREATED,
  two_factor_enabled: false,
  locale: 'en',
  groups: [],
  permissions: [],
  ...extra,
});

describe('database round trips per request', () => {
  it('answers a signed-in /api/account/me with one query, and the same JSON as before', async () => {
    const cases = [
      {
        username: 'admin',
        user: profile(ids.admin!, 'admin', {
          deletable: false,
          groups: [{ id: 1, name: 'Administrators' }],
          permissions: [{ key: 'admin.access' }, { key: 'platform.access' }],
        }),
      },
      {
        username: 'many',
        user: profile(ids.many!, 'many', {
          groups: [
            { id: 2, name: 'Users' },
            { id: 4, name: 'Zeta' },
            { id: 5, name: 'Alpha' },
          ],
          permissions: [{ key: 'premium.aiusage' }, { key: 'users.delete' }],
        }),
      },
      { username: 'secure', user: profile(ids.secure!, 'secure', { two_factor_enabled: true, groups: [{ id: 2, name: 'Users' }] }) },
      { username: 'loner', user: profile(ids.loner!, 'loner', { email: 'loner@example.nl' }) },
    ];
    for (const { username, user } of cases) {
      const cookie = await t.cookieFor(username);
      const { response, statements } = await measure('/api/account/me', { cookie });
      expect(response.json, username).toEqual({ loggedIn: true, user, two_factor_setup_required: false });
      expect(statements, username).toHaveLength(1);
      // The same profile as sign-in reads it (loadUserProfile, the same columns over users alone) and as
      // the users list shows it (loadAllUserProfiles).
      expect(await loadUserProfile(t.db, user.id), username).toEqual(user);
      expect(
        (await loadAllUserProfiles(t.db)).find((listed) => listed.id === user.id),
        username,
      ).toEqual(user);
      expect(response.headers.get('set-cookie'), username).toBeNull();
      // tRPC's account.me reads the same context.
      const trpc = await measure('/trpc/account.me', { cookie });
      expect(trpc.response.json.result.data, username).toEqual({ loggedIn: true, user, two_factor_setup_required: false });
      expect(trpc.statements, username).toHaveLength(1);
    }
  });

  it('answers an anonymous /api/account/me, the warm settings and static files without a query', async () => {
    const anonymous = await measure('/api/account/me');
    expect(anonymous.response.json).toEqual({ loggedIn: false });
    expect(anonymous.statements).toEqual([]);
    const settingsList = await measure('/api/settings');
    expect(settingsList.response.json.settings.length).toBeGreaterThan(0);
    expect(settingsList.statements).toEqual([]);
    const script = await measure('/assets/app-abc123.js');
    expect([script.response.status, script.response.text]).toEqual([200, 'export const kerst = true;\n']);
    expect(script.statements).toEqual([]);
    const page = await measure('/faq', { headers: { accept: 'text/html' } });
    expect(page.response.text).toContain('<title>FAQ</title>');
    expect(page.statements).toEqual([]);
  });

  it('costs one query more with the settings cache cold, read beside the session', async () => {
    const cookie = await t.cookieFor('loner');
    t.deps.settingsCache.invalidate();
    t.queries.reset();
    const response = await t.request('/api/account/me', { cookie });
    expect(response.json.loggedIn).toBe(true);
    expect(t.queries.statements).toHaveLength(2);
    expect(t.queries.statements.filter((statement) => statement.includes('from "settings"'))).toHaveLength(1);
  });

  it('tells an admin without two-factor to set it up, from the same one query', async () => {
    await t.db.update(settings).set({ value: 'true' }).where(eq(settings.key, 'require_2fa_for_admins'));
    t.deps.settingsCache.invalidate();
    try {
      const { response, statements } = await measure('/api/account/me', { cookie: await t.cookieFor('admin') });
      expect(response.json).toMatchObject({ loggedIn: true, user: { username: 'admin' }, two_factor_setup_required: true });
      expect(statements).toHaveLength(1);
    } finally {
      await t.db.update(settings).set({ value: 'false' }).where(eq(settings.key, 'require_2fa_for_admins'));
      t.deps.settingsCache.invalidate();
    }
  });

  it('writes the sliding renewal with one more query and sends the cookie again; the last-seen time alone likewise', async () => {
    const cookie = await t.cookieFor('many');
    t.clock.advance(16 * DAY_MS);
    const renewed = await measure('/api/account/me', { cookie });
    expect(renewed.response.json.loggedIn).toBe(true);
    expect(renewed.statements).toHaveLength(2);
    expect(renewed.statements[1]).toMatch(/^update "sessions" set "expires_at" = \?, "last_seen_at" = \?/);
    const expires = new Date(t.clock.now().getTime() + 30 * DAY_MS).toUTCString();
    expect(renewed.response.headers.get('set-cookie')).toContain(`Expires=${expires}`);

    // Written: the next request finds nothing to move.
    const next = await measure('/api/account/me', { cookie });
    expect(next.statements).toHaveLength(1);
    expect(next.response.headers.get('set-cookie')).toBeNull();

    t.clock.advance(6 * 60 * 1000);
    const seen = await measure('/api/account/me', { cookie });
    expect(seen.statements).toHaveLength(2);
    expect(seen.statements[1]).toMatch(/^update "sessions" set "last_seen_at" = \?/);
    expect(seen.response.headers.get('set-cookie')).toBeNull();
  });

  it('deletes an ended session and clears the cookie, as before', async () => {
    const cookie = await t.cookieFor('loner');
    t.clock.advance(31 * DAY_MS);
    const { response, statements } = await measure('/api/account/me', { cookie });
    expect(response.json).toEqual({ loggedIn: false });
    expect(statements).toHaveLength(2);
    expect(statements[1]).toMatch(/^delete from "sessions"/);
    expect(response.headers.get('set-cookie')).toMatch(/^kerstactie_session=;/);
  });

  it('lists a page of 50 orders for an admin in 2 round trips with the identity (the page carries its count)', async () => {
    const admin = await t.cookieFor('admin');
    const tabler = (await t.request('/tablers/create', { cookie: admin, body: { name: 'Sjoerd' } })).json.tabler.id as number;
    for (let i = 0; i < 60; i++) {
      const created = await t.request('/orders/create', {
        cookie: admin,
        body: {
          tabler_id: i % 3 ? tabler : null,
          name: `Klant ${i}`,
          email: 'klant@example.nl',
          phone: '0517 123456',
          address: 'Voorstraat 1',
          postal_code: '8861 BJ',
          city: 'Harlingen',
          amount: 1 + (i % 4),
        },
      });
      expect(created.status).toBe(200);
    }
    const { response, statements } = await measure('/orders?page=1&per_page=50', { cookie: admin });
    expect(response.status).toBe(200);
    expect(statements.length, statements.join('\n')).toBe(2);
  });
});
