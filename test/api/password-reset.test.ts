import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, passwordResets, users } from '../../src/db/schema';
import { housekeeping } from '../../src/features/housekeeping/housekeeping';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, freshIps, sessionCookieOf, transports } from '../support/transports';

/**
 * docs/architecture.md §5 forgot password: POST /api/account/forgot and /api/account/reset with their tRPC twins
 * account.forgotPassword and account.resetPassword; the mail is read from the real outbox.
 */

const MINUTE = 60 * 1000;
const INVALID_LINK = 'This password reset link is invalid or has expired. Request a new one.';

type Op = 'forgot' | 'reset' | 'login' | 'me';

let t: TestApp;
const freshIp = freshIps((high, low) => `10.80.${high}.${low}`);

const both = transports<Op>(
  () => t,
  {
    rest: {
      forgot: ['POST', '/api/account/forgot'],
      reset: ['POST', '/api/account/reset'],
      login: ['POST', '/api/account/login'],
      me: ['GET', '/api/account/me'],
    },
    trpc: {
      forgot: ['mutation', 'account.forgotPassword'],
      reset: ['mutation', 'account.resetPassword'],
      login: ['mutation', 'account.login'],
      me: ['query', 'account.me'],
    },
  },
  { ip: freshIp },
);

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://kerst.example.nl' } });
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  expect(t.errors).toEqual([]);
});

async function resetMails(to: string) {
  return t.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, 'password-reset'), eq(mailOutbox.toAddress, to)));
}

