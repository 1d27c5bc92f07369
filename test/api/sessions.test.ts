import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions } from '../../src/db/schema';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, sessionCookieOf, transports } from '../support/transports';

/**
 * docs/architecture.md §5 the account's sessions: GET /api/account/sessions, POST /api/account/sessions/revoke and
 * /revoke-others, with their tRPC twins account.sessions, account.revokeSession, account.revokeOtherSessions.
 */

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
const LAPTOP_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

type Op = 'login' | 'me' | 'sessions' | 'revoke' | 'revokeOthers';

let t: TestApp;

const both = transports<Op>(() => t, {
  rest: {
    login: ['POST', '/api/account/login'],
    me: ['GET', '/api/account/me'],
    sessions: ['GET', '/api/account/sessions'],
    revoke: ['POST', '/api/account/sessions/revoke'],
    revokeOthers: ['POST', '/api/account/sessions/revoke-others'],
  },
  trpc: {
    login: ['mutation', 'account.login'],
    me: ['query', 'account.me'],
    sessions: ['query', 'account.sessions'],
    revoke: ['mutation', 'account.revokeSession'],
    revokeOthers: ['mutation', 'account.revokeOtherSessions'],
  },
});

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

  async function signIn(base: string, userAgent: string, ip: string) {
    const answer = await tr.call('login', { ip, headers: { 'user-agent': userAgent }, body: { username: name(base), password: 'password123' } });
    expect(answer.status).toBe(200);
    return sessionCookieOf(answer);
  }

  it('needs a signed-in user', async () => {
    expectFailure(tr, await tr.call('sessions'), 401, 'Not logged in');
    expectFailure(tr, await tr.call('revoke', { body: { id: 'x' } }), 401, 'Not logged in');
    expectFailure(tr, await tr.call('revokeOthers'), 401, 'Not logged in');
  });

  it('lists the caller’s sessions with device, address, sign-in and last-seen time, marking the current one', async () => {
    await t.createUser(name('lister'));
    await signIn('lister', PHONE_UA, '10.1.1.1');
    t.clock.advance(60_000);
    const laptop = await signIn('lister', LAPTOP_UA, '10.2.2.2');
    const answer = await tr.call('sessions', { cookie: laptop });
    expect(answer.status).toBe(200);
    const list = answer.data.sessions as { id: string; current: boolean; user_agent: string; ip: string; created_at: string; last_seen_at: string }[];
    expect(list.map((s) => [s.user_agent, s.ip, s.current])).toEqual([
      [LAPTOP_UA, '10.2.2.2', true],
      [PHONE_UA, '10.1.1.1', false],
    ]);
    expect(list[0]!.created_at).toBe(t.clock.now().toISOString());
    expect(list[1]!.last_seen_at).toBe(new Date(t.clock.now().getTime() - 60_000).toISOString());
    // The id is not what identifies a session row (the token's SHA-256).
    const rows = await t.db.select({ id: sessions.id }).from(sessions);
    for (const s of list) {
      expect(s.id).toMatch(/^[0-9a-f]{32}$/);
      expect(rows.some((row) => row.id.startsWith(s.id))).toBe(false);
    }
  });

  it('lists this device first, then the others most recently used first', async () => {
    await t.createUser(name('orderer'));
    const phone = await signIn('orderer', PHONE_UA, '10.1.1.1');
    t.clock.advance(60_000);
    await signIn('orderer', LAPTOP_UA, '10.2.2.2');
    t.clock.advance(60_000);
    await signIn('orderer', 'Tablet', '10.3.3.3');
    const list = (await tr.call('sessions', { cookie: phone })).data.sessions as { current: boolean; ip: string }[];
    expect(list.map((s) => [s.ip, s.current])).toEqual([
      ['10.1.1.1', true],
      ['10.3.3.3', false],
      ['10.2.2.2', false],
    ]);
  });

  it('signs out one other session, audited; its cookie is then Not logged in', async () => {
    const user = await t.createUser(name('revoker'));
    const phone = await signIn('revoker', PHONE_UA, '10.1.1.1');
    const laptop = await signIn('revoker', LAPTOP_UA, '10.2.2.2');
    const list = (await tr.call('sessions', { cookie: laptop })).data.sessions as { id: string; current: boolean }[];
    const other = list.find((s) => !s.current)!;
    const answer = await tr.call('revoke', { cookie: laptop, body: { id: other.id } });
    expect(answer.status).toBe(200);
    expect(answer.data).toEqual({ success: true });
    expect((await tr.call('me', { cookie: phone })).data).toEqual({ loggedIn: false });
    expect((await tr.call('me', { cookie: laptop })).data.loggedIn).toBe(true);
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.session_revoked'), eq(auditLog.actorId, user.id)));
    expect(entries.map((e) => JSON.parse(e.details))).toEqual([{ user_agent: PHONE_UA, ip: '10.1.1.1' }]);
  });

  it('answers 404 for a session of another user, and for an unknown id', async () => {
    await t.createUser(name('owner'));
    await t.createUser(name('intruder'));
    const owners = await signIn('owner', PHONE_UA, '10.1.1.1');
    const intruder = await signIn('intruder', LAPTOP_UA, '10.3.3.3');
    const ownersId = ((await tr.call('sessions', { cookie: owners })).data.sessions as { id: string }[])[0]!.id;
    expectFailure(tr, await tr.call('revoke', { cookie: intruder, body: { id: ownersId } }), 404, 'Session not found');
    expectFailure(tr, await tr.call('revoke', { cookie: intruder, body: { id: 'f'.repeat(32) } }), 404, 'Session not found');
    expect((await tr.call('me', { cookie: owners })).data.loggedIn).toBe(true);
  });

  it('signs out every other session and keeps this one', async () => {
    await t.createUser(name('cleaner'));
    const a = await signIn('cleaner', PHONE_UA, '10.1.1.1');
    const b = await signIn('cleaner', LAPTOP_UA, '10.2.2.2');
    const c = await signIn('cleaner', LAPTOP_UA, '10.4.4.4');
    expect((await tr.call('revokeOthers', { cookie: c })).data).toEqual({ success: true });
    expect((await tr.call('me', { cookie: a })).data).toEqual({ loggedIn: false });
    expect((await tr.call('me', { cookie: b })).data).toEqual({ loggedIn: false });
    expect((await tr.call('sessions', { cookie: c })).data.sessions).toHaveLength(1);
  });
});
