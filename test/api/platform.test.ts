import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ClubDb, PlatformDb as Db } from '../../src/db/client';
import { clubDb, FIRST_CLUB_ID } from '../../src/db/club-db';
import { migrateLibsqlDb, openLibsqlDb } from '../../src/db/libsql';
import { groupPermissions, groups, orders, permissions, sessions, settings, tablers, twoFactorSecrets, userGroups, users, versions } from '../../src/db/schema';
import { createSession, SESSION_COOKIE } from '../../src/features/auth/session';
import { ensureFirstAdmin, hasAnyAdmin } from '../../src/features/setup/first-admin';
import { isDatabasePrepared, prepareDatabase } from '../../src/features/setup/prepare';
import { seedDatabase } from '../../src/features/setup/seed';
import { AppError } from '../../src/core/errors';
import { sha256Hex } from '../../src/platform/crypto';
import { createPasswordHasher } from '../../src/platform/password';
import { nodeArgon2id } from '../../src/platform/password-node';
import { enforceRateLimit, hitRateLimit, isRateLimited, resetRateLimit } from '../../src/platform/rate-limit';
import { createTestApp, TestClock, type TestApp } from '../support/test-app';

/** docs/architecture.md §2-3 plumbing: security headers, the cross-site guard, /me and sessions, seeds, constraints, rate limits. */

const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;
const EVIL = 'http://evil.example';

let t: TestApp;
let adminCookie: string;
let adminsGroupId: number;
let usersGroupId: number;

beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.cookieFor('admin');
  adminsGroupId = (await t.db.select().from(groups).where(eq(groups.name, 'Administrators')))[0]!.id;
  usersGroupId = (await t.db.select().from(groups).where(eq(groups.name, 'Users')))[0]!.id;
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  expect(t.errors).toEqual([]);
});

/** The full text of an error and its causes (Drizzle wraps the driver's error). */
async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const parts: string[] = [];
    type Cause = { message?: unknown; cause?: unknown } | null | undefined;
    for (let e = error as Cause; e; e = e.cause as Cause) parts.push(String(e.message ?? e));
    return parts.join(' | ');
  }
  throw new Error('Expected the statement to fail, but it succeeded');
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