/** The token of the newest reset link mailed to that address. */
async function tokenMailedTo(to: string): Promise<string> {
  const mails = await resetMails(to);
  const text = mails.at(-1)?.textBody ?? '';
  const match = /\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

describe.each(both)('$name', (tr) => {
  const name = (base: string) => `${tr.p}_${base}`;

  async function userWithEmail(base: string) {
    const user = await t.createUser(name(base));
    const email = `${name(base)}@example.nl`;
    await t.db.update(users).set({ email }).where(eq(users.id, user.id));
    return { user, email };
  }

  it('answers {success:true} alike for an account with an address, one without, an unknown login and an inactive account', async () => {
    const { email } = await userWithEmail('has_mail');
    await t.createUser(name('no_mail'));
    await t.createUser(name('sleeper'), ['Users'], { status: 'inactive' });
    await t.db
      .update(users)
      .set({ email: `${name('sleeper')}@example.nl` })
      .where(eq(users.username, name('sleeper')));
    for (const login of [name('has_mail'), name('no_mail'), name('nobody_at_all'), name('sleeper')]) {
      const answer = await tr.call('forgot', { body: { login } });
      expect(answer.status, login).toBe(200);
      expect(answer.data, login).toEqual({ success: true });
    }
    expect(await resetMails(email)).toHaveLength(1);
    expect(await resetMails(`${name('sleeper')}@example.nl`)).toHaveLength(0);
  });

  it('mails an absolute single-use link on PUBLIC_URL, found by username or e-mail in any case, and stores only the token’s hash', async () => {
    const { user, email } = await userWithEmail('linda');
    await tr.call('forgot', { body: { login: email.toUpperCase() } });
    const [mail] = await resetMails(email);
    expect(mail!.subject).toBe('Choose a new password – Ronde Tafel 144 Harlingen');
    expect(mail!.textBody).toContain(`Hello ${name('linda')},`);
    expect(mail!.textBody).toMatch(/https:\/\/kerst\.example\.nl\/reset-password\?token=[A-Za-z0-9_-]{43}\n/);
    expect(mail!.textBody).toContain('valid for 1 hour');
    const token = await tokenMailedTo(email);
    const rows = await t.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.password_reset_requested'), eq(auditLog.target, `user:${user.id} (${name('linda')})`)));
    expect(entry?.actorId).toBeNull();
  });

  it('writes the mail in the language the user chose: Dutch for a user who chose Nederlands (decision 058)', async () => {
    const { email } = await userWithEmail('anneke');
    const cookie = await t.cookieFor(name('anneke'));
    expect((await t.request('/api/account/locale', { cookie, body: { locale: 'nl' } })).json).toEqual({ success: true });
    await tr.call('forgot', { body: { login: name('anneke') } });
    const [mail] = await resetMails(email);
    expect(mail!.subject).toBe('Kies een nieuw wachtwoord – Ronde Tafel 144 Harlingen');
    const token = await tokenMailedTo(email);
    expect(mail!.textBody).toBe(
      [
        `Hallo ${name('anneke')},`,
        '',
        'Er is gevraagd om een nieuw wachtwoord voor je account op de site van Ronde Tafel 144 Harlingen. Open deze link om er een te kiezen:',
        '',
        `https://kerst.example.nl/reset-password?token=${token}`,
        '',
        'De link werkt één keer en is 1 uur geldig. Heb je hier niet om gevraagd? Dan kun je deze mail negeren: je wachtwoord blijft zoals het is.',
        '',
        'Ronde Tafel 144 Harlingen',
      ].join('\n'),
    );
    expect(mail!.textBody).not.toContain('Hello');
    // The link works as any other.
    expect((await tr.call('reset', { body: { token, new_password: 'een-nieuw-wachtwoord' } })).status).toBe(200);
  });

  it('sets the new password once, ends every session of the user, and audits it', async () => {
    const { user, email } = await userWithEmail('rob');
    const laptop = await t.cookieFor(name('rob'));
    await tr.call('forgot', { body: { login: name('rob') } });
    const token = await tokenMailedTo(email);

    const answer = await tr.call('reset', { body: { token, new_password: 'a-brand-new-secret' } });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ success: true });
    expect((await tr.call('me', { cookie: laptop })).data).toEqual({ loggedIn: false });
    expectFailure(tr, await tr.call('login', { body: { username: name('rob'), password: 'password123' } }), 401, 'Invalid username or password');
    const login = await tr.call('login', { body: { username: name('rob'), password: 'a-brand-new-secret' } });
    expect(login.status).toBe(200);
    expect((await tr.call('me', { cookie: sessionCookieOf(login) })).data.loggedIn).toBe(true);

    expectFailure(tr, await tr.call('reset', { body: { token, new_password: 'yet-another-one' } }), 400, INVALID_LINK);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.password_reset'), eq(auditLog.actorId, user.id)));
    expect(entries).toHaveLength(1);
  });

  it('refuses a too-short password without using up the link', async () => {
    const { email } = await userWithEmail('shorty');
    await tr.call('forgot', { body: { login: name('shorty') } });
    const token = await tokenMailedTo(email);
    expectFailure(tr, await tr.call('reset', { body: { token, new_password: 'abc' } }), 400, 'Password must be at least 6 characters');
    expect((await tr.call('reset', { body: { token, new_password: 'long-enough' } })).status).toBe(200);
  });

  it('refuses an unknown, a malformed and an expired link, and an older link once a newer one was sent', async () => {
    const { email } = await userWithEmail('late');
    expectFailure(tr, await tr.call('reset', { body: { token: 'A'.repeat(43), new_password: 'whatever1' } }), 400, INVALID_LINK);
    expectFailure(tr, await tr.call('reset', { body: { token: 'nonsense', new_password: 'whatever1' } }), 400, INVALID_LINK);

    await tr.call('forgot', { body: { login: name('late') } });
    const first = await tokenMailedTo(email);
    await tr.call('forgot', { body: { login: name('late') } });
    const second = await tokenMailedTo(email);
    expect(second).not.toBe(first);
    expectFailure(tr, await tr.call('reset', { body: { token: first, new_password: 'whatever1' } }), 400, INVALID_LINK);

    t.clock.advance(60 * MINUTE);
    expectFailure(tr, await tr.call('reset', { body: { token: second, new_password: 'whatever1' } }), 400, INVALID_LINK);
  });

  it('mails one account at most 3 links an hour, still answering success, and limits an address to 5 requests in 15 minutes', async () => {
    const { email } = await userWithEmail('popular');
    for (let i = 0; i < 5; i++) expect((await tr.call('forgot', { body: { login: name('popular') } })).data).toEqual({ success: true });
    expect(await resetMails(email)).toHaveLength(3);

    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await tr.call('forgot', { ip, body: { login: name(`x${i}`) } })).status).toBe(200);
    expectFailure(tr, await tr.call('forgot', { ip, body: { login: name('popular') } }), 429, 'Too many requests. Please wait 15 minutes and try again.');
  });

  it('asks for a username or e-mail', async () => {
    expectFailure(tr, await tr.call('forgot', { body: { login: '  ' } }), 400, 'Username or email is required');
  });
});

describe('without PUBLIC_URL', () => {
  it('builds the link on the default origin http://HOST:PORT, not the address the request came in on', async () => {
    const plain = await createTestApp();
    try {
      const user = await plain.createUser('origin_user');
      await plain.db.update(users).set({ email: 'origin@example.nl' }).where(eq(users.id, user.id));
      expect((await plain.request('/api/account/forgot', { body: { login: 'origin_user' } })).status).toBe(200);
      const [mail] = await plain.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'password-reset'));
      expect(mail!.textBody).toMatch(/http:\/\/127\.0\.0\.1:8787\/reset-password\?token=/);
    } finally {
      await plain.close();
    }
  });
});

describe('housekeeping', () => {
  it('removes reset links an hour after they ended', async () => {
    const user = await t.createUser('housekept');
    await t.db.update(users).set({ email: 'housekept@example.nl' }).where(eq(users.id, user.id));
    await t.request('/api/account/forgot', { body: { login: 'housekept' }, headers: { 'x-test-client-ip': freshIp() } });
    expect(await t.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).toHaveLength(1);
    t.clock.advance(119 * MINUTE);
    await housekeeping(t.deps);
    expect(await t.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).toHaveLength(1);
    t.clock.advance(2 * MINUTE);
    await housekeeping(t.deps);
    expect(await t.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).toHaveLength(0);
  });
});
