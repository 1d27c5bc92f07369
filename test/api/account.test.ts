import { and, asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, groups, sessions, settings, users } from '../../src/db/schema';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../src/features/auth/session';
import { sha256Hex } from '../../src/platform/crypto';
import { createPasswordHasher, CURRENT_ARGON2_PARAMS } from '../../src/platform/password';
import { nodeArgon2id } from '../../src/platform/password-node';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, freshIps, sessionCookieOf, transports, type Answer, type Routes } from '../support/transports';

/**
 * docs/product.md §4-5, §7-8 and docs/architecture.md §3-4 accounts: /me, sign-in, sign-out, registration, e-mail and password
 * change, over REST (/api/account/*) and their tRPC twins (account.*), through the real HTTP adapters.
 */

const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
const DEFAULT_PASSWORD = 'password123';

const INVALID_CREDENTIALS = 'Invalid username or password';
const LOGIN_BLOCKED = 'Too many failed login attempts. Please wait 15 minutes and try again.';
const USERNAME_RULE = 'Username must be 3-32 characters: letters, digits, _ . -';

type Op = 'me' | 'login' | 'logout' | 'register' | 'editEmail' | 'changePassword';

let t: TestApp;
let adminCookie: string;
let usersGroupId: number;
let seededAllowRegistration: string | undefined;

/** A client address no other test uses, so per-address rate limits of one test never touch another. */
const freshIp = freshIps((high, low) => `10.${high}.${low}.7`);

const routes: Routes<Op> = {
  rest: {
    me: ['GET', '/api/account/me'],
    login: ['POST', '/api/account/login'],
    logout: ['POST', '/api/account/logout'],
    register: ['POST', '/api/account/register'],
    editEmail: ['POST', '/api/account/edit'],
    changePassword: ['POST', '/api/account/changepassword'],
  },
  trpc: {
    me: ['query', 'account.me'],
    login: ['mutation', 'account.login'],
    logout: ['mutation', 'account.logout'],
    register: ['mutation', 'account.register'],
    editEmail: ['mutation', 'account.editEmail'],
    changePassword: ['mutation', 'account.changePassword'],
  },
};
const both = transports<Op>(() => t, routes);