async function dumpTables(db: Db): Promise<Record<string, unknown[]>> {
  const tables = await db.all<{ name: string }>(
    // Not the trigram index and its shadow tables: derived from orders.search_text (test/api/orders-scale checks it).
    sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'orders_fts%' ORDER BY name`,
  );
  const dump: Record<string, unknown[]> = {};
  for (const { name } of tables) dump[name] = await db.all(sql.raw(`SELECT * FROM "${name}" ORDER BY rowid`));
  return dump;
}

async function freshDb() {
  const dir = mkdtempSync(join(tmpdir(), 'kerstactie-platform-'));
  const { db, client } = openLibsqlDb(`file:${join(dir, 'fresh.db')}`);
  await migrateLibsqlDb(db, join(process.cwd(), 'drizzle'));
  return {
    db: clubDb(db, FIRST_CLUB_ID),
    raw: db,
    close: () => {
      client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function tokenOf(cookie: string): string {
  return cookie.slice(`${SESSION_COOKIE}=`.length);
}

describe('security headers', () => {
  const requests: [string, () => ReturnType<TestApp['request']>][] = [
    ['a settings read', () => t.request('/api/settings')],
    ['an unknown API path', () => t.request('/api/nope')],
    ['a refused anonymous write', () => t.request('/api/settings/add', { body: {} })],
    ['a cross-site refusal', () => t.request('/api/settings/add', { body: {}, headers: { origin: EVIL } })],
    ['a tRPC query', () => t.request('/trpc/settings.list')],
    ['a tRPC error', () => t.request('/trpc/settings.add', { body: {} })],
    ['an unknown non-API path', () => t.request('/somewhere/else')],
  ];

  it.each(requests)('are on %s', async (_what, send) => {
    const r = await send();
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/https?:\/\//);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(r.headers.get('x-request-id')).toMatch(/^[\w.-]{1,64}$/);
    expect(r.headers.get('strict-transport-security')).toBeNull();
  });

  it('give every response its own request id, and echo a sane incoming one without unsafe characters', async () => {
    const a = await t.request('/api/settings');
    const b = await t.request('/api/settings');
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    const echoed = await t.request('/api/settings', { headers: { 'x-request-id': 'trace-42' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42');
    const cleaned = await t.request('/api/settings', { headers: { 'x-request-id': 'ab<script>"c' } });
    expect(cleaned.headers.get('x-request-id')).toBe('abscriptc');
  });

  it('include HSTS when the request itself arrives over https', async () => {
    const r = await t.app.request('https://127.0.0.1/api/settings');
    expect(r.status).toBe(200);
    expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('include HSTS when the site is served over https (PUBLIC_URL https)', async () => {
    const secure = await createTestApp({ env: { PUBLIC_URL: 'https://kerst.example' } });
    try {
      for (const path of ['/api/settings', '/api/nope']) {
        const r = await secure.request(path);
        expect(r.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
        expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      }
      expect(secure.errors).toEqual([]);
    } finally {
      await secure.close();
    }
  });
});

describe('cross-site refusal', () => {
  const REFUSED = { success: false, error: 'Cross-site request refused', code: 'CROSS_SITE_REFUSED' };

  it('refuses a POST whose Origin is another site with 403, even with an admin session', async () => {
    const r = await t.request('/api/settings/update', {
      cookie: adminCookie,
      body: { key: 'maintenance_mode', value: true },
      headers: { origin: EVIL },
    });
    expect(r.status).toBe(403);
    expect(r.json).toEqual(REFUSED);
    expect((await t.db.select().from(settings).where(eq(settings.key, 'maintenance_mode')))[0]?.value).toBe('false');
  });

  it('refuses a POST whose Sec-Fetch-Site is cross-site with 403', async () => {
    const r = await t.request('/api/settings/update', {
      cookie: adminCookie,
      body: { key: 'maintenance_mode', value: true },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(r.status).toBe(403);
    expect(r.json).toEqual(REFUSED);
  });

  it('refuses a POST from an opaque origin (Origin: null)', async () => {
    const r = await t.request('/api/settings/add', { cookie: adminCookie, body: { key: 'x', value: 'y', type: 'string' }, headers: { origin: 'null' } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual(REFUSED);
  });

  it('refuses a cross-site tRPC mutation', async () => {
    const r = await t.request('/trpc/settings.update', { cookie: adminCookie, body: { key: 'maintenance_mode', value: true }, headers: { origin: EVIL } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual(REFUSED);
  });

  it('passes a same-origin POST on to normal handling', async () => {
    const anonymous = await t.request('/api/settings/update', { body: { key: 'club_town', value: 'x' }, headers: { origin: 'http://127.0.0.1' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ success: false, error: 'Not logged in', code: 'NOT_LOGGED_IN' });

    const admin = await t.request('/api/settings/update', {
      cookie: adminCookie,
      body: { key: 'club_town', value: 'Harlingen' },
      headers: { origin: 'http://127.0.0.1', 'sec-fetch-site': 'same-origin' },
    });
    expect(admin.status).toBe(200);
    expect(admin.json).toEqual({ success: true });

    const typedInAddressBar = await t.request('/api/settings/update', {
      cookie: adminCookie,
      body: { key: 'club_town', value: 'Harlingen' },
      headers: { 'sec-fetch-site': 'none' },
    });
    expect(typedInAddressBar.status).toBe(200);
  });

  it.each(['/api/users/deleteuser?id=1', '/api/groups/deletegroup?id=1', '/api/permissions/delete?id=1'])(
    'refuses the GET delete %s from another site',
    async (path) => {
      const r = await t.request(path, { cookie: adminCookie, headers: { origin: EVIL } });
      expect(r.status).toBe(403);
      expect(r.json).toEqual(REFUSED);
      const fetchSite = await t.request(path, { cookie: adminCookie, headers: { 'sec-fetch-site': 'cross-site' } });
      expect(fetchSite.status).toBe(403);
    },
  );

  it('refuses the two-factor set-up (a GET that stores a new secret) from another site, and never runs it for a HEAD', async () => {
    const cookie = await t.cookieFor('admin');
    const crossSite = await t.request('/api/twofactor/setup', { cookie, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.json).toEqual(REFUSED);
    const head = await t.request('/api/twofactor/setup', { method: 'HEAD', cookie });
    expect(head.status).toBe(405);
    expect(await t.db.select().from(twoFactorSecrets)).toEqual([]);
    const own = await t.request('/api/twofactor/setup', { cookie, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(own.status).toBe(200);
    await t.db.delete(twoFactorSecrets);
  });

  it("refuses a state change whose only browser signal is another site's Referer (old browsers), and passes its own or none", async () => {
    const evilReferer = await t.request('/api/users/deleteuser?id=999', { cookie: adminCookie, headers: { referer: `${EVIL}/page` } });
    expect(evilReferer.status).toBe(403);
    expect(evilReferer.json).toEqual(REFUSED);
    const post = await t.request('/api/settings/update', {
      cookie: adminCookie,
      body: { key: 'club_town', value: 'Harlingen' },
      headers: { referer: `${EVIL}/x` },
    });
    expect(post.status).toBe(403);
    const garbage = await t.request('/api/settings/update', {
      cookie: adminCookie,
      body: { key: 'club_town', value: 'Harlingen' },
      headers: { referer: 'not a url' },
    });
    expect(garbage.status).toBe(403);
    const own = await t.request('/api/settings/update', {
      cookie: adminCookie,
      body: { key: 'club_town', value: 'Harlingen' },
      headers: { referer: 'http://127.0.0.1/admin/settings' },
    });
    expect(own.status).toBe(200);
    const apiClient = await t.request('/api/users/deleteuser?id=999', { cookie: adminCookie });
    expect(apiClient.status).toBe(404);
  });

  it('refuses a percent-encoded spelling of a GET delete path from another site', async () => {
    const r = await t.request('/api/users/deleteuse%72?id=1', { cookie: adminCookie, headers: { origin: EVIL } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual(REFUSED);
  });

  it('allows a cross-site read of GET /api/settings', async () => {
    const r = await t.request('/api/settings', { headers: { origin: EVIL, 'sec-fetch-site': 'cross-site' } });
    expect(r.status).toBe(200);
    expect(Array.isArray(r.json.settings)).toBe(true);
  });

  it('accepts the configured PUBLIC_URL as the own origin behind a proxy', async () => {
    const proxied = await createTestApp({ env: { PUBLIC_URL: 'https://kerst.example/' } });
    try {
      const own = await proxied.request('/api/settings/add', { body: {}, headers: { origin: 'https://kerst.example' } });
      expect(own.status).toBe(401);
      const other = await proxied.request('/api/settings/add', { body: {}, headers: { origin: 'https://kerst.example.evil.com' } });
      expect(other.status).toBe(403);
    } finally {
      await proxied.close();
    }
  });
});

describe('API_BASE_PATH', () => {
  it('mounts the REST surface under the base path and guards its GET deletes there', async () => {
    const based = await createTestApp({ env: { API_BASE_PATH: '/backend' } });
    try {
      const settingsRead = await based.request('/backend/api/settings');
      expect(settingsRead.status).toBe(200);
      expect(Array.isArray(settingsRead.json.settings)).toBe(true);
      const me = await based.request('/backend/api/account/me');
      expect(me.json).toEqual({ loggedIn: false });
      const unmounted = await based.request('/api/settings');
      expect(unmounted.status).toBe(404);
      const crossSiteDelete = await based.request('/backend/api/users/deleteuser?id=1', { headers: { origin: EVIL } });
      expect(crossSiteDelete.status).toBe(403);
      expect(crossSiteDelete.json).toMatchObject({ success: false, error: 'Cross-site request refused', code: 'CROSS_SITE_REFUSED' });
      const trpcStaysPut = await based.request('/trpc/settings.list');
      expect(trpcStaysPut.status).toBe(200);
      expect(based.errors).toEqual([]);
    } finally {
      await based.close();
    }
  });
});

describe('GET /api/account/me', () => {
  it('answers {loggedIn:false} to an anonymous visitor', async () => {
    const r = await t.request('/api/account/me');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ loggedIn: false });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('answers {loggedIn:false} for a garbage or unknown session cookie', async () => {
    for (const cookie of [`${SESSION_COOKIE}=nonsense`, `${SESSION_COOKIE}=${'A'.repeat(43)}`, `${SESSION_COOKIE}=`]) {
      const r = await t.request('/api/account/me', { cookie });
      expect(r.json).toEqual({ loggedIn: false });
    }
  });

  it('describes the signed-in admin exactly', async () => {
    const [admin] = await t.db.select().from(users).where(eq(users.username, 'admin'));
    const expected = {
      loggedIn: true,
      two_factor_setup_required: false,
      user: {
        id: admin!.id,
        username: 'admin',
        email: null,
        status: 'active',
        deletable: false,
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-22T10:00:00.000Z',
        two_factor_enabled: false,
        locale: 'en',
        groups: [{ id: adminsGroupId, name: 'Administrators' }],
        permissions: [{ key: 'admin.access' }, { key: 'platform.access' }],
      },
    };
    const r = await t.request('/api/account/me', { cookie: adminCookie });
    expect(r.status).toBe(200);
    expect(r.json).toEqual(expected);

    const viaTrpc = await t.request('/trpc/account.me', { cookie: adminCookie });
    expect(viaTrpc.status).toBe(200);
    expect(viaTrpc.json.result.data).toEqual(expected);
  });

  it('describes a plain user with the Users group and no permissions', async () => {
    const user = await t.createUser('gewoon', ['Users']);
    const r = await t.request('/api/account/me', { cookie: await t.cookieFor('gewoon') });
    expect(r.json).toEqual({
      loggedIn: true,
      two_factor_setup_required: false,
      user: {
        id: user.id,
        username: 'gewoon',
        email: null,
        status: 'active',
        deletable: true,
        created_at: user.createdAt,
        updated_at: user.updatedAt,
        two_factor_enabled: false,
        locale: 'en',
        groups: [{ id: usersGroupId, name: 'Users' }],
        permissions: [],
      },
    });
  });

  it('answers the anonymous shape over tRPC too', async () => {
    const r = await t.request('/trpc/account.me');
    expect(r.json.result.data).toEqual({ loggedIn: false });
  });
});

describe('sessions', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp();
  });
  afterAll(async () => {
    expect(s.errors).toEqual([]);
    await s.close();
  });

  const sessionRow = async (cookie: string) =>
    (
      await s.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, await sha256Hex(tokenOf(cookie))))
    )[0];

  it('stores only the SHA-256 of the token, never the token itself', async () => {
    const cookie = await s.cookieFor('admin');
    const token = tokenOf(cookie);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessionRow(cookie)).toBeDefined();
    expect(await s.db.select().from(sessions).where(eq(sessions.id, token))).toEqual([]);
  });

  it('ends a session after 30 days without use and deletes its row', async () => {
    const cookie = await s.cookieFor('admin');
    expect((await s.request('/api/account/me', { cookie })).json.loggedIn).toBe(true);
    s.clock.advance(31 * DAY);
    const r = await s.request('/api/account/me', { cookie });
    expect(r.json).toEqual({ loggedIn: false });
    expect(await sessionRow(cookie)).toBeUndefined();
  });

  it('does not re-send the cookie while more than half of the 30 days is left', async () => {
    const cookie = await s.cookieFor('admin');
    const before = (await sessionRow(cookie))!.expiresAt;
    s.clock.advance(5 * DAY);
    const r = await s.request('/api/account/me', { cookie });
    expect(r.json.loggedIn).toBe(true);
    expect(r.headers.get('set-cookie')).toBeNull();
    expect((await sessionRow(cookie))!.expiresAt).toBe(before);
  });

  it('slides the expiry when used in its second half: the same token comes back with a new Expires', async () => {
    const cookie = await s.cookieFor('admin');
    const before = (await sessionRow(cookie))!.expiresAt;
    s.clock.advance(20 * DAY);
    const r = await s.request('/api/account/me', { cookie });
    expect(r.json.loggedIn).toBe(true);
    const expected = s.clock.now().getTime() + 30 * DAY;
    expect((await sessionRow(cookie))!.expiresAt).toBe(expected);
    expect(expected).toBeGreaterThan(before);
    const setCookie = r.headers.get('set-cookie') ?? '';
    expect(setCookie).toContain(`${cookie};`);
    expect(setCookie).toContain(`Expires=${new Date(expected).toUTCString()}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');

    // Still valid 29 days after the renewal, i.e. 49 days after it was made.
    s.clock.advance(29 * DAY);
    expect((await s.request('/api/account/me', { cookie })).json.loggedIn).toBe(true);
  });

  it('slides the expiry over tRPC too: /trpc/account.me re-sends the cookie when it renews the session', async () => {
    const cookie = await s.cookieFor('admin');
    s.clock.advance(20 * DAY);
    const r = await s.request('/trpc/account.me', { cookie });
    expect(r.json.result.data.loggedIn).toBe(true);
    const expected = s.clock.now().getTime() + 30 * DAY;
    // The database row moved; unless the browser gets the new Expires too, the cookie dies at the old date.
    expect((await sessionRow(cookie))!.expiresAt).toBe(expected);
    const setCookie = r.headers.get('set-cookie') ?? '';
    expect(setCookie).toContain(`${cookie};`);
    expect(setCookie).toContain(`Expires=${new Date(expected).toUTCString()}`);
  });

  it('re-sends the renewed cookie on an error answer too', async () => {
    const cookie = await s.cookieFor('admin');
    s.clock.advance(20 * DAY);
    const r = await s.request('/api/settings/update', { cookie, body: { key: 'no.such.setting', value: 'x' } });
    expect(r.status).toBe(404);
    expect(r.headers.get('set-cookie')).toContain(`${cookie};`);
  });

  it('marks a renewed cookie Secure when the site is served over https', async () => {
    const secure = await createTestApp({ env: { PUBLIC_URL: 'https://kerst.example' } });
    try {
      const cookie = await secure.cookieFor('admin');
      secure.clock.advance(20 * DAY);
      const r = await secure.request('/api/account/me', { cookie });
      expect(r.headers.get('set-cookie')).toContain('Secure');
    } finally {
      await secure.close();
    }
  });

  it('ends a session session_max_age_days (90 by default) after sign-in, however often it is used', async () => {
    const cookie = await s.cookieFor('admin');
    const created = s.clock.now().getTime();
    for (let day = 20; day < 90; day += 20) {
      s.clock.advance(20 * DAY);
      expect((await s.request('/api/account/me', { cookie })).json.loggedIn, `day ${day}`).toBe(true);
    }
    // The sliding renewal never reaches past the absolute end.
    expect((await sessionRow(cookie))!.expiresAt).toBe(created + 90 * DAY);
    s.clock.advance(created + 90 * DAY - s.clock.now().getTime());
    expect((await s.request('/api/account/me', { cookie })).json).toEqual({ loggedIn: false });
    expect(await sessionRow(cookie)).toBeUndefined();
  });

  it('follows a shorter session_max_age_days at once, also for sessions made before the change', async () => {
    const cookie = await s.cookieFor('admin');
    s.clock.advance(8 * DAY);
    expect((await s.request('/api/account/me', { cookie })).json.loggedIn).toBe(true);
    await s.db.update(settings).set({ value: '7' }).where(eq(settings.key, 'session_max_age_days'));
    s.deps.settingsCache.invalidate();
    try {
      expect((await s.request('/api/account/me', { cookie })).json).toEqual({ loggedIn: false });
    } finally {
      await s.db.update(settings).set({ value: '90' }).where(eq(settings.key, 'session_max_age_days'));
      s.deps.settingsCache.invalidate();
    }
  });

  it('writes last_seen_at when it moved by 5 minutes or more, not on every request', async () => {
    const cookie = await s.cookieFor('admin');
    const start = s.clock.now().getTime();
    expect((await sessionRow(cookie))!.lastSeenAt).toBe(start);
    s.clock.advance(4 * MINUTE);
    await s.request('/api/account/me', { cookie });
    expect((await sessionRow(cookie))!.lastSeenAt).toBe(start);
    s.clock.advance(MINUTE);
    await s.request('/api/account/me', { cookie });
    expect((await sessionRow(cookie))!.lastSeenAt).toBe(start + 5 * MINUTE);
  });

  it('does not sign in an inactive user, and drops the session', async () => {
    await s.createUser('slaper', ['Users'], { status: 'inactive' });
    const cookie = await s.cookieFor('slaper');
    const r = await s.request('/api/account/me', { cookie });
    expect(r.json).toEqual({ loggedIn: false });
    expect(await sessionRow(cookie)).toBeUndefined();
  });

  it('ends the session of a user who is set inactive after signing in', async () => {
    const user = await s.createUser('wasactief', ['Users']);
    const cookie = await s.cookieFor('wasactief');
    expect((await s.request('/api/account/me', { cookie })).json.loggedIn).toBe(true);
    await s.db.update(users).set({ status: 'inactive' }).where(eq(users.id, user.id));
    expect((await s.request('/api/account/me', { cookie })).json).toEqual({ loggedIn: false });
  });

  it('does not sign in a session that still waits for its two-factor code', async () => {
    const [admin] = await s.db.select().from(users).where(eq(users.username, 'admin'));
    const { token } = await createSession(s.db, s.clock, admin!.id, { twoFactorPending: true });
    const cookie = `${SESSION_COOKIE}=${token}`;
    expect((await s.request('/api/account/me', { cookie })).json).toEqual({ loggedIn: false });
    expect((await s.request('/trpc/account.me', { cookie })).json.result.data).toEqual({ loggedIn: false });
    const write = await s.request('/api/settings/update', { cookie, body: { key: 'club_town', value: 'x' } });
    expect(write.status).toBe(401);
    const list = await s.request('/api/settings', { cookie });
    expect(list.json.settings.every((x: { visibility: string }) => x.visibility === 'public')).toBe(true);
    // Pending is not expired: the row stays for /api/twofactor/completelogin.
    expect(await sessionRow(cookie)).toBeDefined();
  });
});

