import { env } from 'cloudflare:test';
import { clubDb, FIRST_CLUB_ID } from '../../src/db/club-db';
import { ClubDirectory } from '../../src/platform/club-directory';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import type { AppDeps } from '../../src/context';
import { openD1Db } from '../../src/db/d1';
import { groupPermissions, groups, permissions, twoFactorSecrets, userGroups, users } from '../../src/db/schema';
import { parseConfig } from '../../src/env';
import { createSession } from '../../src/features/auth/session';
import { SettingsCache } from '../../src/platform/settings-cache';
import { prepareDatabase } from '../../src/features/setup/prepare';
import { createR2BackupStore } from '../../src/features/backups/r2-backups';
import { createR2FileStore } from '../../src/platform/files-r2';
import { createPasswordHasher } from '../../src/platform/password';
import { jsArgon2id } from '../../src/platform/password-js';
import { countD1Queries } from '../support/query-counter';

/**
 * docs/decisions/033 inside workerd, where every statement is a round trip to D1: the app built as src/worker.ts
 * builds it, on a D1 binding that counts what reaches it (test/support/query-counter.ts). The Node
 * twin, with the profiles' JSON in detail: test/api/query-counts.test.ts.
 */

const bindings = env as unknown as {
  DB: Parameters<typeof countD1Queries>[0];
  APKS: Parameters<typeof createR2FileStore>[0];
  ASSETS: { fetch(request: Request): Promise<Response> };
};
const SITE = 'https://kerst.example';
const DAY_MS = 24 * 60 * 60 * 1000;
const SECRET_KEY = 'a'.repeat(64);

let current = new Date('2026-11-22T10:00:00.000Z').getTime();
const clock = { now: () => new Date(current) };
const { binding, queries } = countD1Queries(bindings.DB);
const database = openD1Db(binding);
const db = clubDb(database, FIRST_CLUB_ID);
const passwords = createPasswordHasher(jsArgon2id);
const config = parseConfig({ SECRET_KEY, ADMIN_PASSWORD: 'worker-admin-password' });
const deps: AppDeps = {
  config,
  database,
  clubs: new ClubDirectory(database, config, 5_000),
  files: createR2FileStore(bindings.APKS),
  backups: createR2BackupStore(bindings.APKS, database),
  clock,
  passwords,
  settingsCache: new SettingsCache(5_000, clock),
  mailTransport: null,
  secretKey: SECRET_KEY,
  log: { info: () => undefined, error: (message, fields) => console.error(message, fields) },
  assets: (request) => bindings.ASSETS.fetch(request),
};
const app = createApp(deps, { clientIp: (c) => c.req.header('cf-connecting-ip') ?? 'unknown' });
const ids: Record<string, number> = {};

beforeAll(async () => {
  await prepareDatabase({ db: database, clock, passwords, log: deps.log, secretKey: SECRET_KEY }, { username: 'admin', password: 'worker-admin-password' });
  const now = clock.now().toISOString();
  const insertUser = async (username: string) =>
    (await db.insert(users).values({ username, passwordHash: 'unused', createdAt: now, updatedAt: now }).returning())[0]!.id;
  const groupId = async (name: string) => (await db.select().from(groups).where(eq(groups.name, name)))[0]!.id;
  const permissionId = async (key: string) => (await db.select().from(permissions).where(eq(permissions.key, key)))[0]!.id;
  ids.member = await insertUser('member');
  await db.insert(userGroups).values({ userId: ids.member, groupId: await groupId('Users') });
  // Groups whose names sort against their ids, whose keys come group by group out of key order
  // (users.delete, premium.aiusage, users.delete): as on Node, listed by id and by key, each key once.
  const [zeta] = await db.insert(groups).values({ name: 'Zeta' }).returning();
  const [alpha] = await db.insert(groups).values({ name: 'Alpha' }).returning();
  await db.insert(groupPermissions).values([
    { groupId: zeta!.id, permissionId: await permissionId('users.delete') },
    { groupId: alpha!.id, permissionId: await permissionId('premium.aiusage') },
    { groupId: alpha!.id, permissionId: await permissionId('users.delete') },
  ]);
  ids.many = await insertUser('many');
  await db.insert(userGroups).values([alpha!.id, zeta!.id, await groupId('Penningmeesters')].map((id) => ({ userId: ids.many!, groupId: id })));
  await db.insert(twoFactorSecrets).values({ userId: ids.member, secretEncrypted: 'sealed', enabledAt: now, createdAt: now });
  ids.loner = await insertUser('loner');
  ids.admin = (await db.select().from(users).where(eq(users.username, 'admin')))[0]!.id;
});