function hasSessionCookie(answer: Answer): boolean {
  return answer.setCookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`));
}

const tokenOf = (cookie: string) => cookie.slice(SESSION_COOKIE.length + 1);

async function me(cookie: string | undefined) {
  const r = await t.request('/api/account/me', cookie ? { cookie } : {});
  expect(r.status).toBe(200);
  return r.json;
}

async function userRow(username: string) {
  const [row] = await t.db.select().from(users).where(eq(users.username, username));
  return row;
}

/** Sets a setting the way an admin does (REST), so the settings cache is invalidated as in real use. */
async function setSetting(key: string, value: string | number | boolean) {
  const r = await t.request('/api/settings/update', { cookie: adminCookie, body: { key, value } });
  expect(r.json).toEqual({ success: true });
}

beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.cookieFor('admin');
  usersGroupId = (await t.db.select().from(groups).where(eq(groups.name, 'Users')))[0]!.id;
  seededAllowRegistration = (await t.db.select().from(settings).where(eq(settings.key, 'allow_registration')))[0]?.value;
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  // Expected failures are answers, never logged crashes.
  expect(t.errors).toEqual([]);
});

describe.each(both)('$name', (tr) => {
  const name = (base: string) => `${tr.p}_${base}`;

  describe('sign-in', () => {
    it('signs a user in: answers the user as /me shows it and sets an HttpOnly, SameSite=Lax session cookie for the whole site', async () => {
      const created = await t.createUser(name('alice'));
      const answer = await tr.call('login', { body: { username: name('alice'), password: DEFAULT_PASSWORD } });
      expect(answer.status).toBe(200);
      const now = t.clock.now().toISOString();
      const expectedUser = {
        id: created.id,
        username: name('alice'),
        email: null,
        status: 'active',
        deletable: true,
        created_at: now,
        updated_at: now,
        two_factor_enabled: false,
        locale: 'en',
        groups: [{ id: usersGroupId, name: 'Users' }],
        permissions: [],
      };
      expect(answer.data).toEqual({ success: true, user: expectedUser });

      const line = answer.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
      expect(line).toBeDefined();
      const attributes = line.split(';').map((s) => s.trim());
      expect(attributes[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43}$`));
      expect(attributes).toContain('Path=/');
      expect(attributes).toContain('HttpOnly');
      expect(attributes).toContain('SameSite=Lax');
      expect(attributes).not.toContain('Secure');
      // 30 days (docs/architecture.md §3).
      const expires = attributes.find((a) => a.startsWith('Expires='));
      expect(new Date(expires!.slice('Expires='.length)).getTime()).toBe(Math.floor((t.clock.now().getTime() + 30 * DAY) / 1000) * 1000);

      expect(await me(sessionCookieOf(answer))).toEqual({ loggedIn: true, user: expectedUser, two_factor_setup_required: false });
      expect(await me(undefined)).toEqual({ loggedIn: false });
    });

    it('keeps only the SHA-256 of the session token in the database', async () => {
      const created = await t.createUser(name('hashkeeper'));
      const answer = await tr.call('login', { body: { username: name('hashkeeper'), password: DEFAULT_PASSWORD } });
      const token = tokenOf(sessionCookieOf(answer));
      const rows = await t.db.select().from(sessions).where(eq(sessions.userId, created.id));
      expect(rows).toHaveLength(1);
      expect(rows[0]!.id).not.toBe(token);
      expect(rows[0]!.id).toBe(await sha256Hex(token));
      expect(rows[0]!.twoFactorPending).toBe(false);
      expect(JSON.stringify(rows)).not.toContain(token);
    });

    it('names the session cookie __Host-… and marks it Secure when PUBLIC_URL is https, and reads it back under that name only', async () => {
      const secure = await createTestApp({ env: { PUBLIC_URL: 'https://kerst.example.nl' } });
      try {
        const path = tr.name === 'REST' ? '/api/account/login' : '/trpc/account.login';
        const r = await secure.request(path, { body: { username: 'admin', password: ADMIN_PASSWORD } });
        expect(r.status).toBe(200);
        const line = r.headers.getSetCookie().find((c) => c.startsWith(`${SECURE_SESSION_COOKIE}=`))!;
        const attributes = line.split(';').map((s) => s.trim());
        expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', 'Secure']));
        expect(attributes.some((a) => a.toLowerCase().startsWith('domain='))).toBe(false);
        const token = attributes[0]!.slice(SECURE_SESSION_COOKIE.length + 1);
        expect((await secure.request('/api/account/me', { cookie: `${SECURE_SESSION_COOKIE}=${token}` })).json.loggedIn).toBe(true);
        expect((await secure.request('/api/account/me', { cookie: `${SESSION_COOKIE}=${token}` })).json).toEqual({ loggedIn: false });
        expect(secure.errors).toEqual([]);
      } finally {
        await secure.close();
      }
    });

    it('refuses a wrong password and an unknown username with the same answer and no cookie', async () => {
      await t.createUser(name('bob'));
      const ip = freshIp();
      const wrong = await tr.call('login', { ip, body: { username: name('bob'), password: 'not-the-password' } });
      expectFailure(tr, wrong, 401, INVALID_CREDENTIALS);
      expect(hasSessionCookie(wrong)).toBe(false);
      const unknown = await tr.call('login', { ip, body: { username: name('nobody'), password: DEFAULT_PASSWORD } });
      expectFailure(tr, unknown, 401, INVALID_CREDENTIALS);
      expect(hasSessionCookie(unknown)).toBe(false);
    });

    it('asks for both the username and the password', async () => {
      const ip = freshIp();
      for (const body of [
        {},
        { username: name('bob') },
        { password: DEFAULT_PASSWORD },
        { username: '   ', password: DEFAULT_PASSWORD },
        { username: name('bob'), password: '' },
      ]) {
        expectFailure(tr, await tr.call('login', { ip, body }), 400, 'Username and password are required');
      }
    });

    it('answers a malformed JSON body with 400 and a readable error', async () => {
      const path = tr.name === 'REST' ? '/api/account/login' : '/trpc/account.login';
      const r = await t.request(path, { rawBody: '{"username": "admin", ', headers: { 'x-test-client-ip': freshIp() } });
      expectFailure(tr, { status: r.status, json: r.json, data: r.json, setCookies: [], headers: r.headers }, 400, 'Malformed JSON body');
    });

    it('tells an inactive user with the right password that the account is not active, and gives the generic answer for a wrong one', async () => {
      await t.createUser(name('sleeper'), ['Users'], { status: 'inactive' });
      const ip = freshIp();
      const right = await tr.call('login', { ip, body: { username: name('sleeper'), password: DEFAULT_PASSWORD } });
      expectFailure(tr, right, 403, 'Account is not active');
      expect(hasSessionCookie(right)).toBe(false);
      expectFailure(tr, await tr.call('login', { ip, body: { username: name('sleeper'), password: 'wrong-password' } }), 401, INVALID_CREDENTIALS);
    });

    it('matches the username case-insensitively', async () => {
      await t.createUser(name('Carol'));
      const answer = await tr.call('login', { body: { username: name('CAROL'), password: DEFAULT_PASSWORD } });
      expect(answer.status).toBe(200);
      expect(answer.data.user.username).toBe(name('Carol'));
      expect((await me(sessionCookieOf(answer))).loggedIn).toBe(true);
    });

    it('blocks a (username, address) pair after 5 failures, even with the right password, until 15 minutes have passed', async () => {
      await t.createUser(name('dave'));
      const ip = freshIp();
      for (let i = 0; i < 5; i++) {
        expectFailure(tr, await tr.call('login', { ip, body: { username: name('dave'), password: `wrong-${i}` } }), 401, INVALID_CREDENTIALS);
      }
      const blocked = await tr.call('login', { ip, body: { username: name('dave'), password: DEFAULT_PASSWORD } });
      expectFailure(tr, blocked, 429, LOGIN_BLOCKED);
      expect(hasSessionCookie(blocked)).toBe(false);
      // The pair is the username case-insensitively.
      expectFailure(tr, await tr.call('login', { ip, body: { username: name('DAVE'), password: DEFAULT_PASSWORD } }), 429, LOGIN_BLOCKED);

      t.clock.advance(15 * MINUTE - 1000);
      expectFailure(tr, await tr.call('login', { ip, body: { username: name('dave'), password: DEFAULT_PASSWORD } }), 429, LOGIN_BLOCKED);
      t.clock.advance(1000);
      const again = await tr.call('login', { ip, body: { username: name('dave'), password: DEFAULT_PASSWORD } });
      expect(again.status).toBe(200);
      expect(again.data.success).toBe(true);
    });

    it('never lets a stranger lock an account: after 5 failures from one address, the right password from another gets in', async () => {
      await t.createUser(name('victim'));
      const stranger = freshIp();
      for (let i = 0; i < 6; i++) {
        await tr.call('login', { ip: stranger, body: { username: name('victim'), password: `guess-${i}` } });
      }
      expectFailure(tr, await tr.call('login', { ip: stranger, body: { username: name('victim'), password: 'guess-7' } }), 429, LOGIN_BLOCKED);
      const owner = await tr.call('login', { ip: freshIp(), body: { username: name('victim'), password: DEFAULT_PASSWORD } });
      expect(owner.status).toBe(200);
      expect(owner.data.user.username).toBe(name('victim'));
    });

    it('after 50 failures from many addresses answers wrong passwords with 429 and writes auth.lockout once, yet the right password from a clean address gets in', async () => {
      await t.createUser(name('target'));
      for (let i = 0; i < 50; i++) {
        expectFailure(tr, await tr.call('login', { ip: freshIp(), body: { username: name('target'), password: `spray-${i}` } }), 401, INVALID_CREDENTIALS);
      }
      const spray = freshIp();
      expectFailure(tr, await tr.call('login', { ip: spray, body: { username: name('target'), password: 'spray-50' } }), 429, LOGIN_BLOCKED);
      // docs/decisions/055: an address has 3 tries of its own for a locked name; after those it gets no more
      // answers, right password or not.
      for (const guess of ['spray-50b', 'spray-50c']) {
        expectFailure(tr, await tr.call('login', { ip: spray, body: { username: name('target'), password: guess } }), 429, LOGIN_BLOCKED);
      }
      expectFailure(tr, await tr.call('login', { ip: spray, body: { username: name('target'), password: DEFAULT_PASSWORD } }), 429, LOGIN_BLOCKED);
      expectFailure(tr, await tr.call('login', { ip: freshIp(), body: { username: name('target'), password: 'spray-51' } }), 429, LOGIN_BLOCKED);

      const lockouts = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'auth.lockout'), eq(auditLog.target, name('target'))));
      expect(lockouts.map((e) => [e.actorId, e.actorUsername, JSON.parse(e.details)])).toEqual([[null, null, { failures: 51 }]]);

      const owner = await tr.call('login', { ip: freshIp(), body: { username: name('target'), password: DEFAULT_PASSWORD } });
      expect(owner.status).toBe(200);
    });

    it('during a lockout of the name, the owner’s one typo from a new address does not shut that address: the right password then signs in', async () => {
      await t.createUser(name('owner'));
      for (let i = 0; i < 50; i++) {
        expectFailure(tr, await tr.call('login', { ip: freshIp(), body: { username: name('owner'), password: `spray-${i}` } }), 401, INVALID_CREDENTIALS);
      }
      const home = freshIp();
      expectFailure(tr, await tr.call('login', { ip: home, body: { username: name('owner'), password: 'typo-in-it' } }), 429, LOGIN_BLOCKED);
      expect((await tr.call('login', { ip: home, body: { username: name('owner'), password: DEFAULT_PASSWORD } })).status).toBe(200);
    });

    it('writes auth.login_failed without an actor for wrong passwords and unknown names, and auth.login and auth.logout for the user', async () => {
      const user = await t.createUser(name('audited'));
      const ip = freshIp();
      await tr.call('login', { ip, body: { username: name('audited'), password: 'not-it' } });
      await tr.call('login', { ip, body: { username: name('nobody_here'), password: 'not-it' } });
      const ok = await tr.call('login', { ip, body: { username: name('audited'), password: DEFAULT_PASSWORD } });
      expect(ok.status).toBe(200);
      expect((await tr.call('logout', { ip, cookie: sessionCookieOf(ok) })).status).toBe(200);

      const entries = await t.db.select().from(auditLog).where(eq(auditLog.ip, ip)).orderBy(asc(auditLog.id));
      expect(entries.map((e) => [e.action, e.actorId, e.target])).toEqual([
        ['auth.login_failed', null, name('audited')],
        ['auth.login_failed', null, name('nobody_here')],
        ['auth.login', user.id, ''],
        ['auth.logout', user.id, ''],
      ]);
      expect(JSON.stringify(entries)).not.toContain('not-it');
      expect(JSON.stringify(entries)).not.toContain(DEFAULT_PASSWORD);
    });

    it('blocks an address after 20 failures across usernames, while another address still signs in', async () => {
      await t.createUser(name('erin'));
      const ip = freshIp();
      for (let i = 0; i < 20; i++) {
        expectFailure(tr, await tr.call('login', { ip, body: { username: name(`ghost${i}`), password: 'whatever' } }), 401, INVALID_CREDENTIALS);
      }
      expectFailure(tr, await tr.call('login', { ip, body: { username: name('erin'), password: DEFAULT_PASSWORD } }), 429, LOGIN_BLOCKED);
      const other = await tr.call('login', { ip: freshIp(), body: { username: name('erin'), password: DEFAULT_PASSWORD } });
      expect(other.status).toBe(200);
      expect(other.data.user.username).toBe(name('erin'));
    });

    it('forgets the failures of a username after a successful sign-in', async () => {
      await t.createUser(name('frank'));
      const ip = freshIp();
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 4; i++) {
          expectFailure(tr, await tr.call('login', { ip, body: { username: name('frank'), password: 'wrong' } }), 401, INVALID_CREDENTIALS);
        }
        const ok = await tr.call('login', { ip, body: { username: name('frank'), password: DEFAULT_PASSWORD } });
        expect(ok.status).toBe(200);
      }
      // Four more failures after the last success: still allowed, the fifth blocks.
      for (let i = 0; i < 4; i++) {
        expectFailure(tr, await tr.call('login', { ip, body: { username: name('frank'), password: 'wrong' } }), 401, INVALID_CREDENTIALS);
      }
      expect((await tr.call('login', { ip, body: { username: name('frank'), password: DEFAULT_PASSWORD } })).status).toBe(200);
    });

    it('upgrades a password hash made with weaker Argon2 parameters when the user signs in', async () => {
      // An app hashing with the production parameters, not the tests' cheap ones (docs/decisions/063).
      const real = await createTestApp({ argon2Params: CURRENT_ARGON2_PARAMS });
      try {
        const on = transports<Op>(() => real, routes)[both.indexOf(tr)]!;
        const created = await real.createUser(name('oldhash'));
        const weak = await createPasswordHasher(nodeArgon2id, { memoryKiB: 4096, passes: 1, parallelism: 1 }).hash(DEFAULT_PASSWORD);
        await real.db.update(users).set({ passwordHash: weak }).where(eq(users.id, created.id));

        const answer = await on.call('login', { body: { username: name('oldhash'), password: DEFAULT_PASSWORD } });
        expect(answer.status).toBe(200);
        const after = (await real.db.select().from(users).where(eq(users.id, created.id)))[0]!.passwordHash;
        expect(after).not.toBe(weak);
        expect(after).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
        expect(real.deps.passwords.needsRehash(after)).toBe(false);
        // The new hash still holds the same password.
        expect((await on.call('login', { body: { username: name('oldhash'), password: DEFAULT_PASSWORD } })).status).toBe(200);
        expect(real.errors).toEqual([]);
      } finally {
        await real.close();
      }
    });

    it('still checks a password for an unknown username, so both cases take as long', async () => {
      const verify = vi.spyOn(t.deps.passwords, 'verify');
      try {
        const answer = await tr.call('login', { ip: freshIp(), body: { username: name('phantom'), password: DEFAULT_PASSWORD } });
        expectFailure(tr, answer, 401, INVALID_CREDENTIALS);
        expect(verify).toHaveBeenCalledTimes(1);
        expect(verify.mock.calls[0]![1]).toBe(DEFAULT_PASSWORD);
      } finally {
        verify.mockRestore();
      }
    });
  });

  describe('sign-out', () => {
    it('ends the session: deletes its row, clears the cookie, and /me then says logged out', async () => {
      const created = await t.createUser(name('gina'));
      const login = await tr.call('login', { body: { username: name('gina'), password: DEFAULT_PASSWORD } });
      const cookie = sessionCookieOf(login);
      expect(await t.db.select().from(sessions).where(eq(sessions.userId, created.id))).toHaveLength(1);

      const answer = await tr.call('logout', { cookie });
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true });
      expect(await t.db.select().from(sessions).where(eq(sessions.userId, created.id))).toEqual([]);
      const line = answer.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
      expect(line).toBeDefined();
      const attributes = line.split(';').map((s) => s.trim());
      expect(attributes[0]).toBe(`${SESSION_COOKIE}=`);
      expect(attributes).toContain('Path=/');
      const expires = attributes.find((a) => a.startsWith('Expires='));
      const cleared = attributes.includes('Max-Age=0') || (expires !== undefined && new Date(expires.slice(8)).getTime() <= t.clock.now().getTime());
      expect(cleared).toBe(true);
      expect(await me(cookie)).toEqual({ loggedIn: false });
    });

    it('answers success without a session too', async () => {
      const answer = await tr.call('logout');
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true });
    });
  });

  describe('registration', () => {
    beforeEach(async () => {
      await setSetting('allow_registration', true);
      await setSetting('registration_requires_activation', false);
      await setSetting('password_min_length', 6);
      await setSetting('maintenance_mode', false);
    });

    afterAll(async () => {
      await setSetting('allow_registration', false);
      await setSetting('registration_requires_activation', false);
      await setSetting('password_min_length', 6);
      await setSetting('maintenance_mode', false);
    });

    it('is refused while registration is disabled, which is the default', async () => {
      expect(seededAllowRegistration).toBe('false');
      await setSetting('allow_registration', false);
      const answer = await tr.call('register', { ip: freshIp(), body: { username: name('hopeful'), email: '', password: DEFAULT_PASSWORD } });
      expectFailure(tr, answer, 403, 'Registration is currently disabled.');
      expect(hasSessionCookie(answer)).toBe(false);
      expect(await userRow(name('hopeful'))).toBeUndefined();
    });

    it('creates an active account in the default group, signs it in and answers activation_required false', async () => {
      const answer = await tr.call('register', {
        ip: freshIp(),
        body: { username: name('newbie'), email: `${name('newbie')}@example.nl`, password: 'secret-enough' },
      });
      expect(answer.status).toBe(200);
      const row = (await userRow(name('newbie')))!;
      const now = t.clock.now().toISOString();
      const expectedUser = {
        id: row.id,
        username: name('newbie'),
        email: `${name('newbie')}@example.nl`,
        status: 'active',
        deletable: true,
        created_at: now,
        updated_at: now,
        two_factor_enabled: false,
        locale: 'en',
        groups: [{ id: usersGroupId, name: 'Users' }],
        permissions: [],
      };
      expect(answer.data).toEqual({ success: true, user: expectedUser, activation_required: false });
      expect(row.status).toBe('active');
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await me(sessionCookieOf(answer))).toEqual({ loggedIn: true, user: expectedUser, two_factor_setup_required: false });
      // The new account signs in with its password.
      expect((await tr.call('login', { body: { username: name('newbie'), password: 'secret-enough' } })).status).toBe(200);
    });

    it('with registration_requires_activation creates an inactive account, signs nobody in, and sign-in then says the account is not active', async () => {
      await setSetting('registration_requires_activation', true);
      const answer = await tr.call('register', { ip: freshIp(), body: { username: name('waiting'), email: '', password: DEFAULT_PASSWORD } });
      expect(answer.status).toBe(200);
      if (tr.name === 'REST') expect(answer.data).toEqual({ success: true, activation_required: true });
      else expect({ ...answer.data, user: answer.data.user ?? null }).toEqual({ success: true, user: null, activation_required: true });
      expect(hasSessionCookie(answer)).toBe(false);
      const row = (await userRow(name('waiting')))!;
      expect(row.status).toBe('inactive');
      expectFailure(
        tr,
        await tr.call('login', { ip: freshIp(), body: { username: name('waiting'), password: DEFAULT_PASSWORD } }),
        403,
        'Account is not active',
      );
    });

    it('refuses a password shorter than password_min_length, naming the minimum', async () => {
      const ip = freshIp();
      expectFailure(
        tr,
        await tr.call('register', { ip, body: { username: name('shorty'), password: '12345' } }),
        400,
        'Password must be at least 6 characters.',
      );
      await setSetting('password_min_length', 10);
      expectFailure(
        tr,
        await tr.call('register', { ip, body: { username: name('shorty'), password: '123456789' } }),
        400,
        'Password must be at least 10 characters.',
      );
      expect(await userRow(name('shorty'))).toBeUndefined();
      const ok = await tr.call('register', { ip, body: { username: name('shorty'), password: '1234567890' } });
      expect(ok.status).toBe(200);
      expect(ok.data.success).toBe(true);
    });

    it('refuses usernames that are not 3-32 of letters, digits, _ . -', async () => {
      const ip = freshIp();
      for (const username of ['ab', 'a'.repeat(33), 'two words', 'josé', 'x'.repeat(70)]) {
        expectFailure(tr, await tr.call('register', { ip, body: { username, password: DEFAULT_PASSWORD } }), 400, USERNAME_RULE);
      }
      // The edges are accepted.
      for (const username of [`${tr.p}_c`, `${tr.p}.A-9_${'z'.repeat(26)}`]) {
        const ok = await tr.call('register', { ip, body: { username, password: DEFAULT_PASSWORD } });
        expect(ok.status, username).toBe(200);
        expect(ok.data.user.username).toBe(username);
      }
    });

    it('refuses a username that is already taken, whatever its case', async () => {
      const ip = freshIp();
      expectFailure(tr, await tr.call('register', { ip, body: { username: 'ADMIN', password: DEFAULT_PASSWORD } }), 409, 'Username is already taken');
      await t.createUser(name('Twin'));
      expectFailure(tr, await tr.call('register', { ip, body: { username: name('tWIN'), password: DEFAULT_PASSWORD } }), 409, 'Username is already taken');
    });

    it('refuses an e-mail address that is already in use, whatever its case', async () => {
      const ip = freshIp();
      const first = await tr.call('register', { ip, body: { username: name('mail1'), email: `${name('shared')}@example.nl`, password: DEFAULT_PASSWORD } });
      expect(first.status).toBe(200);
      const second = await tr.call('register', { ip, body: { username: name('mail2'), email: `${name('SHARED')}@Example.NL`, password: DEFAULT_PASSWORD } });
      expectFailure(tr, second, 409, 'Email is already in use');
      expect(await userRow(name('mail2'))).toBeUndefined();
    });

    it('refuses a malformed e-mail address', async () => {
      const ip = freshIp();
      for (const email of ['nope', 'a@b', 'two words@example.nl', '@example.nl']) {
        expectFailure(
          tr,
          await tr.call('register', { ip, body: { username: name('badmail'), email, password: DEFAULT_PASSWORD } }),
          400,
          'Invalid email address',
        );
      }
    });

    it('accepts a blank or missing e-mail address and stores none', async () => {
      const ip = freshIp();
      for (const [base, body] of [
        ['blank1', { email: '' }],
        ['blank2', { email: '   ' }],
        ['blank3', {}],
      ] as const) {
        const answer = await tr.call('register', { ip, body: { username: name(base), password: DEFAULT_PASSWORD, ...body } });
        expect(answer.status, base).toBe(200);
        expect(answer.data.user.email).toBeNull();
        expect((await userRow(name(base)))!.email).toBeNull();
      }
    });

    it('is refused to anonymous visitors in maintenance mode', async () => {
      await setSetting('maintenance_mode', true);
      const answer = await tr.call('register', { ip: freshIp(), body: { username: name('maint'), password: DEFAULT_PASSWORD } });
      expectFailure(tr, answer, 503, 'Maintenance');
      expect(await userRow(name('maint'))).toBeUndefined();
    });

    it('allows 10 registrations an hour from one address, then answers 429', async () => {
      const ip = freshIp();
      for (let i = 0; i < 10; i++) {
        // Refused attempts count too; they cost no password hash.
        expectFailure(tr, await tr.call('register', { ip, body: { username: 'no', password: DEFAULT_PASSWORD } }), 400, USERNAME_RULE);
      }
      const blocked = await tr.call('register', { ip, body: { username: name('eleventh'), password: DEFAULT_PASSWORD } });
      expectFailure(tr, blocked, 429, 'Too many registrations from this address. Please try again later.');
      expect(await userRow(name('eleventh'))).toBeUndefined();
      // Another address is not affected.
      expect((await tr.call('register', { ip: freshIp(), body: { username: name('eleventh'), password: DEFAULT_PASSWORD } })).status).toBe(200);
      t.clock.advance(60 * MINUTE);
      expectFailure(tr, await tr.call('register', { ip, body: { username: 'no', password: DEFAULT_PASSWORD } }), 400, USERNAME_RULE);
    });
  });

  describe('e-mail change', () => {
    let cookie: string;
    beforeAll(async () => {
      await t.createUser(name('emily'));
      cookie = await t.cookieFor(name('emily'));
    });

    it('needs a signed-in user', async () => {
      expectFailure(tr, await tr.call('editEmail', { body: { email: 'x@example.nl' } }), 401, 'Not logged in');
    });

    it('refuses an empty address', async () => {
      for (const body of [{ email: '' }, { email: '   ' }, {}]) {
        expectFailure(tr, await tr.call('editEmail', { cookie, body }), 400, 'Email cannot be empty');
      }
    });

    it('refuses a malformed address', async () => {
      for (const email of ['nope', 'a@b', 'emily @example.nl']) {
        expectFailure(tr, await tr.call('editEmail', { cookie, body: { email } }), 400, 'Invalid email address');
      }
    });

    it("refuses another user's address, whatever its case", async () => {
      const other = await t.createUser(name('taken'));
      await t.db
        .update(users)
        .set({ email: `${name('taken')}@example.nl` })
        .where(eq(users.id, other.id));
      const answer = await tr.call('editEmail', { cookie, body: { email: `${name('TAKEN')}@EXAMPLE.nl` } });
      expectFailure(tr, answer, 409, 'Email is already in use');
    });

    it('saves a valid address, which /me then shows', async () => {
      const email = `${name('emily')}@example.nl`;
      const answer = await tr.call('editEmail', { cookie, body: { email: `  ${email} ` } });
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true });
      expect((await me(cookie)).user.email).toBe(email);
      // Saving one's own address again is no conflict.
      expect((await tr.call('editEmail', { cookie, body: { email } })).data).toEqual({ success: true });
    });
  });

  describe('e-mail change', () => {
    it('ends the other sessions of the user, keeps the current one, and audits old and new address', async () => {
      const user = await t.createUser(name('mover'));
      await t.db
        .update(users)
        .set({ email: `${name('mover')}@old.nl` })
        .where(eq(users.id, user.id));
      const cookie = await t.cookieFor(name('mover'));
      const other = await t.cookieFor(name('mover'));
      expect((await tr.call('editEmail', { cookie, body: { email: `${name('mover')}@new.nl` } })).status).toBe(200);
      expect((await me(cookie)).loggedIn).toBe(true);
      expect(await me(other)).toEqual({ loggedIn: false });
      const [entry] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'auth.email_changed'), eq(auditLog.actorId, user.id)));
      expect(JSON.parse(entry!.details)).toEqual({ email: [`${name('mover')}@old.nl`, `${name('mover')}@new.nl`] });
    });

    it('allows 10 tries in 15 minutes, so a signed-in user cannot probe which addresses exist', async () => {
      await t.createUser(name('prober'));
      const cookie = await t.cookieFor(name('prober'));
      for (let i = 0; i < 10; i++) {
        expect((await tr.call('editEmail', { cookie, body: { email: `${name('probe')}${i}@example.nl` } })).status).toBe(200);
      }
      expectFailure(
        tr,
        await tr.call('editEmail', { cookie, body: { email: 'admin-guess@example.nl' } }),
        429,
        'Too many attempts. Please wait 15 minutes and try again.',
      );
      t.clock.advance(15 * MINUTE);
      expect((await tr.call('editEmail', { cookie, body: { email: `${name('probe')}@example.nl` } })).status).toBe(200);
    });
  });

  describe('password change', () => {
    let cookie: string;
    beforeAll(async () => {
      await t.createUser(name('pat'));
      cookie = await t.cookieFor(name('pat'));
    });

    it('needs a signed-in user', async () => {
      expectFailure(tr, await tr.call('changePassword', { body: { old_password: DEFAULT_PASSWORD, new_password: 'another-one' } }), 401, 'Not logged in');
    });

    it('needs the old password', async () => {
      for (const body of [{ new_password: 'another-one' }, { old_password: '', new_password: 'another-one' }]) {
        expectFailure(tr, await tr.call('changePassword', { cookie, body }), 400, 'Old password is required');
      }
    });

    it('refuses a new password shorter than 6 characters', async () => {
      expectFailure(
        tr,
        await tr.call('changePassword', { cookie, body: { old_password: DEFAULT_PASSWORD, new_password: '12345' } }),
        400,
        'Password must be at least 6 characters',
      );
    });

    it('refuses a wrong old password', async () => {
      expectFailure(
        tr,
        await tr.call('changePassword', { cookie, body: { old_password: 'not-it', new_password: 'another-one' } }),
        400,
        'Old password is incorrect',
      );
    });

    it("changes the password and ends the user's other sessions, keeping the current one", async () => {
      await t.createUser(name('quinn'));
      const current = sessionCookieOf(await tr.call('login', { body: { username: name('quinn'), password: DEFAULT_PASSWORD } }));
      const other = await t.cookieFor(name('quinn'));
      expect((await me(other)).loggedIn).toBe(true);

      const answer = await tr.call('changePassword', { cookie: current, body: { old_password: DEFAULT_PASSWORD, new_password: 'brand-new-pass' } });
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true });
      expect((await me(current)).loggedIn).toBe(true);
      expect(await me(other)).toEqual({ loggedIn: false });

      const ip = freshIp();
      expectFailure(tr, await tr.call('login', { ip, body: { username: name('quinn'), password: DEFAULT_PASSWORD } }), 401, INVALID_CREDENTIALS);
      expect((await tr.call('login', { ip, body: { username: name('quinn'), password: 'brand-new-pass' } })).status).toBe(200);
    });
  });
});

