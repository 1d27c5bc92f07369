import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, recoveryCodes, sessions, twoFactorSecrets } from '../../src/db/schema';
import { SESSION_COOKIE } from '../../src/features/auth/session';
import { hashRecoveryCode, legacyRecoveryCodeHash } from '../../src/features/auth/totp';
import { sha256Hex } from '../../src/platform/crypto';
import { decrypt } from '../../src/platform/encryption';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, sessionCookieOf, transports } from '../support/transports';

/**
 * docs/product.md §4 two-factor, §8 messages and docs/architecture.md §3-4: set-up, verify, the two-step sign-in, check and
 * disable, over REST (/api/twofactor/*) and their tRPC twins (twoFactor.*). Codes are computed from
 * the app's injected clock, which the tests move by whole 30-second steps.
 */

const STEP_MS = 30_000;
const DEFAULT_PASSWORD = 'password123';
const CLUB_NAME = 'Ronde Tafel 144 Harlingen';
const INVALID_CODE = 'Invalid 2FA code';
const TWO_FACTOR_REQUIRED = 'Two-factor authentication required';
const TOO_MANY_CODES = 'Too many invalid codes. Please wait 15 minutes and try again.';
const RECOVERY_CODE_SHAPE = /^[A-Z2-9]{4}-[A-Z2-9]{4}$/;

type Op = 'me' | 'login' | 'setup' | 'verify' | 'completeLogin' | 'check' | 'disable' | 'adminWrite';

let t: TestApp;

const both = transports<Op>(() => t, {
  rest: {
    me: ['GET', '/api/account/me'],
    login: ['POST', '/api/account/login'],
    setup: ['GET', '/api/twofactor/setup'],
    verify: ['POST', '/api/twofactor/verify'],
    completeLogin: ['POST', '/api/twofactor/completelogin'],
    check: ['POST', '/api/twofactor/check'],
    disable: ['POST', '/api/twofactor/disable'],
    adminWrite: ['POST', '/api/settings/update'],
  },
  trpc: {
    me: ['query', 'account.me'],
    login: ['mutation', 'account.login'],
    setup: ['mutation', 'twoFactor.setup'],
    verify: ['mutation', 'twoFactor.verify'],
    completeLogin: ['mutation', 'twoFactor.completeLogin'],
    check: ['mutation', 'twoFactor.check'],
    disable: ['mutation', 'twoFactor.disable'],
    adminWrite: ['mutation', 'settings.update'],
  },
});

/** The code an authenticator app shows for this secret, `steps` steps from the app's current time. */
function codeFor(secret: string, steps = 0): string {
  const step = Math.floor(t.clock.now().getTime() / STEP_MS) + steps;
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6);
}

/** A six-digit code that is valid in none of the accepted steps (now, one before, one after). */
function wrongCodeFor(secret: string): string {
  const valid = new Set([codeFor(secret, -1), codeFor(secret), codeFor(secret, 1)]);
  for (let i = 0; ; i++) {
    const candidate = String(i * 111_111 + 123_456)
      .slice(-6)
      .padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}

/** Moves the clock into the next 30-second step, so a fresh code exists. */
function nextStep() {
  t.clock.advance(STEP_MS);
}

async function me(cookie: string | undefined) {
  const r = await t.request('/api/account/me', cookie ? { cookie } : {});
  expect(r.status).toBe(200);
  return r.json;
}

async function sessionRow(cookie: string) {
  const [row] = await t.db
    .select()
    .from(sessions)
    .where(eq(sessions.id, await sha256Hex(cookie.slice(SESSION_COOKIE.length + 1))));
  return row;
}

/** A harmless admin write: the club name set to what it already is. */
const ADMIN_WRITE_BODY = { key: 'club_name', value: CLUB_NAME };

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  expect(t.errors).toEqual([]);
});

