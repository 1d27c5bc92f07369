import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  auditLog,
  groupPermissions,
  groups,
  mailOutbox,
  passwordResets,
  permissions,
  recoveryCodes,
  sessions,
  twoFactorSecrets,
  userGroups,
  users,
} from '../../src/db/schema';
import { createNodeSmtpTransport } from '../../src/platform/smtp-node';
import { parseMime, startSmtpSink, textOf } from '../support/smtp-sink';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports, type Answer, type CallInit } from '../support/transports';

/**
 * docs/product.md §2 User Management, §4 user status, §5 admin rules, §6 permissions, §7 users calls and docs/architecture.md §4:
 * GET /api/users, POST /api/users/assigngroup, /removegroup, /edituser?id=, GET /api/users/deleteuser?id=
 * over REST, and their tRPC twins users.list / assignGroup / removeGroup / edit / delete.
 */

const LAST_ADMIN = 'At least one active administrator must remain';
const DEFAULT_PASSWORD = 'password123';

type Op = 'list' | 'assign' | 'remove' | 'edit' | 'delete';

let t: TestApp;

/** edit and delete take the user as `?id=` over REST and as the `id` input over tRPC. */
const both = transports<Op>(() => t, {
  rest: {
    list: ['GET', '/api/users'],
    assign: ['POST', '/api/users/assigngroup'],
    remove: ['POST', '/api/users/removegroup'],
    edit: ['POST', '/api/users/edituser', 'id'],
    delete: ['GET', '/api/users/deleteuser', 'id'],
  },
  trpc: {
    list: ['query', 'users.list'],
    assign: ['mutation', 'users.assignGroup'],
    remove: ['mutation', 'users.removeGroup'],
    edit: ['mutation', 'users.edit', 'id'],
    delete: ['mutation', 'users.delete', 'id'],
  },
});

function expectSuccess(answer: Answer) {
  expect(answer.status).toBe(200);
  expect(answer.data).toEqual({ success: true });
}

async function me(cookie: string) {
  const r = await t.request('/api/account/me', { cookie });
  expect(r.status).toBe(200);
  return r.json;
}

async function userRow(id: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row;
}

async function groupIdOf(name: string): Promise<number> {
  const [row] = await t.db.select().from(groups).where(eq(groups.name, name));
  return row!.id;
}

async function membershipsOf(userId: number): Promise<number[]> {
  return (await t.db.select().from(userGroups).where(eq(userGroups.userId, userId))).map((m) => m.groupId).sort((a, b) => a - b);
}

/** A deletable group holding exactly the given permissions, made directly in the database. */
async function groupWith(name: string, keys: string[]): Promise<number> {
  const [group] = await t.db.insert(groups).values({ name, description: '' }).returning();
  for (const key of keys) {
    const [permission] = await t.db.select().from(permissions).where(eq(permissions.key, key));
    await t.db.insert(groupPermissions).values({ groupId: group!.id, permissionId: permission!.id });
  }
  return group!.id;
}

async function setSetting(cookie: string, key: string, value: string | number) {
  const r = await t.request('/api/settings/update', { cookie, body: { key, value } });
  expect(r.json).toEqual({ success: true });
}