describe('sign-in rate limits under simultaneous attempts', () => {
  // docs/architecture.md §3: the limits are kept in the database "so they hold across Worker isolates"; they must
  // equally hold when an attacker sends guesses in parallel instead of one after another.
  it('checks at most 5 of 12 simultaneous wrong passwords for one username from one address; the rest answer 429', async () => {
    await t.createUser('parallel_victim');
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.request('/api/account/login', { body: { username: 'parallel_victim', password: `guess-${i}` }, headers: { 'x-test-client-ip': ip } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length, `statuses ${statuses.join(',')}`).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - statuses.filter((s) => s === 401).length);
  });

  it('answers at most 50 of 70 simultaneous wrong passwords for one username from 70 addresses with a plain 401', async () => {
    await t.createUser('parallel_spray');
    const answers = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        t.request('/api/account/login', { body: { username: 'parallel_spray', password: `guess-${i}` }, headers: { 'x-test-client-ip': freshIp() } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length, `statuses ${statuses.join(',')}`).toBeLessThanOrEqual(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(70 - statuses.filter((s) => s === 401).length);
  });

  it('checks at most 20 of 30 simultaneous failures from one address; the rest answer 429', async () => {
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.request('/api/account/login', { body: { username: `parallel_ghost${i}`, password: 'guess' }, headers: { 'x-test-client-ip': ip } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length, `statuses ${statuses.join(',')}`).toBeLessThanOrEqual(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - statuses.filter((s) => s === 401).length);
  });
});
