import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groupPermissions, groups, permissions, settings, userGroups, users } from '../../src/db/schema';
import { SEED_PERMISSIONS } from '../../src/features/setup/seed';
import { PLATFORM_PERMISSION } from '../../src/features/setup/seed-data';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports, type Answer, type CallInit } from '../support/transports';

/**
 * docs/product.md §2 Group and Permission Management, §4 group permissions, §5 admin rules, §7 groups and
 * permissions calls, docs/architecture.md §4: /api/groups*, /api/permissions* over REST and their tRPC twins
 * groups.list / get / add / delete / addPermissions / removePermissions and permissions.list / add / delete.
 */

const LAST_ADMIN = 'At least one active administrator must remain';

type Op = 'groups' | 'group' | 'addGroup' | 'deleteGroup' | 'addPermissions' | 'removePermissions' | 'permissions' | 'addPermission' | 'deletePermission';

interface PermissionJson {
  id: number;
  key: string;
  description: string;
  deletable: boolean;
}

interface GroupJson {
  id: number;
  name: string;
  description: string;
  deletable: boolean;
  permissions: PermissionJson[];
}

let t: TestApp;

/** group, deleteGroup and deletePermission take `?id=` over REST and the `id` input over tRPC. */
const both = transports<Op>(() => t, {
  rest: {
    groups: ['GET', '/api/groups'],
    group: ['GET', '/api/groups', 'id'],
    addGroup: ['POST', '/api/groups/addgroup'],
    deleteGroup: ['GET', '/api/groups/deletegroup', 'id'],
    addPermissions: ['POST', '/api/groups/addpermissions'],
    removePermissions: ['POST', '/api/groups/removepermissions'],
    permissions: ['GET', '/api/permissions'],
    addPermission: ['POST', '/api/permissions/add'],
    deletePermission: ['GET', '/api/permissions/delete', 'id'],
  },
  trpc: {
    groups: ['query', 'groups.list'],
    group: ['query', 'groups.get', 'id'],
    addGroup: ['mutation', 'groups.add'],
    deleteGroup: ['mutation', 'groups.delete', 'id'],
    addPermissions: ['mutation', 'groups.addPermissions'],
    removePermissions: ['mutation', 'groups.removePermissions'],
    permissions: ['query', 'permissions.list'],
    addPermission: ['mutation', 'permissions.add'],
    deletePermission: ['mutation', 'permissions.delete', 'id'],
  },
});

function expectSuccess(answer: Answer) {
  expect(answer.status).toBe(200);
  expect(answer.data).toEqual({ success: true });
}

async function permissionId(key: string): Promise<number> {
  const [row] = await t.db.select().from(permissions).where(eq(permissions.key, key));
  return row!.id;
}

/** What the first club's Administrators hold when nothing was changed: admin.access, and platform.access (docs/decisions/071). */
async function seededAdminGrants(): Promise<number[]> {
  return [await permissionId('admin.access'), await permissionId('platform.access')].sort((a, b) => a - b);
}

async function grantsOf(groupId: number): Promise<number[]> {
  return (await t.db.select().from(groupPermissions).where(eq(groupPermissions.groupId, groupId))).map((g) => g.permissionId).sort((a, b) => a - b);
}

async function me(cookie: string) {
  const r = await t.request('/api/account/me', { cookie });
  expect(r.status).toBe(200);
  return r.json;
}

