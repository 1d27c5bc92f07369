import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';

/**
 * docs/decisions/011, the back-office language: POST /api/account/locale `{locale}` and its tRPC twin
 * account.setLocale store the signed-in user's choice; every profile (/me, sign-in, the user list) says it.
 */

type Op = 'me' | 'setLocale' | 'users';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  expect(t.errors).toEqual([]);
});

const both = transports<Op>(() => t, {
  rest: { me: ['GET', '/api/account/me'], setLocale: ['POST', '/api/account/locale'], users: ['GET', '/api/users'] },
  trpc: { me: ['query', 'account.me'], setLocale: ['mutation', 'account.setLocale'], users: ['query', 'users.list'] },
});

describe.each(both)('$name', (tr) => {
  const name = (base: string) => `${tr.p}_${base}`;

  it('starts in English, stores Dutch and back, and leaves updated_at alone', async () => {
    const created = await t.createUser(name('treasurer'));
    const cookie = await t.cookieFor(name('treasurer'));
    expect((await tr.call('me', { cookie })).data.user.locale).toBe('en');
    const updatedAt = (await t.db.select().from(users).where(eq(users.id, created.id)))[0]!.updatedAt;

    expect((await tr.call('setLocale', { cookie, body: { locale: 'nl' } })).data).toEqual({ success: true });
    expect((await tr.call('me', { cookie })).data.user.locale).toBe('nl');
    const [row] = await t.db.select().from(users).where(eq(users.id, created.id));
    expect(row!.locale).toBe('nl');
    expect(row!.updatedAt).toBe(updatedAt);

    // An admin's user list shows each user's choice too (one profile shape everywhere).
    const admin = await t.cookieFor('admin');
    const listed = (await tr.call('users', { cookie: admin })).data.users.find((u: { id: number }) => u.id === created.id);
    expect(listed.locale).toBe('nl');

    expect((await tr.call('setLocale', { cookie, body: { locale: 'en' } })).data).toEqual({ success: true });
    expect((await tr.call('me', { cookie })).data.user.locale).toBe('en');
  });

  it('changes only the caller’s own language', async () => {
    const a = await t.createUser(name('lang_a'));
    const b = await t.createUser(name('lang_b'));
    await tr.call('setLocale', { cookie: await t.cookieFor(name('lang_a')), body: { locale: 'nl' } });
    const rows = await t.db.select({ id: users.id, locale: users.locale }).from(users);
    expect(rows.find((r) => r.id === a.id)!.locale).toBe('nl');
    expect(rows.find((r) => r.id === b.id)!.locale).toBe('en');
  });

  it('refuses a language it does not have, a missing one, and a visitor who is not signed in', async () => {
    await t.createUser(name('lang_bad'));
    const cookie = await t.cookieFor(name('lang_bad'));
    const message = 'Locale must be one of: en, nl';
    expectFailure(tr, await tr.call('setLocale', { cookie, body: { locale: 'de' } }), 400, message);
    expectFailure(tr, await tr.call('setLocale', { cookie, body: { locale: 'NL' } }), 400, message);
    expectFailure(tr, await tr.call('setLocale', { cookie, body: {} }), 400, message);
    expectFailure(tr, await tr.call('setLocale', { body: { locale: 'nl' } }), 401, 'Not logged in');
    expect((await tr.call('me', { cookie })).data.user.locale).toBe('en');
  });
});