describe.each(both)('$name', (tr) => {
  let adminCookie: string;
  let adminId: number;
  let plainCookie: string;
  let plainId: number;
  let assignerCookie: string;
  let deleterCookie: string;
  let usersGroupId: number;
  let adminsGroupId: number;

  beforeAll(async () => {
    t = await createTestApp();
    usersGroupId = await groupIdOf('Users');
    adminsGroupId = await groupIdOf('Administrators');
    await groupWith('Assigners', ['users.assign']);
    await groupWith('Deleters', ['users.delete']);
    adminId = (await t.db.select().from(users).where(eq(users.username, 'admin')))[0]!.id;
    plainId = (await t.createUser('plain', ['Users'])).id;
    await t.createUser('assigner', ['Users', 'Assigners']);
    await t.createUser('deleter', ['Users', 'Deleters']);
    adminCookie = await t.cookieFor('admin');
    plainCookie = await t.cookieFor('plain');
    assignerCookie = await t.cookieFor('assigner');
    deleterCookie = await t.cookieFor('deleter');
  });

  afterAll(async () => {
    await t.close();
  });

  afterEach(() => {
    // Expected failures are answers, never logged crashes.
    expect(t.errors).toEqual([]);
  });

  describe('list', () => {
    it('lists every user, ordered by id, each exactly as /api/account/me shows them', async () => {
      const answer = await tr.call('list', { cookie: adminCookie });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.data)).toEqual(['users']);
      const list = answer.data.users as { id: number; username: string }[];
      const ids = (await t.db.select({ id: users.id }).from(users)).map((u) => u.id).sort((a, b) => a - b);
      expect(list.map((u) => u.id)).toEqual(ids);
      expect(list.find((u) => u.id === adminId)).toEqual((await me(adminCookie)).user);
      expect(list.find((u) => u.id === plainId)).toEqual((await me(plainCookie)).user);
      const now = t.clock.now().toISOString();
      expect(list.find((u) => u.id === plainId)).toEqual({
        id: plainId,
        username: 'plain',
        email: null,
        status: 'active',
        deletable: true,
        created_at: now,
        updated_at: now,
        two_factor_enabled: false,
        locale: 'en',
        groups: [{ id: usersGroupId, name: 'Users' }],
        permissions: [],
      });
      expect(list.find((u) => u.username === 'assigner')).toMatchObject({ permissions: [{ key: 'users.assign' }] });
    });

    it('shows two-factor users and inactive users as they are', async () => {
      const sleeper = await t.createUser('sleeper', ['Users'], { status: 'inactive' });
      const now = t.clock.now().toISOString();
      await t.db.insert(twoFactorSecrets).values({ userId: sleeper.id, secretEncrypted: 'x', enabledAt: now, createdAt: now });
      const list = (await tr.call('list', { cookie: adminCookie })).data.users;
      expect(list.find((u: { id: number }) => u.id === sleeper.id)).toMatchObject({ status: 'inactive', two_factor_enabled: true });
    });
  });

  describe('who may call', () => {
    const calls: [Op, CallInit][] = [
      ['list', {}],
      ['assign', { body: { user_id: 2, group_id: 1 } }],
      ['remove', { body: { user_id: 2, group_id: 1 } }],
      ['edit', { id: 2, body: { status: 'inactive' } }],
      ['delete', { id: 2 }],
    ];

    it('refuses anonymous visitors with 401 "Not logged in" on every call, before reading the input', async () => {
      for (const [op, init] of calls) expectFailure(tr, await tr.call(op, init), 401, 'Not logged in');
      for (const op of ['assign', 'remove', 'edit'] as Op[]) expectFailure(tr, await tr.call(op, { id: 'abc', rawBody: '{nope' }), 401, 'Not logged in');
    });

    it('refuses signed-in users without admin.access with 403 "Forbidden" on every call, before reading the input', async () => {
      for (const [op, init] of calls) expectFailure(tr, await tr.call(op, { ...init, cookie: plainCookie }), 403, 'Forbidden');
      expectFailure(tr, await tr.call('assign', { cookie: plainCookie, rawBody: '{nope' }), 403, 'Forbidden');
      expectFailure(tr, await tr.call('delete', { cookie: plainCookie, id: 'abc' }), 403, 'Forbidden');
    });

    it('refuses a holder of users.assign or users.delete without admin.access: the user table is the admin area', async () => {
      for (const cookie of [assignerCookie, deleterCookie]) {
        for (const [op, init] of calls) expectFailure(tr, await tr.call(op, { ...init, cookie }), 403, 'Forbidden');
      }
      const victim = await t.createUser('untouched', ['Users']);
      expectFailure(tr, await tr.call('assign', { cookie: assignerCookie, body: { user_id: victim.id, group_id: adminsGroupId } }), 403, 'Forbidden');
      expectFailure(tr, await tr.call('delete', { cookie: deleterCookie, id: victim.id }), 403, 'Forbidden');
      expect(await membershipsOf(victim.id)).toEqual([usersGroupId]);
      expect(await userRow(victim.id)).toBeDefined();
    });

    it('lets an admin make every call: admin.access passes the users.assign and users.delete checks', async () => {
      const u = await t.createUser('everything', ['Users']);
      expectSuccess(await tr.call('assign', { cookie: adminCookie, body: { user_id: u.id, group_id: adminsGroupId } }));
      expectSuccess(await tr.call('remove', { cookie: adminCookie, body: { user_id: u.id, group_id: adminsGroupId } }));
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { status: 'inactive' } }));
      expectSuccess(await tr.call('delete', { cookie: adminCookie, id: u.id }));
    });
  });

  describe('assign and remove groups', () => {
    it('assigns a group: the user is in it and holds its permissions at once', async () => {
      const u = await t.createUser('joiner', ['Users']);
      const cookie = await t.cookieFor('joiner');
      const assignersId = await groupIdOf('Assigners');
      t.clock.advance(60_000);
      const answer = await tr.call('assign', { cookie: adminCookie, body: { user_id: u.id, group_id: assignersId } });
      expectSuccess(answer);
      if (tr.name === 'REST') expect(answer.json).toEqual({ success: true });
      expect(await membershipsOf(u.id)).toEqual([usersGroupId, assignersId].sort((a, b) => a - b));
      const shown = (await me(cookie)).user;
      expect(shown.groups).toEqual([
        { id: usersGroupId, name: 'Users' },
        { id: assignersId, name: 'Assigners' },
      ]);
      expect(shown.permissions).toEqual([{ key: 'users.assign' }]);
      expect(shown.updated_at).toBe(t.clock.now().toISOString());
    });

    it('assigns a group twice without a second membership or an error', async () => {
      const u = await t.createUser('twice', ['Users']);
      for (let i = 0; i < 2; i++) expectSuccess(await tr.call('assign', { cookie: adminCookie, body: { user_id: u.id, group_id: usersGroupId } }));
      expect(await membershipsOf(u.id)).toEqual([usersGroupId]);
    });

    it('accepts ids sent as digit strings, as a select box gives them', async () => {
      const u = await t.createUser('stringy', []);
      expectSuccess(await tr.call('assign', { cookie: adminCookie, body: { user_id: String(u.id), group_id: String(usersGroupId) } }));
      expect(await membershipsOf(u.id)).toEqual([usersGroupId]);
    });

    it('removes a group, and removing it again is a success that changes nothing', async () => {
      const u = await t.createUser('leaver', ['Users', 'Assigners']);
      const cookie = await t.cookieFor('leaver');
      const assignersId = await groupIdOf('Assigners');
      expectSuccess(await tr.call('remove', { cookie: adminCookie, body: { user_id: u.id, group_id: assignersId } }));
      expect(await membershipsOf(u.id)).toEqual([usersGroupId]);
      expect((await me(cookie)).user.permissions).toEqual([]);
      expectSuccess(await tr.call('remove', { cookie: adminCookie, body: { user_id: u.id, group_id: assignersId } }));
      expect(await membershipsOf(u.id)).toEqual([usersGroupId]);
    });

    it('refuses to change the groups of a non-deletable user (docs/product.md §5: the selector is editable only for deletable users)', async () => {
      for (const op of ['assign', 'remove'] as const) {
        for (const group_id of [usersGroupId, adminsGroupId]) {
          const answer = await tr.call(op, { cookie: adminCookie, body: { user_id: adminId, group_id } });
          expectFailure(tr, answer, 400, "This user's groups cannot be changed");
        }
      }
      expect(await membershipsOf(adminId)).toEqual([adminsGroupId]);
    });

    it('answers an unknown user or group with 404', async () => {
      for (const op of ['assign', 'remove'] as const) {
        expectFailure(tr, await tr.call(op, { cookie: adminCookie, body: { user_id: 999_999, group_id: usersGroupId } }), 404, 'User not found');
        expectFailure(tr, await tr.call(op, { cookie: adminCookie, body: { user_id: plainId, group_id: 999_999 } }), 404, 'Group not found');
      }
      expect(await membershipsOf(plainId)).toEqual([usersGroupId]);
    });

    it('lets an admin take the admin group from another admin while an active admin remains', async () => {
      const other = await t.createUser('coadmin', ['Administrators']);
      const cookie = await t.cookieFor('coadmin');
      expectSuccess(await tr.call('remove', { cookie: adminCookie, body: { user_id: other.id, group_id: adminsGroupId } }));
      expect(await membershipsOf(other.id)).toEqual([]);
      expectFailure(tr, await tr.call('list', { cookie }), 403, 'Forbidden');
    });

    it('never takes the admin group from the last active admin, and does once another admin is active again', async () => {
      const boss = await t.createUser('boss', ['Administrators', 'Users']);
      const bossCookie = await t.cookieFor('boss');
      // The first admin is switched off: boss is the only active admin.
      expectSuccess(await tr.call('edit', { cookie: bossCookie, id: adminId, body: { status: 'inactive' } }));
      expectFailure(tr, await tr.call('remove', { cookie: bossCookie, body: { user_id: boss.id, group_id: adminsGroupId } }), 400, LAST_ADMIN);
      expect(await membershipsOf(boss.id)).toContain(adminsGroupId);
      // A group without admin.access can still go.
      expectSuccess(await tr.call('remove', { cookie: bossCookie, body: { user_id: boss.id, group_id: usersGroupId } }));

      expectSuccess(await tr.call('edit', { cookie: bossCookie, id: adminId, body: { status: 'active' } }));
      adminCookie = await t.cookieFor('admin');
      expectSuccess(await tr.call('remove', { cookie: bossCookie, body: { user_id: boss.id, group_id: adminsGroupId } }));
      expect(await membershipsOf(boss.id)).toEqual([]);
      expectFailure(tr, await tr.call('list', { cookie: bossCookie }), 403, 'Forbidden');
    });

    it.each([
      ['an empty body', {}, 'Invalid user_id'],
      ['a missing group_id', { user_id: 2 }, 'Invalid group_id'],
      ['a user_id that is text', { user_id: 'abc', group_id: 1 }, 'Invalid user_id'],
      ['a user_id of 0', { user_id: 0, group_id: 1 }, 'Invalid user_id'],
      ['a negative group_id', { user_id: 2, group_id: -1 }, 'Invalid group_id'],
      ['a fractional group_id', { user_id: 2, group_id: 1.5 }, 'Invalid group_id'],
      ['a user_id that is null', { user_id: null, group_id: 1 }, 'Invalid user_id'],
    ])('answers %s with 400 and a readable error', async (_what, body, message) => {
      for (const op of ['assign', 'remove'] as const) expectFailure(tr, await tr.call(op, { cookie: adminCookie, body }), 400, message);
    });

    it('answers a body that is not an object, or not JSON, with 400, never a 500', async () => {
      for (const rawBody of ['[]', 'null', '42', '"x"']) {
        const answer = await tr.call('assign', { cookie: adminCookie, rawBody });
        expect(answer.status).toBe(400);
      }
      expectFailure(tr, await tr.call('assign', { cookie: adminCookie, rawBody: '{"user_id": 2,' }), 400, 'Malformed JSON body');
    });
  });

  describe('edit a user', () => {
    it("changes another user's password: the old one stops working, the new one works, and their sessions end", async () => {
      const u = await t.createUser('forgetful', ['Users']);
      const first = await t.cookieFor('forgetful');
      const second = await t.cookieFor('forgetful');
      const answer = await tr.call('edit', { cookie: adminCookie, id: u.id, body: { password: 'nieuw-wachtwoord' } });
      expectSuccess(answer);
      if (tr.name === 'REST') expect(answer.json).toEqual({ success: true });
      expect(await me(first)).toEqual({ loggedIn: false });
      expect(await me(second)).toEqual({ loggedIn: false });
      expect(await t.db.select().from(sessions).where(eq(sessions.userId, u.id))).toEqual([]);
      const row = await userRow(u.id);
      expect(await t.deps.passwords.verify(row!.passwordHash, 'nieuw-wachtwoord')).toBe(true);
      expect(await t.deps.passwords.verify(row!.passwordHash, DEFAULT_PASSWORD)).toBe(false);
      const login = await t.request('/api/account/login', {
        body: { username: 'forgetful', password: 'nieuw-wachtwoord' },
        headers: { 'x-test-client-ip': '10.9.0.1' },
      });
      expect(login.json.success).toBe(true);
    });

    it('keeps the session an admin uses when they change their own password, and ends their others', async () => {
      await t.createUser('selfish', ['Administrators']);
      const current = await t.cookieFor('selfish');
      const other = await t.cookieFor('selfish');
      const selfId = (await me(current)).user.id;
      expectSuccess(await tr.call('edit', { cookie: current, id: selfId, body: { password: 'eigen-nieuw' } }));
      expect((await me(current)).loggedIn).toBe(true);
      expect(await me(other)).toEqual({ loggedIn: false });
    });

    it('refuses a password shorter than password_min_length with its own text', async () => {
      const u = await t.createUser('shorty', ['Users']);
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: u.id, body: { password: '12345' } }), 400, 'Password must be at least 6 characters.');
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: u.id, body: { password: '' } }), 400, 'Password must be at least 6 characters.');
      await setSetting(adminCookie, 'password_min_length', 10);
      try {
        expectFailure(
          tr,
          await tr.call('edit', { cookie: adminCookie, id: u.id, body: { password: '123456789' } }),
          400,
          'Password must be at least 10 characters.',
        );
        expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { password: '1234567890' } }));
      } finally {
        await setSetting(adminCookie, 'password_min_length', 6);
      }
      expectFailure(
        tr,
        await tr.call('edit', { cookie: adminCookie, id: u.id, body: { password: 'x'.repeat(257) } }),
        400,
        'Password must be at most 256 characters.',
      );
    });

    it('sets a user inactive: their sessions end and they cannot sign in; active again lets them in', async () => {
      const u = await t.createUser('napper', ['Users']);
      const cookie = await t.cookieFor('napper');
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { status: 'inactive' } }));
      expect(await me(cookie)).toEqual({ loggedIn: false });
      expect(await t.db.select().from(sessions).where(eq(sessions.userId, u.id))).toEqual([]);
      const list = (await tr.call('list', { cookie: adminCookie })).data.users;
      expect(list.find((x: { id: number }) => x.id === u.id).status).toBe('inactive');
      const ip = { 'x-test-client-ip': '10.9.0.2' };
      const refused = await t.request('/api/account/login', { body: { username: 'napper', password: DEFAULT_PASSWORD }, headers: ip });
      expect(refused.json).toMatchObject({ success: false, error: 'Account is not active', code: 'ACCOUNT_INACTIVE' });

      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { status: 'active' } }));
      expect((await userRow(u.id))?.status).toBe('active');
      const login = await t.request('/api/account/login', { body: { username: 'napper', password: DEFAULT_PASSWORD }, headers: ip });
      expect(login.json.success).toBe(true);
    });

    it('never lets an admin deactivate themselves', async () => {
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: adminId, body: { status: 'inactive' } }), 400, 'You cannot deactivate yourself');
      expect((await userRow(adminId))?.status).toBe('active');
      expect((await me(adminCookie)).loggedIn).toBe(true);
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: adminId, body: { status: 'active' } }));
    });

    it('sets, changes and clears the e-mail address, and refuses a bad or taken one', async () => {
      const u = await t.createUser('mailer', ['Users']);
      const other = await t.createUser('mailtaken', ['Users']);
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: other.id, body: { email: 'bezet@example.nl' } }));
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { email: '  Piet@Example.nl ' } }));
      expect((await userRow(u.id))?.email).toBe('Piet@Example.nl');
      // The same address again is no conflict with itself.
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { email: 'piet@example.nl' } }));
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: u.id, body: { email: 'BEZET@example.nl' } }), 409, 'Email is already in use');
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: u.id, body: { email: 'geen-adres' } }), 400, 'Invalid email address');
      expect((await userRow(u.id))?.email).toBe('piet@example.nl');
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { email: '' } }));
      expect((await userRow(u.id))?.email).toBeNull();
      const list = (await tr.call('list', { cookie: adminCookie })).data.users;
      expect(list.find((x: { id: number }) => x.id === u.id).email).toBeNull();
    });

    it('changes several fields at once and keeps those not sent', async () => {
      const u = await t.createUser('multi', ['Users']);
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { email: 'multi@example.nl', status: 'inactive', password: 'samen-nieuw' } }));
      const row = await userRow(u.id);
      expect(row).toMatchObject({ email: 'multi@example.nl', status: 'inactive' });
      expect(await t.deps.passwords.verify(row!.passwordHash, 'samen-nieuw')).toBe(true);
      expectSuccess(await tr.call('edit', { cookie: adminCookie, id: u.id, body: { status: 'active' } }));
      expect(await userRow(u.id)).toMatchObject({ email: 'multi@example.nl', status: 'active', passwordHash: row!.passwordHash });
    });

    it('refuses an edit with nothing to change, a wrong status, an unknown user and a bad id', async () => {
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: plainId, body: {} }), 400, 'Nothing to change');
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: plainId, body: { status: 'banned' } }), 400, 'Status must be active or inactive');
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: plainId, body: { password: 12345678 } }), 400, 'Password must be text');
      expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id: 999_999, body: { status: 'active' } }), 404, 'User not found');
      for (const id of [undefined, 'abc', 0, -3, 1.5, '']) {
        expectFailure(tr, await tr.call('edit', { cookie: adminCookie, id, body: { status: 'active' } }), 400, 'Invalid id');
      }
      expect((await userRow(plainId))?.status).toBe('active');
    });

    it('answers a malformed body with 400, never a 500', async () => {
      const answer = await tr.call('edit', { cookie: adminCookie, id: plainId, rawBody: '{"status": ' });
      if (tr.name === 'REST') expectFailure(tr, answer, 400, 'Malformed JSON body');
      else expect(answer.status).toBe(400);
      for (const rawBody of ['[]', 'null', '7']) expect((await tr.call('edit', { cookie: adminCookie, id: plainId, rawBody })).status).toBe(400);
    });
  });

  describe('delete a user', () => {
    it('deletes a user with their sessions, group memberships and two-factor data', async () => {
      const u = await t.createUser('goner', ['Users', 'Assigners']);
      const cookie = await t.cookieFor('goner');
      const now = t.clock.now().toISOString();
      await t.db.insert(twoFactorSecrets).values({ userId: u.id, secretEncrypted: 'x', enabledAt: now, createdAt: now });
      await t.db.insert(recoveryCodes).values([
        { userId: u.id, codeHash: 'a' },
        { userId: u.id, codeHash: 'b' },
      ]);
      const answer = await tr.call('delete', { cookie: adminCookie, id: u.id });
      expectSuccess(answer);
      if (tr.name === 'REST') expect(answer.json).toEqual({ success: true });
      expect(await userRow(u.id)).toBeUndefined();
      expect(await t.db.select().from(sessions).where(eq(sessions.userId, u.id))).toEqual([]);
      expect(await t.db.select().from(userGroups).where(eq(userGroups.userId, u.id))).toEqual([]);
      expect(await t.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, u.id))).toEqual([]);
      expect(await t.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, u.id))).toEqual([]);
      expect(await me(cookie)).toEqual({ loggedIn: false });
      const list = (await tr.call('list', { cookie: adminCookie })).data.users;
      expect(list.some((x: { id: number }) => x.id === u.id)).toBe(false);
      expectFailure(tr, await tr.call('delete', { cookie: adminCookie, id: u.id }), 404, 'User not found');
    });

    it('deletes another deletable admin', async () => {
      const u = await t.createUser('exadmin', ['Administrators']);
      expectSuccess(await tr.call('delete', { cookie: adminCookie, id: u.id }));
      expect(await userRow(u.id)).toBeUndefined();
    });

    it('never deletes yourself nor a non-deletable user', async () => {
      const boss = await t.createUser('deletingboss', ['Administrators']);
      const bossCookie = await t.cookieFor('deletingboss');
      expectFailure(tr, await tr.call('delete', { cookie: bossCookie, id: boss.id }), 400, 'You cannot delete yourself');
      expectFailure(tr, await tr.call('delete', { cookie: adminCookie, id: adminId }), 400, 'You cannot delete yourself');
      expectFailure(tr, await tr.call('delete', { cookie: bossCookie, id: adminId }), 400, 'This user cannot be deleted');
      expect(await userRow(boss.id)).toBeDefined();
      expect(await userRow(adminId)).toBeDefined();
    });

    it('answers an unknown user with 404 and a bad id with 400 "Invalid id"', async () => {
      expectFailure(tr, await tr.call('delete', { cookie: adminCookie, id: 999_999 }), 404, 'User not found');
      for (const id of [undefined, 'abc', 0, -1, '2.5', '']) expectFailure(tr, await tr.call('delete', { cookie: adminCookie, id }), 400, 'Invalid id');
    });

    if (tr.name === 'REST') {
      it('refuses the GET delete when it comes from another site', async () => {
        const u = await t.createUser('crosssite', ['Users']);
        for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://evil.example' }] as Record<string, string>[]) {
          const answer = await tr.call('delete', { cookie: adminCookie, id: u.id, headers });
          expectFailure(tr, answer, 403, 'Cross-site request refused');
        }
        expect(await userRow(u.id)).toBeDefined();
      });
    }
  });
});