describe.each(both)('$name', (tr) => {
  const name = (base: string) => `${tr.p}_${base}`;

  /** A user with 2FA switched on through the API; the clock then stands in the next step. */
  async function userWithTwoFactor(base: string, groupNames: string[] = ['Users']) {
    const user = await t.createUser(name(base), groupNames);
    const cookie = await t.cookieFor(name(base));
    const setup = await tr.call('setup', { cookie });
    expect(setup.status).toBe(200);
    const secret: string = setup.data.secret;
    const verify = await tr.call('verify', { cookie, body: { code: codeFor(secret) } });
    expect(verify.status).toBe(200);
    nextStep();
    return { user, cookie, secret, recoveryCodes: verify.data.recovery_codes as string[] };
  }

  /** Signs in with the password; a 2FA user gets the pending session's cookie. */
  async function pendingLogin(base: string) {
    const answer = await tr.call('login', { body: { username: name(base), password: DEFAULT_PASSWORD } });
    expectFailure(tr, answer, 401, TWO_FACTOR_REQUIRED);
    return sessionCookieOf(answer);
  }

  describe('set-up', () => {
    it('needs a signed-in user, as do verify, check and disable', async () => {
      expectFailure(tr, await tr.call('setup'), 401, 'Not logged in');
      for (const op of ['verify', 'check', 'disable'] as const) {
        expectFailure(tr, await tr.call(op, { body: { code: '123456' } }), 401, 'Not logged in');
      }
    });

    it('answers a base32 secret, an otpauth URL naming the club as issuer, and an SVG QR code', async () => {
      await t.createUser(name('sam'));
      const cookie = await t.cookieFor(name('sam'));
      const answer = await tr.call('setup', { cookie });
      expect(answer.status).toBe(200);
      if (tr.name === 'REST') expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(answer.data).sort()).toEqual(['otpauth_url', 'qr_code', 'secret', 'success']);
      expect(answer.data.success).toBe(true);

      const secret: string = answer.data.secret;
      expect(secret).toMatch(/^[A-Z2-7]+$/);
      expect(decodeBase32IgnorePadding(secret)).toHaveLength(20);

      const url: string = answer.data.otpauth_url;
      expect(url.startsWith('otpauth://totp/')).toBe(true);
      const parsed = new URL(url);
      expect(decodeURIComponent(parsed.pathname.replace(/^\/+/, ''))).toBe(`${CLUB_NAME}:${name('sam')}`);
      expect(parsed.searchParams.get('issuer')).toBe(CLUB_NAME);
      expect(parsed.searchParams.get('secret')).toBe(secret);
      expect(parsed.searchParams.get('period')).toBe('30');
      expect(parsed.searchParams.get('digits')).toBe('6');

      const qr: string = answer.data.qr_code;
      expect(qr.startsWith('data:image/svg+xml;base64,')).toBe(true);
      const svg = Buffer.from(qr.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
      expect(svg).toContain('<svg');

      // Set-up alone does not switch 2FA on.
      expect((await me(cookie)).user.two_factor_enabled).toBe(false);
    });

    it('keeps the secret encrypted at rest', async () => {
      const user = await t.createUser(name('vault'));
      const cookie = await t.cookieFor(name('vault'));
      const secret: string = (await tr.call('setup', { cookie })).data.secret;
      const key = decodeBase32IgnorePadding(secret);
      const [row] = await t.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id));
      expect(row).toBeDefined();
      expect(row!.enabledAt).toBeNull();
      const stored = row!.secretEncrypted;
      expect(stored).not.toBe(secret);
      expect(stored).not.toContain(secret);
      expect(stored).not.toBe(Buffer.from(key).toString('base64'));
      expect(stored).not.toContain(Buffer.from(key).toString('base64').slice(0, 24));
      expect(stored).not.toContain(Buffer.from(key).toString('hex'));
      expect(Buffer.from(stored, 'base64').includes(Buffer.from(key))).toBe(false);
      // It is the key, encrypted with SECRET_KEY.
      expect(await decrypt(t.deps.secretKey, stored)).toEqual(key);
    });

    it('replaces the secret of an unfinished set-up when set-up starts again', async () => {
      await t.createUser(name('restart'));
      const cookie = await t.cookieFor(name('restart'));
      const first: string = (await tr.call('setup', { cookie })).data.secret;
      const second: string = (await tr.call('setup', { cookie })).data.secret;
      expect(second).not.toBe(first);
      expectFailure(tr, await tr.call('verify', { cookie, body: { code: codeFor(first) } }), 400, INVALID_CODE);
      expect((await tr.call('verify', { cookie, body: { code: codeFor(second) } })).status).toBe(200);
    });

    it('refuses verify before set-up has started', async () => {
      await t.createUser(name('early'));
      const cookie = await t.cookieFor(name('early'));
      expectFailure(tr, await tr.call('verify', { cookie, body: { code: '123456' } }), 400, 'Start the two-factor set-up first');
    });

    it('verify refuses a wrong code, then with the right one enables 2FA and answers 10 single-use recovery codes, stored only as hashes', async () => {
      const user = await t.createUser(name('victor'));
      const cookie = await t.cookieFor(name('victor'));
      const secret: string = (await tr.call('setup', { cookie })).data.secret;

      expectFailure(tr, await tr.call('verify', { cookie, body: { code: wrongCodeFor(secret) } }), 400, INVALID_CODE);
      expect((await me(cookie)).user.two_factor_enabled).toBe(false);

      const answer = await tr.call('verify', { cookie, body: { code: codeFor(secret) } });
      expect(answer.status).toBe(200);
      if (tr.name === 'REST') expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(Object.keys(answer.data).sort()).toEqual(['message', 'recovery_codes', 'success']);
      expect(answer.data.success).toBe(true);
      expect(answer.data.message).toBe('2FA enabled successfully');
      const codes: string[] = answer.data.recovery_codes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(RECOVERY_CODE_SHAPE);

      const rows = await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      expect(rows).toHaveLength(10);
      const dump = JSON.stringify(rows);
      for (const code of codes) {
        expect(dump).not.toContain(code);
        expect(dump).not.toContain(code.replace('-', ''));
      }
      expect(rows.map((r) => r.codeHash).sort()).toEqual((await Promise.all(codes.map((code) => hashRecoveryCode(t.deps.secretKey, code)))).sort());
      expect(rows.every((r) => r.usedAt === null)).toBe(true);

      expect((await me(cookie)).user.two_factor_enabled).toBe(true);
      const [secretRow] = await t.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id));
      expect(secretRow!.enabledAt).toBe(t.clock.now().toISOString());
    });

    it('refuses set-up and verify when 2FA is already enabled', async () => {
      const { cookie, secret } = await userWithTwoFactor('twice');
      expectFailure(tr, await tr.call('setup', { cookie }), 400, 'Two-factor authentication is already enabled');
      expectFailure(tr, await tr.call('verify', { cookie, body: { code: codeFor(secret) } }), 400, 'Two-factor authentication is already enabled');
      // The secret in use is untouched: its codes still work.
      nextStep();
      expect((await tr.call('check', { cookie, body: { code: codeFor(secret) } })).status).toBe(200);
    });
  });

  describe('sign-in of a 2FA user', () => {
    it('answers "Two-factor authentication required" with a pending session that is not signed in', async () => {
      const { user } = await userWithTwoFactor('paula', ['Administrators']);
      const answer = await tr.call('login', { body: { username: name('paula'), password: DEFAULT_PASSWORD } });
      expectFailure(tr, answer, 401, TWO_FACTOR_REQUIRED);
      const line = answer.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
      expect(line).toBeDefined();
      const attributes = line.split(';').map((s) => s.trim());
      expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']));
      const pending = attributes[0]!;

      const row = await sessionRow(pending);
      expect(row).toMatchObject({ userId: user.id, twoFactorPending: true });
      expect(await me(pending)).toEqual({ loggedIn: false });
      // The pending session opens nothing: not admin calls, not the 2FA set-up, not check's signed-in branch.
      expectFailure(tr, await tr.call('adminWrite', { cookie: pending, body: ADMIN_WRITE_BODY }), 401, 'Not logged in');
      expectFailure(tr, await tr.call('setup', { cookie: pending }), 401, 'Not logged in');
      expectFailure(tr, await tr.call('disable', { cookie: pending, body: { code: '123456' } }), 401, 'Not logged in');
    });

    it('completelogin with the code replaces the pending session by a full one with a new cookie', async () => {
      const { user, secret } = await userWithTwoFactor('cleo', ['Administrators']);
      const pending = await pendingLogin('cleo');
      const answer = await tr.call('completeLogin', { cookie: pending, body: { code: codeFor(secret) } });
      expect(answer.status).toBe(200);
      expect(answer.data.success).toBe(true);
      expect(answer.data.user).toMatchObject({ id: user.id, username: name('cleo'), two_factor_enabled: true });
      // A new token (no session fixation); the pending one is gone.
      const full = sessionCookieOf(answer);
      expect(full).not.toBe(pending);
      const meAnswer = await me(full);
      expect(meAnswer.loggedIn).toBe(true);
      expect(meAnswer.user.username).toBe(name('cleo'));
      expect((await sessionRow(full))!.twoFactorPending).toBe(false);
      expect(await sessionRow(pending)).toBeUndefined();
      expect(await me(pending)).toEqual({ loggedIn: false });
      const write = await tr.call('adminWrite', { cookie: full, body: ADMIN_WRITE_BODY });
      expect(write.status).toBe(200);
      expect(write.data.success).toBe(true);
    });

    it('refuses a code already used in its time step and older steps, and accepts the next step’s code', async () => {
      const { secret } = await userWithTwoFactor('remy');
      const code = codeFor(secret);
      const first = await pendingLogin('remy');
      expect((await tr.call('completeLogin', { cookie: first, body: { code } })).status).toBe(200);

      const second = await pendingLogin('remy');
      expectFailure(tr, await tr.call('completeLogin', { cookie: second, body: { code } }), 400, INVALID_CODE);
      expect(await me(second)).toEqual({ loggedIn: false });

      nextStep();
      // The previous step is still inside the ±1 window, but older than the step already used.
      expectFailure(tr, await tr.call('completeLogin', { cookie: second, body: { code: codeFor(secret, -1) } }), 400, INVALID_CODE);
      const fresh = await tr.call('completeLogin', { cookie: second, body: { code: codeFor(secret) } });
      expect(fresh.status).toBe(200);
      expect((await me(sessionCookieOf(fresh))).loggedIn).toBe(true);
    });

    it('signs in only one of two pending sessions that send the same code at the same moment', async () => {
      const { secret } = await userWithTwoFactor('twins');
      const [a, b] = [await pendingLogin('twins'), await pendingLogin('twins')];
      const code = codeFor(secret);
      const answers = await Promise.all([a, b].map((cookie) => tr.call('completeLogin', { cookie, body: { code } })));
      expect(answers.map((x) => x.status).sort()).toEqual([200, 400]);
      const winner = answers.find((x) => x.status === 200)!;
      expect((await me(sessionCookieOf(winner))).loggedIn).toBe(true);
      const loser = answers.indexOf(answers.find((x) => x.status === 400)!);
      expect(await me([a, b][loser]!)).toEqual({ loggedIn: false });
    });

    it('accepts a recovery code once, also typed in lower case without the dash', async () => {
      const { user, recoveryCodes: codes } = await userWithTwoFactor('rita');
      const [first, second] = codes as [string, string];

      const pending1 = await pendingLogin('rita');
      const typed = first.toLowerCase().replace('-', '');
      const answer = await tr.call('completeLogin', { cookie: pending1, body: { code: typed } });
      expect(answer.status).toBe(200);
      expect(answer.data.success).toBe(true);
      expect((await me(sessionCookieOf(answer))).loggedIn).toBe(true);
      const used = (await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).filter((r) => r.usedAt !== null);
      expect(used).toHaveLength(1);

      const pending2 = await pendingLogin('rita');
      expectFailure(tr, await tr.call('completeLogin', { cookie: pending2, body: { code: first } }), 400, INVALID_CODE);
      expect(await me(pending2)).toEqual({ loggedIn: false });
      // Another code, with spaces instead of the dash, still works.
      const spaced = ` ${second.slice(0, 4).toLowerCase()} ${second.slice(5)} `;
      const last = await tr.call('completeLogin', { cookie: pending2, body: { code: spaced } });
      expect(last.status).toBe(200);
      expect((await me(sessionCookieOf(last))).loggedIn).toBe(true);
    });

    it('still accepts a recovery code stored before the keyed digest (plain SHA-256) once, and a code kept under another SECRET_KEY not at all', async () => {
      const { user } = await userWithTwoFactor('legacy');
      await t.db.insert(recoveryCodes).values([
        { userId: user.id, codeHash: await legacyRecoveryCodeHash('OLDC-ODE2') },
        { userId: user.id, codeHash: await hashRecoveryCode('f'.repeat(64), 'OTHR-KEY2') },
      ]);
      const pending = await pendingLogin('legacy');
      expectFailure(tr, await tr.call('completeLogin', { cookie: pending, body: { code: 'OTHR-KEY2' } }), 400, INVALID_CODE);
      const answer = await tr.call('completeLogin', { cookie: pending, body: { code: 'oldc-ode2' } });
      expect(answer.status).toBe(200);
      const again = await pendingLogin('legacy');
      expectFailure(tr, await tr.call('completeLogin', { cookie: again, body: { code: 'OLDC-ODE2' } }), 400, INVALID_CODE);
    });

    it('completelogin without a pending session answers 401', async () => {
      const { cookie, secret } = await userWithTwoFactor('nina');
      expectFailure(tr, await tr.call('completeLogin', { body: { code: codeFor(secret) } }), 401, 'Not logged in');
      // A fully signed-in session has nothing to complete either.
      expectFailure(tr, await tr.call('completeLogin', { cookie, body: { code: codeFor(secret) } }), 401, 'Not logged in');
    });

    it('answers 429 after 5 wrong codes on one pending session, even for the right code', async () => {
      const { secret } = await userWithTwoFactor('mallory');
      const pending = await pendingLogin('mallory');
      const wrong = wrongCodeFor(secret);
      for (let i = 0; i < 5; i++) {
        expectFailure(tr, await tr.call('completeLogin', { cookie: pending, body: { code: wrong } }), 400, INVALID_CODE);
      }
      expectFailure(tr, await tr.call('completeLogin', { cookie: pending, body: { code: codeFor(secret) } }), 429, TOO_MANY_CODES);
      expect(await me(pending)).toEqual({ loggedIn: false });
    });

    it('ends a pending session that waits longer than 10 minutes for its code', async () => {
      const { secret } = await userWithTwoFactor('slow');
      const pending = await pendingLogin('slow');
      expect((await sessionRow(pending))!.expiresAt).toBe(t.clock.now().getTime() + 10 * 60 * 1000);
      t.clock.advance(10 * 60 * 1000 + 1);
      expectFailure(tr, await tr.call('completeLogin', { cookie: pending, body: { code: codeFor(secret) } }), 401, 'Not logged in');
      expect(await sessionRow(pending)).toBeUndefined();
    });

    it('counts wrong codes per user too, so new password logins bring no fresh guesses', async () => {
      const { secret } = await userWithTwoFactor('brute');
      const wrong = wrongCodeFor(secret);
      for (let login = 0; login < 2; login++) {
        const pending = await pendingLogin('brute');
        for (let i = 0; i < 5; i++) {
          expectFailure(tr, await tr.call('completeLogin', { cookie: pending, body: { code: wrong } }), 400, INVALID_CODE);
        }
      }
      const third = await pendingLogin('brute');
      expectFailure(tr, await tr.call('completeLogin', { cookie: third, body: { code: codeFor(secret) } }), 429, TOO_MANY_CODES);
    });

    it('check on a pending session completes the sign-in like completelogin', async () => {
      const { secret } = await userWithTwoFactor('chris');
      const pending = await pendingLogin('chris');
      expectFailure(tr, await tr.call('check', { cookie: pending, body: { code: wrongCodeFor(secret) } }), 400, INVALID_CODE);
      const answer = await tr.call('check', { cookie: pending, body: { code: codeFor(secret) } });
      expect(answer.status).toBe(200);
      expect(answer.data.success).toBe(true);
      expect(typeof answer.data.message).toBe('string');
      expect((await me(sessionCookieOf(answer))).loggedIn).toBe(true);
    });
  });

  describe('check and disable', () => {
    it('check answers success with a valid code and refuses a wrong one', async () => {
      const { cookie, secret } = await userWithTwoFactor('carl');
      expectFailure(tr, await tr.call('check', { cookie, body: { code: wrongCodeFor(secret) } }), 400, INVALID_CODE);
      const answer = await tr.call('check', { cookie, body: { code: codeFor(secret) } });
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true, message: '2FA code is valid' });
    });

    it('check and disable are refused to a user without 2FA', async () => {
      await t.createUser(name('plain'));
      const cookie = await t.cookieFor(name('plain'));
      expectFailure(tr, await tr.call('check', { cookie, body: { code: '123456' } }), 400, 'Two-factor authentication is not enabled');
      expectFailure(tr, await tr.call('disable', { cookie, body: { code: '123456' } }), 400, 'Two-factor authentication is not enabled');
    });

    it('enabling and disabling 2FA end every other session of the user, keep the current one, and are audited', async () => {
      const user = await t.createUser(name('multi'));
      const cookie = await t.cookieFor(name('multi'));
      const phone = await t.cookieFor(name('multi'));
      const setup = await tr.call('setup', { cookie });
      expect((await tr.call('verify', { cookie, body: { code: codeFor(setup.data.secret) } })).status).toBe(200);
      expect((await me(cookie)).loggedIn).toBe(true);
      expect(await me(phone)).toEqual({ loggedIn: false });

      nextStep();
      const laptop = await t.cookieFor(name('multi'));
      expect((await tr.call('disable', { cookie, body: { code: codeFor(setup.data.secret) } })).status).toBe(200);
      expect((await me(cookie)).loggedIn).toBe(true);
      expect(await me(laptop)).toEqual({ loggedIn: false });

      const entries = await t.db.select().from(auditLog).where(eq(auditLog.actorId, user.id)).orderBy(asc(auditLog.id));
      expect(entries.map((e) => [e.action, e.target])).toEqual([
        ['auth.2fa_enabled', `user:${user.id} (${name('multi')})`],
        ['auth.2fa_disabled', `user:${user.id} (${name('multi')})`],
      ]);
    });

    it('disable refuses a wrong code and with a valid one turns 2FA off, so sign-in no longer asks for a code', async () => {
      const { user, cookie, secret } = await userWithTwoFactor('dora');
      expectFailure(tr, await tr.call('disable', { cookie, body: { code: wrongCodeFor(secret) } }), 400, INVALID_CODE);
      expect((await me(cookie)).user.two_factor_enabled).toBe(true);

      const answer = await tr.call('disable', { cookie, body: { code: codeFor(secret) } });
      expect(answer.status).toBe(200);
      expect(answer.data).toEqual({ success: true, message: '2FA disabled' });
      expect((await me(cookie)).user.two_factor_enabled).toBe(false);
      expect(await t.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id))).toEqual([]);
      expect(await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);

      const login = await tr.call('login', { body: { username: name('dora'), password: DEFAULT_PASSWORD } });
      expect(login.status).toBe(200);
      expect(login.data.success).toBe(true);
      expect(login.data.user.two_factor_enabled).toBe(false);
      expect((await me(sessionCookieOf(login))).loggedIn).toBe(true);
    });
  });
});