describe('seed data and the first admin', () => {
  it('seeds the five permissions of docs/product.md §6 and management.access, and in the first club platform.access, none deletable', async () => {
    const rows = await t.db.select().from(permissions);
    expect(rows.map((p) => p.key).sort()).toEqual([
      'admin.access',
      'management.access',
      'platform.access',
      'premium.aiusage',
      'settings.delete',
      'users.assign',
      'users.delete',
    ]);
    expect(rows.every((p) => p.deletable === false)).toBe(true);
  });

  it('seeds the non-deletable groups Administrators (holding admin.access), Users and Penningmeesters (holding management.access)', async () => {
    const rows = await t.db.select().from(groups);
    expect(rows.map((g) => [g.name, g.deletable]).sort()).toEqual([
      ['Administrators', false],
      ['Penningmeesters', false],
      ['Users', false],
    ]);
    const grants = await t.db
      .select({ group: groups.name, key: permissions.key })
      .from(groupPermissions)
      .innerJoin(groups, eq(groups.id, groupPermissions.groupId))
      .innerJoin(permissions, eq(permissions.id, groupPermissions.permissionId));
    expect(grants.sort((a, b) => a.group.localeCompare(b.group) || a.key.localeCompare(b.key))).toEqual([
      { group: 'Administrators', key: 'admin.access' },
      // The first club's only (docs/decisions/071).
      { group: 'Administrators', key: 'platform.access' },
      { group: 'Penningmeesters', key: 'management.access' },
    ]);
  });

  it('seeds the built-in settings of docs/architecture.md §3 with their defaults, none deletable', async () => {
    const rows = new Map((await t.db.select().from(settings)).map((r) => [r.key, r]));
    expect(rows.get('allow_registration')).toMatchObject({ value: 'false', type: 'boolean', deletable: false });
    expect(rows.get('password_min_length')).toMatchObject({ value: '6', type: 'integer', deletable: false });
    expect(rows.get('registration_requires_activation')).toMatchObject({ value: 'false', type: 'boolean' });
    expect(rows.get('maintenance_mode')).toMatchObject({ value: 'false', type: 'boolean' });
    expect(rows.get('default_user_group_id')).toMatchObject({ value: String(usersGroupId), type: 'integer', visibility: 'admin' });
    expect(rows.get('package_price')).toMatchObject({ value: '75', type: 'integer' });
    for (const key of [
      'club_name',
      'club_address',
      'club_email',
      'club_iban',
      'club_kvk_number',
      'club_vat_id',
      'vat_split',
      'geocoder_provider',
      'geocoder_url',
    ]) {
      expect(rows.get(key), key).toBeDefined();
    }
    expect([...rows.values()].every((r) => r.deletable === false)).toBe(true);
  });

  it('changes nothing when the seed runs a second time', async () => {
    const before = await dumpTables(t.database);
    t.clock.advance(60_000);
    await seedDatabase(t.db, t.clock);
    expect(await dumpTables(t.database)).toEqual(before);
  });

  it("keeps an admin's edits to a built-in setting when the seed runs again", async () => {
    const r = await t.request('/api/settings/update', { cookie: adminCookie, body: { key: 'package_price', value: 80 } });
    expect(r.json).toEqual({ success: true });
    await seedDatabase(t.db, t.clock);
    expect((await t.db.select().from(settings).where(eq(settings.key, 'package_price')))[0]?.value).toBe('80');
    await t.request('/api/settings/update', { cookie: adminCookie, body: { key: 'package_price', value: 75 } });
  });

  it('does not create a second admin when one exists', async () => {
    const before = await t.db.select().from(users);
    const result = await ensureFirstAdmin({ db: t.db, clock: t.clock, passwords: t.deps.passwords }, { username: 'tweede' });
    expect(result).toEqual({ created: false });
    expect(await t.db.select().from(users)).toEqual(before);
  });

  it('creates a first admin with a generated 20-character password that verifies against the stored hash', async () => {
    const fresh = await freshDb();
    try {
      const clock = new TestClock();
      const passwords = createPasswordHasher(nodeArgon2id);
      await seedDatabase(fresh.db, clock);
      expect(await hasAnyAdmin(fresh.db)).toBe(false);
      const result = await ensureFirstAdmin({ db: fresh.db, clock, passwords }, { username: 'beheer' });
      expect(result.created).toBe(true);
      expect(result.username).toBe('beheer');
      expect(result.generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
      const [row] = await fresh.db.select().from(users).where(eq(users.username, 'beheer'));
      expect(row).toMatchObject({ status: 'active', deletable: false, email: null });
      expect(row!.passwordHash).not.toContain(result.generatedPassword!);
      expect(await passwords.verify(row!.passwordHash, result.generatedPassword!)).toBe(true);
      expect(await passwords.verify(row!.passwordHash, 'wrong')).toBe(false);
      const memberships = await fresh.db
        .select({ name: groups.name })
        .from(userGroups)
        .innerJoin(groups, eq(groups.id, userGroups.groupId))
        .where(eq(userGroups.userId, row!.id));
      expect(memberships).toEqual([{ name: 'Administrators' }]);
      expect(await hasAnyAdmin(fresh.db)).toBe(true);
      expect(await ensureFirstAdmin({ db: fresh.db, clock, passwords }, { username: 'beheer' })).toEqual({ created: false });
    } finally {
      fresh.close();
    }
  });

  it('creates a first admin with the configured password and returns no generated one', async () => {
    const fresh = await freshDb();
    try {
      const clock = new TestClock();
      const passwords = createPasswordHasher(nodeArgon2id);
      await seedDatabase(fresh.db, clock);
      const result = await ensureFirstAdmin({ db: fresh.db, clock, passwords }, { username: 'beheer', password: 'een-lang-wachtwoord' });
      expect(result).toEqual({ created: true, username: 'beheer' });
      const [row] = await fresh.db.select().from(users).where(eq(users.username, 'beheer'));
      expect(await passwords.verify(row!.passwordHash, 'een-lang-wachtwoord')).toBe(true);
    } finally {
      fresh.close();
    }
  });

  it('refuses, naming ADMIN_USERNAME, when that name belongs to an existing user without admin.access', async () => {
    const fresh = await freshDb();
    try {
      const clock = new TestClock();
      const passwords = createPasswordHasher(nodeArgon2id);
      await seedDatabase(fresh.db, clock);
      const now = clock.now().toISOString();
      await fresh.db.insert(users).values({ username: 'Beheer', passwordHash: 'x', createdAt: now, updatedAt: now });
      const error = await caught(ensureFirstAdmin({ db: fresh.db, clock, passwords }, { username: 'beheer' }));
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain('ADMIN_USERNAME');
      expect((error as Error).message).toContain("'beheer'");
      expect(await hasAnyAdmin(fresh.db)).toBe(false);
      expect(await fresh.db.select().from(userGroups)).toEqual([]);
    } finally {
      fresh.close();
    }
  });
});

describe('a start on a prepared database (isDatabasePrepared)', () => {
  // Every new Worker isolate runs prepareDatabase before its first request; on a prepared database that is
  // one read. Each thing the preparation would fix must make the read say "not prepared".
  const silent = { info: () => undefined, error: () => undefined };
  async function prepared() {
    const fresh = await freshDb();
    const clock = new TestClock();
    const deps = { db: fresh.raw, clock, passwords: createPasswordHasher(nodeArgon2id), log: silent, secretKey: 'c'.repeat(64) };
    expect(await isDatabasePrepared(fresh.raw)).toBe(false);
    await prepareDatabase(deps, { username: 'beheer', password: 'een-lang-wachtwoord' });
    expect(await isDatabasePrepared(fresh.raw)).toBe(true);
    return { ...fresh, deps, restart: () => prepareDatabase(deps, { username: 'beheer', password: 'een-lang-wachtwoord' }) };
  }

  it('is prepared after a start, and a second start writes nothing', async () => {
    const fresh = await prepared();
    try {
      const before = {
        settings: await fresh.db.select().from(settings),
        users: await fresh.db.select().from(users),
        grants: await fresh.db.select().from(groupPermissions),
      };
      await fresh.restart();
      expect({
        settings: await fresh.db.select().from(settings),
        users: await fresh.db.select().from(users),
        grants: await fresh.db.select().from(groupPermissions),
      }).toEqual(before);
    } finally {
      fresh.close();
    }
  });

  const breakages: [string, (db: ClubDb) => Promise<unknown>][] = [
    ['a built-in setting is missing', (db) => db.delete(settings).where(eq(settings.key, 'club_name'))],
    ['a seeded permission is missing', (db) => db.delete(permissions).where(eq(permissions.key, 'users.delete'))],
    ['a seeded group is missing', (db) => db.delete(groups).where(eq(groups.name, 'Penningmeesters'))],
    [
      'a seeded grant is missing',
      (db) => db.delete(groupPermissions).where(eq(groupPermissions.permissionId, sql`(SELECT id FROM permissions WHERE key = 'management.access')`)),
    ],
    ['the default group is the placeholder', (db) => db.update(settings).set({ value: '0' }).where(eq(settings.key, 'default_user_group_id'))],
    [
      'a password setting is stored in clear',
      (db) =>
        db.insert(settings).values({
          key: 'legacy.secret',
          value: 'oud-geheim',
          type: 'password',
          description: 'x',
          visibility: 'admin',
          deletable: true,
          groupName: 'general',
          updatedAt: new Date().toISOString(),
        }),
    ],
    ['no admin account is left', (db) => db.batch([db.delete(userGroups), db.delete(users)])],
  ];
  for (const [what, breakIt] of breakages) {
    it(`is not prepared when ${what}, and the next start repairs it`, async () => {
      const fresh = await prepared();
      try {
        await breakIt(fresh.db);
        expect(await isDatabasePrepared(fresh.raw)).toBe(false);
        await fresh.restart();
        expect(await isDatabasePrepared(fresh.raw)).toBe(true);
      } finally {
        fresh.close();
      }
    });
  }
});

describe('database constraints', () => {
  const now = () => t.clock.now().toISOString();
  const user = (username: string, email: string | null = null) => ({ username, email, passwordHash: 'x', createdAt: now(), updatedAt: now() });

  it('keeps usernames unique regardless of case', async () => {
    expect(await failureOf(t.db.insert(users).values(user('Admin')))).toMatch(/UNIQUE constraint failed/);
    expect(await failureOf(t.db.insert(users).values(user('ADMIN')))).toMatch(/UNIQUE constraint failed/);
  });

  it('keeps e-mail addresses unique regardless of case, but allows many users without one', async () => {
    await t.db.insert(users).values(user('mail1', 'Piet@Example.nl'));
    expect(await failureOf(t.db.insert(users).values(user('mail2', 'piet@example.NL')))).toMatch(/UNIQUE constraint failed/);
    await t.db.insert(users).values(user('nomail1'));
    await t.db.insert(users).values(user('nomail2'));
    const withoutEmail = await t.db.select().from(users).where(sql`${users.username} IN ('nomail1', 'nomail2') AND ${users.email} IS NULL`);
    expect(withoutEmail).toHaveLength(2);
  });

  it('refuses a user status other than active or inactive', async () => {
    expect(
      await failureOf(
        t.database.run(sql`INSERT INTO users (username, password_hash, status, created_at, updated_at) VALUES ('weird', 'x', 'banned', 'n', 'n')`),
      ),
    ).toMatch(/CHECK constraint failed/);
  });

  it('keeps version codes unique', async () => {
    const version = (name: string) => ({ versionName: name, versionCode: 5, fileKey: `app_v5_${name}.apk`, size: 10, createdAt: now() });
    await t.db.insert(versions).values(version('1.0'));
    expect(await failureOf(t.db.insert(versions).values(version('1.0b')))).toMatch(/UNIQUE constraint failed/);
  });

  it('keeps order references unique', async () => {
    const order = (name: string) => ({ reference: 'KP-2026-0001', name, email: `${name}@example.nl`, createdAt: now(), updatedAt: now() });
    await t.db.insert(orders).values(order('een'));
    expect(await failureOf(t.db.insert(orders).values(order('twee')))).toMatch(/UNIQUE constraint failed/);
  });

  it("deletes a user's sessions and group memberships with the user", async () => {
    const u = await t.createUser('weggaan', ['Users', 'Administrators']);
    await t.cookieFor('weggaan');
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, u.id))).toHaveLength(1);
    expect(await t.db.select().from(userGroups).where(eq(userGroups.userId, u.id))).toHaveLength(2);
    await t.db.delete(users).where(eq(users.id, u.id));
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, u.id))).toEqual([]);
    expect(await t.db.select().from(userGroups).where(eq(userGroups.userId, u.id))).toEqual([]);
  });

  it("keeps a deleted tabler's orders, with tabler_id set to null", async () => {
    const [tabler] = await t.db.insert(tablers).values({ name: 'Jan de Vries', createdAt: now(), updatedAt: now() }).returning();
    const [order] = await t.db
      .insert(orders)
      .values({ reference: 'KP-2026-0099', tablerId: tabler!.id, name: 'Klant', email: 'klant@example.nl', createdAt: now(), updatedAt: now() })
      .returning();
    await t.db.delete(tablers).where(eq(tablers.id, tabler!.id));
    const [kept] = await t.db.select().from(orders).where(eq(orders.id, order!.id));
    expect(kept).toBeDefined();
    expect(kept!.tablerId).toBeNull();
  });

  it('refuses an order pointing at a tabler that does not exist', async () => {
    const values = { reference: 'KP-2026-0098', tablerId: 999_999, name: 'Klant', email: 'k@example.nl', createdAt: now(), updatedAt: now() };
    expect(await failureOf(t.db.insert(orders).values(values))).toMatch(/FOREIGN KEY constraint failed/);
  });

  it("deletes a group's permission grants with the group, and keeps the permission", async () => {
    const [group] = await t.db.insert(groups).values({ name: 'Tijdelijk' }).returning();
    const [permission] = await t.db.insert(permissions).values({ key: 'temp.access' }).returning();
    await t.db.insert(groupPermissions).values({ groupId: group!.id, permissionId: permission!.id });
    await t.db.delete(groups).where(eq(groups.id, group!.id));
    expect(await t.db.select().from(groupPermissions).where(eq(groupPermissions.permissionId, permission!.id))).toEqual([]);
    expect(await t.db.select().from(permissions).where(eq(permissions.id, permission!.id))).toHaveLength(1);
  });

  it('deletes the grants of a permission with the permission', async () => {
    const [permission] = await t.db.insert(permissions).values({ key: 'temp.other' }).returning();
    await t.db.insert(groupPermissions).values({ groupId: usersGroupId, permissionId: permission!.id });
    await t.db.delete(permissions).where(eq(permissions.id, permission!.id));
    expect(
      await t.db
        .select()
        .from(groupPermissions)
        .where(and(eq(groupPermissions.groupId, usersGroupId), eq(groupPermissions.permissionId, permission!.id))),
    ).toEqual([]);
  });
});