/**
 * docs/architecture.md §6 POST /api/users/invite and users.invite (docs/decisions/058): an admin adds a user, who gets a
 * set-password link by mail (the reset's machinery, valid 7 days), in the inviting admin's language.
 */
describe('inviting a user (POST /api/users/invite, users.invite)', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const INVALID_LINK = 'This password reset link is invalid or has expired. Request a new one.';
  const inviteBoth = transports<'invite' | 'reset' | 'login'>(
    () => t,
    {
      rest: { invite: ['POST', '/api/users/invite'], reset: ['POST', '/api/account/reset'], login: ['POST', '/api/account/login'] },
      trpc: { invite: ['mutation', 'users.invite'], reset: ['mutation', 'account.resetPassword'], login: ['mutation', 'account.login'] },
    },
    { ip: () => '10.99.0.1' },
  );
  let adminCookie: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://kerst.example.nl' } });
    adminCookie = await t.cookieFor('admin');
  });

  afterAll(async () => {
    await t.close();
  });

  afterEach(() => {
    expect(t.errors).toEqual([]);
  });

  const inviteMails = (to: string) => t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));
  const tokenIn = (text: string) => /\/reset-password\?token=([A-Za-z0-9_-]{43})\n/.exec(text)?.[1];
  const usersNamed = (username: string) =>
    t.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.username})`, username.toLowerCase()));

  describe.each(inviteBoth)('$name', (tr) => {
    const name = (base: string) => `${tr.p}_${base}`;

    it('makes an active user in the groups named, mails an English set-password link valid 7 days, and audits it', async () => {
      const treasurers = await groupIdOf('Penningmeesters');
      const usersGroup = await groupIdOf('Users');
      const answer = await tr.call('invite', {
        cookie: adminCookie,
        body: { username: name('Trea'), email: ` ${name('trea')}@Tafelronde.nl `, group_ids: [treasurers, usersGroup, treasurers] },
      });
      expect(answer.status).toBe(200);
      const [created] = await usersNamed(name('Trea'));
      expect(answer.data).toEqual({ success: true, user_id: created!.id });
      expect(created).toMatchObject({ username: name('Trea'), email: `${name('trea')}@Tafelronde.nl`, status: 'active', deletable: true, locale: 'en' });
      expect(await membershipsOf(created!.id)).toEqual([treasurers, usersGroup].sort((a, b) => a - b));

      const [mail] = await inviteMails(`${name('trea')}@Tafelronde.nl`);
      const token = tokenIn(mail!.textBody)!;
      expect(mail).toMatchObject({
        kind: 'password-reset',
        subject: 'Your account on the site of Ronde Tafel 144 Harlingen',
        relatedRef: `user:${created!.id}`,
        replyTo: 'kerstactie@example.nl',
        status: 'queued',
      });
      expect(mail!.textBody).toBe(
        [
          `Hello ${name('Trea')},`,
          '',
          `admin has made an account for you on the site of Ronde Tafel 144 Harlingen. Your username is ${name('Trea')}. Open this link to choose your password:`,
          '',
          `https://kerst.example.nl/reset-password?token=${token}`,
          '',
          'The link works once and is valid for 7 days. Once it has expired, ask for a new one with "Forgot password?" on the sign-in page, or ask admin.',
          '',
          'Ronde Tafel 144 Harlingen',
        ].join('\n'),
      );
      const [link] = await t.db.select().from(passwordResets).where(eq(passwordResets.userId, created!.id));
      expect(link).toMatchObject({ expiresAt: t.clock.now().getTime() + 7 * DAY, usedAt: null });
      expect(JSON.stringify(link)).not.toContain(token);

      const [entry] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'user.invited'), eq(auditLog.target, `user:${created!.id} (${name('Trea')})`)));
      expect(entry).toMatchObject({ actorUsername: 'admin' });
      expect(JSON.parse(entry!.details)).toEqual({ email: `${name('trea')}@Tafelronde.nl`, group_ids: [treasurers, usersGroup].sort((a, b) => a - b) });

      // Nobody can sign in before the link is used; after it, the chosen password works.
      expectFailure(tr, await tr.call('login', { body: { username: name('Trea'), password: 'password123' } }), 401, 'Invalid username or password');
      expect((await tr.call('reset', { body: { token, new_password: 'penningen-tellen' } })).data).toEqual({ success: true });
      expect((await tr.call('login', { body: { username: name('Trea'), password: 'penningen-tellen' } })).status).toBe(200);
    });

    it('puts a user invited without groups in the default group', async () => {
      for (const group_ids of [undefined, [], null]) {
        const username = name(`plain${group_ids === undefined ? 'u' : group_ids === null ? 'n' : 'e'}`);
        const answer = await tr.call('invite', { cookie: adminCookie, body: { username, email: `${username}@example.nl`, group_ids } });
        expect(answer.status, String(group_ids)).toBe(200);
        expect(await membershipsOf(answer.data.user_id)).toEqual([await groupIdOf('Users')]);
      }
    });

    it('keeps the link working for 7 days and not a minute more', async () => {
      await tr.call('invite', { cookie: adminCookie, body: { username: name('slow'), email: `${name('slow')}@example.nl` } });
      await tr.call('invite', { cookie: adminCookie, body: { username: name('slower'), email: `${name('slower')}@example.nl` } });
      const slow = tokenIn((await inviteMails(`${name('slow')}@example.nl`))[0]!.textBody)!;
      const slower = tokenIn((await inviteMails(`${name('slower')}@example.nl`))[0]!.textBody)!;
      t.clock.advance(7 * DAY - 60_000);
      expect((await tr.call('reset', { body: { token: slow, new_password: 'op-het-nippertje' } })).status).toBe(200);
      t.clock.advance(2 * 60_000);
      expectFailure(tr, await tr.call('reset', { body: { token: slower, new_password: 'net-te-laat' } }), 400, INVALID_LINK);
    });

    it('writes the account and the mail in Dutch when the inviting admin reads Dutch', async () => {
      await t.createUser(name('nl_admin'), ['Administrators']);
      const cookie = await t.cookieFor(name('nl_admin'));
      expect((await t.request('/api/account/locale', { cookie, body: { locale: 'nl' } })).json).toEqual({ success: true });
      const answer = await tr.call('invite', { cookie, body: { username: name('penny'), email: `${name('penny')}@example.nl` } });
      expect(answer.status).toBe(200);
      expect((await usersNamed(name('penny')))[0]!.locale).toBe('nl');
      const [mail] = await inviteMails(`${name('penny')}@example.nl`);
      expect(mail!.subject).toBe('Je account op de site van Ronde Tafel 144 Harlingen');
      expect(mail!.textBody).toContain(
        `Hallo ${name('penny')},\n\n${name('nl_admin')} heeft een account voor je aangemaakt op de site van Ronde Tafel 144 Harlingen.`,
      );
      expect(mail!.textBody).toContain('De link werkt één keer en is 7 dagen geldig.');
    });

    it('answers 409 for a taken username or e-mail address (any case), making and mailing nothing', async () => {
      await t.createUser(name('bestaand'));
      await t.db
        .update(users)
        .set({ email: `${name('bestaand')}@example.nl` })
        .where(eq(users.username, name('bestaand')));
      const before = (await t.db.select().from(users)).length;
      const mails = (await t.db.select().from(mailOutbox)).length;
      expectFailure(
        tr,
        await tr.call('invite', { cookie: adminCookie, body: { username: name('BESTAAND'), email: 'nieuw@example.nl' } }),
        409,
        'Username is already taken',
      );
      expectFailure(
        tr,
        await tr.call('invite', { cookie: adminCookie, body: { username: name('nieuw'), email: `${name('Bestaand')}@EXAMPLE.nl` } }),
        409,
        'Email is already in use',
      );
      expect(await t.db.select().from(users)).toHaveLength(before);
      expect(await t.db.select().from(mailOutbox)).toHaveLength(mails);
    });

    it('refuses bad input with 400 (an unknown group with 404), making nothing', async () => {
      const before = (await t.db.select().from(users)).length;
      const cases: [Record<string, unknown>, number, string][] = [
        [{ username: 'ab', email: 'a@example.nl' }, 400, 'Username must be 3-32 characters: letters, digits, _ . -'],
        [{ username: 'met spatie', email: 'a@example.nl' }, 400, 'Username must be 3-32 characters: letters, digits, _ . -'],
        [{ email: 'a@example.nl' }, 400, 'Username is required'],
        [{ username: name('nomail') }, 400, 'Email cannot be empty'],
        [{ username: name('nomail'), email: '   ' }, 400, 'Email cannot be empty'],
        [{ username: name('badmail'), email: 'geen-adres' }, 400, 'Invalid email address'],
        [{ username: name('badmail'), email: 'a@example.nl\r\nBcc: x@evil.example' }, 400, 'Invalid email address'],
        [{ username: name('badmail'), email: 'Anna <a@example.nl>' }, 400, 'Invalid email address'],
        [{ username: name('badgroup'), email: 'g@example.nl', group_ids: 'Users' }, 400, 'Invalid group_id'],
        [{ username: name('badgroup'), email: 'g@example.nl', group_ids: [0] }, 400, 'Invalid group_id'],
        [{ username: name('nogroup'), email: 'g@example.nl', group_ids: [999_999] }, 404, 'Group not found'],
      ];
      for (const [body, status, error] of cases) expectFailure(tr, await tr.call('invite', { cookie: adminCookie, body }), status, error);
      expect(await t.db.select().from(users)).toHaveLength(before);
    });

    it('is for admins only: 401 without a session, 403 for a treasurer or a plain user', async () => {
      await t.createUser(name('treasurer'), ['Penningmeesters']);
      await t.createUser(name('gewoon'), ['Users']);
      const body = { username: name('sneaky'), email: 'sneaky@example.nl', group_ids: [await groupIdOf('Administrators')] };
      expectFailure(tr, await tr.call('invite', { body }), 401, 'Not logged in');
      expectFailure(tr, await tr.call('invite', { cookie: await t.cookieFor(name('treasurer')), body }), 403, 'Forbidden');
      expectFailure(tr, await tr.call('invite', { cookie: await t.cookieFor(name('gewoon')), body }), 403, 'Forbidden');
      expect(await usersNamed(name('sneaky'))).toEqual([]);
    });
  });

  it('blanks the link in the stored mail once it was delivered to the SMTP server, as for a reset', async () => {
    const sink = await startSmtpSink();
    t.deps.mailTransport = createNodeSmtpTransport(sink.url);
    try {
      const answer = await t.request('/api/users/invite', { cookie: adminCookie, body: { username: 'delivered', email: 'delivered@example.nl' } });
      expect(answer.json.success).toBe(true);
      const [arrived] = await sink.waitFor(1);
      expect(arrived!.to).toEqual(['delivered@example.nl']);
      expect(textOf(parseMime(arrived!.raw))).toMatch(/reset-password\?token=[A-Za-z0-9_-]{43}\r?\n/);
      await vi.waitFor(async () => expect((await inviteMails('delivered@example.nl'))[0]).toMatchObject({ status: 'sent' }));
      expect((await inviteMails('delivered@example.nl'))[0]!.textBody).toContain('/reset-password?token=(removed after delivery)');
    } finally {
      t.deps.mailTransport = null;
      await sink.stop();
    }
  });
});