async function cookieFor(userId: number): Promise<string> {
  const { token } = await createSession(db, clock, userId);
  return `__Host-kerstactie_session=${token}`;
}

/** One request with the settings cache and the club directory warm, and the SQL of every round trip it made. */
async function measure(path: string, headers: Record<string, string> = {}) {
  await deps.settingsCache.all(db);
  await deps.clubs.list();
  queries.reset();
  const response = await app.request(`${SITE}${path}`, { headers });
  return { response, statements: [...queries.statements] };
}

describe('database round trips per request inside workerd (D1)', () => {
  it('answers a signed-in /api/account/me with one query', async () => {
    const expected = {
      admin: { groups: [{ id: 1, name: 'Administrators' }], permissions: [{ key: 'admin.access' }, { key: 'platform.access' }], two_factor_enabled: false },
      member: { groups: [{ id: 2, name: 'Users' }], permissions: [], two_factor_enabled: true },
      many: {
        groups: [
          { id: 3, name: 'Penningmeesters' },
          { id: 4, name: 'Zeta' },
          { id: 5, name: 'Alpha' },
        ],
        permissions: [{ key: 'management.access' }, { key: 'premium.aiusage' }, { key: 'users.delete' }],
        two_factor_enabled: false,
      },
      loner: { groups: [], permissions: [], two_factor_enabled: false },
    };
    for (const [username, shape] of Object.entries(expected)) {
      const { response, statements } = await measure('/api/account/me', { cookie: await cookieFor(ids[username]!) });
      expect(await response.json(), username).toMatchObject({
        loggedIn: true,
        user: { id: ids[username], username, ...shape },
        two_factor_setup_required: false,
      });
      expect(statements, username).toHaveLength(1);
      expect(response.headers.get('set-cookie'), username).toBeNull();
    }
  });

  it('answers an anonymous /api/account/me, the warm settings and a static page without a query', async () => {
    const anonymous = await measure('/api/account/me');
    expect(await anonymous.response.json()).toEqual({ loggedIn: false });
    expect(anonymous.statements).toEqual([]);
    const settingsList = await measure('/api/settings');
    expect(settingsList.response.status).toBe(200);
    expect(settingsList.statements).toEqual([]);
    const page = await measure('/faq', { accept: 'text/html' });
    expect(await page.response.text()).toContain('data-prerendered="/faq"');
    expect(page.statements).toEqual([]);
  });

  it('writes a due sliding renewal with one more query and sends the cookie again', async () => {
    const cookie = await cookieFor(ids.loner!);
    current += 16 * DAY_MS;
    const renewed = await measure('/api/account/me', { cookie });
    expect(((await renewed.response.json()) as { loggedIn: boolean }).loggedIn).toBe(true);
    expect(renewed.statements).toHaveLength(2);
    expect(renewed.statements[1]).toMatch(/^update "sessions" set "expires_at" = \?, "last_seen_at" = \?/);
    expect(renewed.response.headers.get('set-cookie')).toContain(`Expires=${new Date(current + 30 * DAY_MS).toUTCString()}`);
    const next = await measure('/api/account/me', { cookie });
    expect(next.statements).toHaveLength(1);
    expect(next.response.headers.get('set-cookie')).toBeNull();
  });

  it('lists a page of orders for an admin in 2 round trips with the identity (the page carries its count)', async () => {
    const cookie = await cookieFor(ids.admin!);
    // The lane's files share one D1 (docs/decisions/063): count from what is there already.
    const before = ((await (await app.request(`${SITE}/orders?page=1&per_page=1`, { headers: { cookie } })).json()) as { total: number }).total;
    for (const name of ['Sietske Bakker', 'Jan de Boer', 'Aukje Visser']) {
      const created = await app.request(`${SITE}/orders/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({
          name,
          email: 'klant@example.nl',
          phone: '0612345678',
          address: 'Noorderhaven 1',
          postal_code: '8861 AA',
          city: 'Harlingen',
          amount: 2,
        }),
      });
      expect(created.status).toBe(200);
    }
    const { response, statements } = await measure('/orders?page=1&per_page=50', { cookie });
    expect(((await response.json()) as { total: number }).total).toBe(before + 3);
    expect(statements.length, statements.join('\n')).toBe(2);
  });
});