describe.each(both)('$name', (tr) => {
  let adminCookie: string;
  let plainCookie: string;
  let assignerCookie: string;
  let adminsGroupId: number;
  let usersGroupId: number;

  /** Adds a group through the API and answers it. */
  async function addGroup(name: string, description?: string): Promise<GroupJson> {
    const answer = await tr.call('addGroup', { cookie: adminCookie, body: { name, ...(description !== undefined ? { description } : {}) } });
    expect(answer.status).toBe(200);
    return answer.data.group;
  }

  async function getGroup(id: number): Promise<GroupJson> {
    const answer = await tr.call('group', { cookie: adminCookie, id });
    expect(answer.status).toBe(200);
    return answer.data.group;
  }

  beforeAll(async () => {
    t = await createTestApp();
    adminsGroupId = (await t.db.select().from(groups).where(eq(groups.name, 'Administrators')))[0]!.id;
    usersGroupId = (await t.db.select().from(groups).where(eq(groups.name, 'Users')))[0]!.id;
    const [assigners] = await t.db.insert(groups).values({ name: 'Assigners' }).returning();
    await t.db.insert(groupPermissions).values({ groupId: assigners!.id, permissionId: await permissionId('users.assign') });
    await t.createUser('plain', ['Users']);
    await t.createUser('assigner', ['Assigners']);
    adminCookie = await t.cookieFor('admin');
    plainCookie = await t.cookieFor('plain');
    assignerCookie = await t.cookieFor('assigner');
  });

  afterAll(async () => {
    await t.close();
  });

  afterEach(() => {
    // Expected failures are answers, never logged crashes.
    expect(t.errors).toEqual([]);
  });

  describe('who may call', () => {
    const calls: [Op, CallInit][] = [
      ['groups', {}],
      ['group', { id: 1 }],
      ['addGroup', { body: { name: 'Sneaky' } }],
      ['deleteGroup', { id: 4 }],
      ['addPermissions', { body: { group_id: 2, permission_ids: [1] } }],
      ['removePermissions', { body: { group_id: 1, permission_ids: [1] } }],
      ['permissions', {}],
      ['addPermission', { body: { key: 'sneaky.thing' } }],
      ['deletePermission', { id: 1 }],
    ];

    it('refuses anonymous visitors with 401 "Not logged in", before reading the input', async () => {
      for (const [op, init] of calls) expectFailure(tr, await tr.call(op, init), 401, 'Not logged in');
      expectFailure(tr, await tr.call('addGroup', { rawBody: '{nope' }), 401, 'Not logged in');
      expectFailure(tr, await tr.call('deletePermission', { id: 'abc' }), 401, 'Not logged in');
    });

    it('refuses users without admin.access with 403 "Forbidden", also when they hold users.assign', async () => {
      for (const cookie of [plainCookie, assignerCookie]) {
        for (const [op, init] of calls) expectFailure(tr, await tr.call(op, { ...init, cookie }), 403, 'Forbidden');
        expectFailure(tr, await tr.call('addPermissions', { cookie, body: {} }), 403, 'Forbidden');
      }
      expect(await t.db.select().from(groups).where(eq(groups.name, 'Sneaky'))).toEqual([]);
      expect(await t.db.select().from(permissions).where(eq(permissions.key, 'sneaky.thing'))).toEqual([]);
      expect(await grantsOf(usersGroupId)).toEqual([]);
      expect(await grantsOf(adminsGroupId)).toEqual(await seededAdminGrants());
    });
  });

  describe('groups', () => {
    it('lists the groups by id with their permissions, the seeded ones non-deletable', async () => {
      const answer = await tr.call('groups', { cookie: adminCookie });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.data)).toEqual(['groups']);
      const list = answer.data.groups as GroupJson[];
      expect(list.map((g) => g.id)).toEqual([...list.map((g) => g.id)].sort((a, b) => a - b));
      expect(list.find((g) => g.id === adminsGroupId)).toEqual({
        id: adminsGroupId,
        name: 'Administrators',
        description: 'Club administrators with full access.',
        deletable: false,
        permissions: [
          {
            id: await permissionId('admin.access'),
            key: 'admin.access',
            description: SEED_PERMISSIONS[0].description,
            deletable: false,
          },
          {
            id: await permissionId('platform.access'),
            key: 'platform.access',
            description: PLATFORM_PERMISSION.description,
            deletable: false,
          },
        ],
      });
      expect(list.find((g) => g.id === usersGroupId)).toEqual({
        id: usersGroupId,
        name: 'Users',
        description: 'Registered users (default group).',
        deletable: false,
        permissions: [],
      });
    });

    it('answers one group with its permissions, as the list shows it', async () => {
      const answer = await tr.call('group', { cookie: adminCookie, id: adminsGroupId });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.data)).toEqual(['group']);
      const list = (await tr.call('groups', { cookie: adminCookie })).data.groups as GroupJson[];
      expect(answer.data.group).toEqual(list.find((g) => g.id === adminsGroupId));
    });

    it('answers an unknown group with 404 and a bad id with 400 "Invalid id"', async () => {
      expectFailure(tr, await tr.call('group', { cookie: adminCookie, id: 999_999 }), 404, 'Group not found');
      for (const id of ['abc', 0, -2, 1.5, '']) expectFailure(tr, await tr.call('group', { cookie: adminCookie, id }), 400, 'Invalid id');
      if (tr.name === 'tRPC') expectFailure(tr, await tr.call('group', { cookie: adminCookie }), 400, 'Invalid id');
    });

    it('adds a group with a trimmed name and description, deletable and without permissions', async () => {
      const answer = await tr.call('addGroup', { cookie: adminCookie, body: { name: '  Bestuur ', description: ' Het bestuur  ' } });
      expect(answer.status).toBe(200);
      const [row] = await t.db.select().from(groups).where(eq(groups.name, 'Bestuur'));
      expect(answer.data).toEqual({ success: true, group: { id: row!.id, name: 'Bestuur', description: 'Het bestuur', deletable: true, permissions: [] } });
      expect(await getGroup(row!.id)).toEqual(answer.data.group);
      expect(((await tr.call('groups', { cookie: adminCookie })).data.groups as GroupJson[]).some((g) => g.id === row!.id)).toBe(true);
      expect((await addGroup('Zonder omschrijving')).description).toBe('');
    });

    it('asks for a group name, and refuses one that is too long', async () => {
      for (const body of [{}, { name: '' }, { name: '    ' }, { name: null, description: 'x' }]) {
        expectFailure(tr, await tr.call('addGroup', { cookie: adminCookie, body }), 400, 'Group name is required');
      }
      expectFailure(
        tr,
        await tr.call('addGroup', { cookie: adminCookie, body: { name: 'x'.repeat(65) } }),
        400,
        'Group name is too long (at most 64 characters)',
      );
      expectFailure(tr, await tr.call('addGroup', { cookie: adminCookie, body: { name: 42 } }), 400, 'Group name must be text');
    });

    it('refuses a name already taken, whatever its case, with 409', async () => {
      await addGroup('Bezorgers');
      for (const name of ['Bezorgers', 'bezorgers', ' BEZORGERS ', 'administrators']) {
        expectFailure(tr, await tr.call('addGroup', { cookie: adminCookie, body: { name } }), 409, 'A group with this name already exists');
      }
      expect(await t.db.select().from(groups).where(eq(groups.name, 'bezorgers'))).toEqual([]);
    });

    it('deletes a group with its memberships and grants, so its members lose its permissions', async () => {
      const group = await addGroup('Tijdelijk');
      const member = await t.createUser('tijdelijk', ['Users']);
      await t.db.insert(userGroups).values({ userId: member.id, groupId: group.id });
      expectSuccess(
        await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: [await permissionId('premium.aiusage')] } }),
      );
      const cookie = await t.cookieFor('tijdelijk');
      expect((await me(cookie)).user.permissions).toEqual([{ key: 'premium.aiusage' }]);

      const answer = await tr.call('deleteGroup', { cookie: adminCookie, id: group.id });
      expectSuccess(answer);
      if (tr.name === 'REST') expect(answer.json).toEqual({ success: true });
      expect(await t.db.select().from(groups).where(eq(groups.id, group.id))).toEqual([]);
      expect(await grantsOf(group.id)).toEqual([]);
      expect(await t.db.select().from(userGroups).where(eq(userGroups.groupId, group.id))).toEqual([]);
      expect((await me(cookie)).user).toMatchObject({ groups: [{ id: usersGroupId, name: 'Users' }], permissions: [] });
      expectFailure(tr, await tr.call('group', { cookie: adminCookie, id: group.id }), 404, 'Group not found');
      expectFailure(tr, await tr.call('deleteGroup', { cookie: adminCookie, id: group.id }), 404, 'Group not found');
    });

    it('never deletes a non-deletable group', async () => {
      for (const id of [adminsGroupId, usersGroupId]) {
        expectFailure(tr, await tr.call('deleteGroup', { cookie: adminCookie, id }), 400, 'This group cannot be deleted');
      }
      expect(
        await t.db
          .select()
          .from(groups)
          .where(inArray(groups.id, [adminsGroupId, usersGroupId])),
      ).toHaveLength(2);
    });

    it('never deletes the group new users join (default_user_group_id)', async () => {
      const group = await addGroup('Nieuwkomers');
      const setDefault = async (id: number) => {
        const r = await t.request('/api/settings/update', { cookie: adminCookie, body: { key: 'default_user_group_id', value: id } });
        expect(r.json).toEqual({ success: true });
      };
      await setDefault(group.id);
      try {
        expectFailure(tr, await tr.call('deleteGroup', { cookie: adminCookie, id: group.id }), 400, 'The default user group cannot be deleted');
        expect(await t.db.select().from(groups).where(eq(groups.id, group.id))).toHaveLength(1);
      } finally {
        await setDefault(usersGroupId);
      }
      expectSuccess(await tr.call('deleteGroup', { cookie: adminCookie, id: group.id }));
    });

    it('never deletes the group that gives the last active admin admin.access', async () => {
      const beheer = await addGroup('Beheer');
      expectSuccess(
        await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: beheer.id, permission_ids: [await permissionId('admin.access')] } }),
      );
      const boss = await t.createUser('beheerder', []);
      await t.db.insert(userGroups).values({ userId: boss.id, groupId: beheer.id });
      const bossCookie = await t.cookieFor('beheerder');
      const [admin] = await t.db.select().from(users).where(eq(users.username, 'admin'));
      // The first admin is switched off: the boss, through Beheer, is the one active admin.
      const off = await t.request(`/api/users/edituser?id=${admin!.id}`, { cookie: bossCookie, body: { status: 'inactive' } });
      expect(off.json).toEqual({ success: true });
      try {
        expectFailure(tr, await tr.call('deleteGroup', { cookie: bossCookie, id: beheer.id }), 400, LAST_ADMIN);
        expectFailure(
          tr,
          await tr.call('removePermissions', { cookie: bossCookie, body: { group_id: beheer.id, permission_ids: [await permissionId('admin.access')] } }),
          400,
          LAST_ADMIN,
        );
        expect(await getGroupAs(bossCookie, beheer.id)).toMatchObject({ permissions: [{ key: 'admin.access' }] });
      } finally {
        const r = await t.request(`/api/users/edituser?id=${admin!.id}`, { cookie: bossCookie, body: { status: 'active' } });
        expect(r.json).toEqual({ success: true });
        adminCookie = await t.cookieFor('admin');
      }
      expectSuccess(await tr.call('deleteGroup', { cookie: adminCookie, id: beheer.id }));
      expectFailure(tr, await tr.call('groups', { cookie: bossCookie }), 403, 'Forbidden');
    });

    it('answers a bad id of the delete with 400 "Invalid id"', async () => {
      for (const id of [undefined, 'abc', 0, -1, '']) expectFailure(tr, await tr.call('deleteGroup', { cookie: adminCookie, id }), 400, 'Invalid id');
    });

    if (tr.name === 'REST') {
      it('refuses the GET deletes when they come from another site', async () => {
        const group = await addGroup('Verre groep');
        const answer = await tr.call('deleteGroup', { cookie: adminCookie, id: group.id, headers: { 'sec-fetch-site': 'cross-site' } });
        expectFailure(tr, answer, 403, 'Cross-site request refused');
        expect(await t.db.select().from(groups).where(eq(groups.id, group.id))).toHaveLength(1);
        const permission = (await tr.call('addPermission', { cookie: adminCookie, body: { key: 'remote.thing' } })).data.permission;
        const refused = await tr.call('deletePermission', { cookie: adminCookie, id: permission.id, headers: { origin: 'https://evil.example' } });
        expectFailure(tr, refused, 403, 'Cross-site request refused');
        expect(await t.db.select().from(permissions).where(eq(permissions.id, permission.id))).toHaveLength(1);
      });
    }
  });

  async function getGroupAs(cookie: string, id: number): Promise<GroupJson> {
    const answer = await tr.call('group', { cookie, id });
    expect(answer.status).toBe(200);
    return answer.data.group;
  }

  describe('group permissions', () => {
    it('grants permissions as a set: members hold them at once, and granting again adds nothing', async () => {
      const group = await addGroup('Premium');
      const member = await t.createUser('premiumlid', []);
      await t.db.insert(userGroups).values({ userId: member.id, groupId: group.id });
      const cookie = await t.cookieFor('premiumlid');
      const premium = await permissionId('premium.aiusage');
      const assign = await permissionId('users.assign');
      const answer = await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: [premium, assign] } });
      expectSuccess(answer);
      if (tr.name === 'REST') expect(answer.json).toEqual({ success: true });
      expect((await getGroup(group.id)).permissions.map((p) => p.key)).toEqual(['premium.aiusage', 'users.assign']);
      expect((await me(cookie)).user.permissions).toEqual([{ key: 'premium.aiusage' }, { key: 'users.assign' }]);

      const del = await permissionId('users.delete');
      expectSuccess(
        await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: [premium, del, del, String(assign)] } }),
      );
      expect(await grantsOf(group.id)).toEqual([premium, assign, del].sort((a, b) => a - b));
      expectSuccess(await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: [] } }));
      expect(await grantsOf(group.id)).toHaveLength(3);
    });

    it('takes permissions away as a set: ones the group does not hold are ignored', async () => {
      const group = await addGroup('Afbouw');
      const premium = await permissionId('premium.aiusage');
      const assign = await permissionId('users.assign');
      const settingsDelete = await permissionId('settings.delete');
      expectSuccess(await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: [premium, assign] } }));
      const answer = await tr.call('removePermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: [premium, settingsDelete] } });
      expectSuccess(answer);
      if (tr.name === 'REST') expect(answer.json).toEqual({ success: true });
      expect(await grantsOf(group.id)).toEqual([assign]);
      expectSuccess(await tr.call('removePermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: [premium] } }));
      expect(await grantsOf(group.id)).toEqual([assign]);
    });

    it('changes the permissions of the non-deletable groups too', async () => {
      const premium = await permissionId('premium.aiusage');
      expectSuccess(await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: usersGroupId, permission_ids: [premium] } }));
      expect((await me(plainCookie)).user.permissions).toEqual([{ key: 'premium.aiusage' }]);
      expectSuccess(await tr.call('removePermissions', { cookie: adminCookie, body: { group_id: usersGroupId, permission_ids: [premium] } }));
      expect((await me(plainCookie)).user.permissions).toEqual([]);
    });

    it('refuses admin.access for the group new users join, and grants nothing of that call', async () => {
      const premium = await permissionId('premium.aiusage');
      const adminAccess = await permissionId('admin.access');
      const answer = await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: usersGroupId, permission_ids: [premium, adminAccess] } });
      expectFailure(tr, answer, 400, 'The default user group cannot hold admin.access: everyone who registers would be an administrator.');
      expect((await me(plainCookie)).user.permissions).toEqual([]);
    });

    it('grants and takes away more permissions in one call than one D1 statement may bind', async () => {
      const values = Array.from({ length: 150 }, (_, i) => ({ key: `${tr.name.toLowerCase()}bulk.p${i}`, description: '' }));
      for (let i = 0; i < values.length; i += 30) await t.db.insert(permissions).values(values.slice(i, i + 30));
      const ids = (
        await t.db
          .select()
          .from(permissions)
          .where(
            inArray(
              permissions.key,
              values.map((v) => v.key),
            ),
          )
      ).map((p) => p.id);
      const group = await addGroup('Veel');
      expectSuccess(await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: ids } }));
      expect((await getGroup(group.id)).permissions).toHaveLength(150);
      expectSuccess(await tr.call('removePermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: ids } }));
      expect(await grantsOf(group.id)).toEqual([]);
      await t.db.delete(permissions).where(inArray(permissions.id, ids));
    });

    it('answers an unknown group or permission with 404 and changes nothing', async () => {
      const group = await addGroup('Onbekend');
      const premium = await permissionId('premium.aiusage');
      for (const op of ['addPermissions', 'removePermissions'] as const) {
        expectFailure(tr, await tr.call(op, { cookie: adminCookie, body: { group_id: 999_999, permission_ids: [premium] } }), 404, 'Group not found');
        expectFailure(
          tr,
          await tr.call(op, { cookie: adminCookie, body: { group_id: group.id, permission_ids: [premium, 999_999] } }),
          404,
          'Permission not found',
        );
      }
      expect(await grantsOf(group.id)).toEqual([]);
    });

    it('never takes admin.access from the group of the last active admin, and then takes nothing else either', async () => {
      const adminAccess = await permissionId('admin.access');
      const premium = await permissionId('premium.aiusage');
      expectSuccess(await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: adminsGroupId, permission_ids: [premium] } }));
      const answer = await tr.call('removePermissions', { cookie: adminCookie, body: { group_id: adminsGroupId, permission_ids: [premium, adminAccess] } });
      expectFailure(tr, answer, 400, LAST_ADMIN);
      expect(await grantsOf(adminsGroupId)).toEqual([...(await seededAdminGrants()), premium].sort((a, b) => a - b));
      expectSuccess(await tr.call('removePermissions', { cookie: adminCookie, body: { group_id: adminsGroupId, permission_ids: [premium] } }));
      expect(await grantsOf(adminsGroupId)).toEqual(await seededAdminGrants());
      expect((await me(adminCookie)).user.permissions).toEqual([{ key: 'admin.access' }, { key: 'platform.access' }]);
    });

    it('takes admin.access from a group when another group keeps an active admin', async () => {
      const extra = await addGroup('Tweede beheer');
      const adminAccess = await permissionId('admin.access');
      expectSuccess(await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: extra.id, permission_ids: [adminAccess] } }));
      expectSuccess(await tr.call('removePermissions', { cookie: adminCookie, body: { group_id: extra.id, permission_ids: [adminAccess] } }));
      expect(await grantsOf(extra.id)).toEqual([]);
    });

    it.each([
      ['an empty body', {}, 'Invalid group_id'],
      ['a group_id that is text', { group_id: 'abc', permission_ids: [1] }, 'Invalid group_id'],
      ['a group_id of 0', { group_id: 0, permission_ids: [1] }, 'Invalid group_id'],
      ['missing permission_ids', { group_id: 1 }, 'permission_ids must be a list of permission ids'],
      ['permission_ids that is a number', { group_id: 1, permission_ids: 3 }, 'permission_ids must be a list of permission ids'],
      ['a permission id that is text', { group_id: 1, permission_ids: [1, 'x'] }, 'permission_ids must be a list of permission ids'],
      ['a negative permission id', { group_id: 1, permission_ids: [-4] }, 'permission_ids must be a list of permission ids'],
    ])('answers %s with 400 and a readable error', async (_what, body, message) => {
      for (const op of ['addPermissions', 'removePermissions'] as const) expectFailure(tr, await tr.call(op, { cookie: adminCookie, body }), 400, message);
    });

    it('answers a body that is not an object, or not JSON, with 400, never a 500', async () => {
      for (const op of ['addPermissions', 'removePermissions', 'addGroup', 'addPermission'] as const) {
        for (const rawBody of ['[]', 'null', '42']) expect((await tr.call(op, { cookie: adminCookie, rawBody })).status).toBe(400);
        expectFailure(tr, await tr.call(op, { cookie: adminCookie, rawBody: '{"group_id": ' }), 400, 'Malformed JSON body');
      }
    });
  });

  describe('permissions', () => {
    it('lists every permission ordered by key, the seeded ones non-deletable', async () => {
      const answer = await tr.call('permissions', { cookie: adminCookie });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.data)).toEqual(['permissions']);
      const list = answer.data.permissions as PermissionJson[];
      expect(list.map((p) => p.key)).toEqual([...list.map((p) => p.key)].sort());
      for (const seeded of SEED_PERMISSIONS) {
        expect(list.find((p) => p.key === seeded.key)).toEqual({
          id: await permissionId(seeded.key),
          key: seeded.key,
          description: seeded.description,
          deletable: false,
        });
      }
    });

    it('adds a permission with a trimmed key and description, deletable', async () => {
      const answer = await tr.call('addPermission', { cookie: adminCookie, body: { key: '  orders.export ', description: '  Export the orders ' } });
      expect(answer.status).toBe(200);
      const id = await permissionId('orders.export');
      expect(answer.data).toEqual({ success: true, permission: { id, key: 'orders.export', description: 'Export the orders', deletable: true } });
      const list = (await tr.call('permissions', { cookie: adminCookie })).data.permissions as PermissionJson[];
      expect(list.find((p) => p.id === id)).toEqual(answer.data.permission);
      const bare = await tr.call('addPermission', { cookie: adminCookie, body: { key: 'orders.view' } });
      expect(bare.data.permission).toMatchObject({ key: 'orders.view', description: '', deletable: true });
    });

    it.each(['nodot', 'Orders.export', '.export', 'orders.', '1orders.export', 'orders export.x', 'orders.Export'])(
      'refuses the key %j with "Permission key must look like prefix.action"',
      async (key) => {
        expectFailure(
          tr,
          await tr.call('addPermission', { cookie: adminCookie, body: { key, description: 'x' } }),
          400,
          'Permission key must look like prefix.action',
        );
      },
    );

    it('asks for a key, and refuses one already taken with 409', async () => {
      for (const body of [{}, { key: '' }, { key: '   ', description: 'x' }]) {
        expectFailure(tr, await tr.call('addPermission', { cookie: adminCookie, body }), 400, 'Permission key is required');
      }
      expectFailure(
        tr,
        await tr.call('addPermission', { cookie: adminCookie, body: { key: 'admin.access' } }),
        409,
        'A permission with this key already exists',
      );
      expect((await tr.call('addPermission', { cookie: adminCookie, body: { key: 'reports.view' } })).status).toBe(200);
      expectFailure(
        tr,
        await tr.call('addPermission', { cookie: adminCookie, body: { key: ' reports.view ' } }),
        409,
        'A permission with this key already exists',
      );
    });

    it('deletes a permission, and it is gone from every group that held it', async () => {
      const permission = (await tr.call('addPermission', { cookie: adminCookie, body: { key: 'tablers.export' } })).data.permission as PermissionJson;
      const group = await addGroup('Exporteurs');
      expectSuccess(await tr.call('addPermissions', { cookie: adminCookie, body: { group_id: group.id, permission_ids: [permission.id] } }));
      const answer = await tr.call('deletePermission', { cookie: adminCookie, id: permission.id });
      expectSuccess(answer);
      if (tr.name === 'REST') expect(answer.json).toEqual({ success: true });
      const list = (await tr.call('permissions', { cookie: adminCookie })).data.permissions as PermissionJson[];
      expect(list.some((p) => p.id === permission.id)).toBe(false);
      expect((await getGroup(group.id)).permissions).toEqual([]);
      expectFailure(tr, await tr.call('deletePermission', { cookie: adminCookie, id: permission.id }), 404, 'Permission not found');
    });

    it('never deletes a non-deletable permission', async () => {
      for (const seeded of SEED_PERMISSIONS) {
        expectFailure(
          tr,
          await tr.call('deletePermission', { cookie: adminCookie, id: await permissionId(seeded.key) }),
          400,
          'This permission cannot be deleted',
        );
      }
      expect(
        await t.db
          .select()
          .from(permissions)
          .where(
            inArray(
              permissions.key,
              SEED_PERMISSIONS.map((p) => p.key),
            ),
          ),
      ).toHaveLength(SEED_PERMISSIONS.length);
      expect(await grantsOf(adminsGroupId)).toEqual(await seededAdminGrants());
    });

    it('answers a bad id of the delete with 400 "Invalid id"', async () => {
      for (const id of [undefined, 'abc', 0, -1, '1.5', ''])
        expectFailure(tr, await tr.call('deletePermission', { cookie: adminCookie, id }), 400, 'Invalid id');
    });
  });

  it('leaves the settings untouched', async () => {
    const [row] = await t.db.select().from(settings).where(eq(settings.key, 'default_user_group_id'));
    expect(row?.value).toBe(String(usersGroupId));
  });
});