describe('rate limiting', () => {
  const rule = { limit: 3, windowMs: 60_000 };

  it('lets `limit` hits pass and refuses the next with AppError 429', async () => {
    for (let i = 0; i < 3; i++) await enforceRateLimit(t.db, t.clock, 'rl:a', rule);
    const error = await caught(enforceRateLimit(t.db, t.clock, 'rl:a', rule));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(429);
    expect((error as AppError).message).toBe('Too many requests. Please wait a moment and try again.');
    expect(await isRateLimited(t.db, t.clock, 'rl:a', rule)).toBe(true);
  });

  it("uses the caller's message when one is given", async () => {
    for (let i = 0; i < 3; i++) await enforceRateLimit(t.db, t.clock, 'rl:msg', rule);
    const error = await caught(enforceRateLimit(t.db, t.clock, 'rl:msg', rule, 'Te veel pogingen.'));
    expect((error as AppError).message).toBe('Te veel pogingen.');
  });

  it('starts counting again in a new window', async () => {
    for (let i = 0; i < 3; i++) await enforceRateLimit(t.db, t.clock, 'rl:b', rule);
    await expect(enforceRateLimit(t.db, t.clock, 'rl:b', rule)).rejects.toBeInstanceOf(AppError);
    t.clock.advance(59_999);
    await expect(enforceRateLimit(t.db, t.clock, 'rl:b', rule)).rejects.toBeInstanceOf(AppError);
    t.clock.advance(1);
    expect(await isRateLimited(t.db, t.clock, 'rl:b', rule)).toBe(false);
    const first = await hitRateLimit(t.db, t.clock, 'rl:b', rule);
    expect(first).toEqual({ allowed: true, count: 1, retryAfterMs: 60_000 });
  });

  it('reports how long to wait until the window ends', async () => {
    await hitRateLimit(t.db, t.clock, 'rl:wait', rule);
    t.clock.advance(20_000);
    const second = await hitRateLimit(t.db, t.clock, 'rl:wait', rule);
    expect(second).toEqual({ allowed: true, count: 2, retryAfterMs: 40_000 });
  });

  it('counts each key on its own', async () => {
    for (let i = 0; i < 3; i++) await enforceRateLimit(t.db, t.clock, 'rl:c', rule);
    await expect(enforceRateLimit(t.db, t.clock, 'rl:c', rule)).rejects.toBeInstanceOf(AppError);
    await expect(enforceRateLimit(t.db, t.clock, 'rl:d', rule)).resolves.toBeUndefined();
    expect(await isRateLimited(t.db, t.clock, 'rl:d', rule)).toBe(false);
  });

  it('clears a key with resetRateLimit', async () => {
    for (let i = 0; i < 3; i++) await enforceRateLimit(t.db, t.clock, 'rl:e', rule);
    await resetRateLimit(t.db, 'rl:e');
    expect(await isRateLimited(t.db, t.clock, 'rl:e', rule)).toBe(false);
    for (let i = 0; i < 3; i++) await enforceRateLimit(t.db, t.clock, 'rl:e', rule);
    await expect(enforceRateLimit(t.db, t.clock, 'rl:e', rule)).rejects.toBeInstanceOf(AppError);
  });
});
