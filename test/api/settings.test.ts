import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { groups, settings, users } from '../../src/db/schema';
import { loadUserProfile } from '../../src/features/auth/user-profile';
import { refuseDuringMaintenance } from '../../src/features/settings/maintenance';
import { getSetting } from '../../src/features/settings/settings.service';
import { prepareDatabase } from '../../src/features/setup/prepare';
import { AppError } from '../../src/core/errors';
import { createTestApp, type TestApp } from '../support/test-app';
import { transports, type Answer, type Transport } from '../support/transports';

/**
 * docs/architecture.md §3-4 settings: GET /api/settings and the four admin writes over REST, and their tRPC twins
 * (settings.list / add / edit / update / delete), through the real HTTP adapters.
 */

interface SettingJson {
  key: string;
  value: unknown;
  type: string;
  description: string;
  visibility: string;
  deletable: boolean;
  min_value: number | null;
  max_value: number | null;
  group_name: string;
}

type WriteOp = 'add' | 'edit' | 'update' | 'delete';

interface SettingsAnswer {
  status: number;
  success: boolean;
  error: string | undefined;
  json: Answer['json'];
}

interface SettingsTransport {
  name: string;
  /** Prefix for keys this transport's tests create, so the two runs never collide. */
  prefix: string;
  write(op: WriteOp, body: unknown, init?: { cookie?: string | undefined; rawBody?: string }): Promise<SettingsAnswer>;
  list(cookie?: string): Promise<SettingJson[]>;
}

let t: TestApp;
let adminCookie: string;
let userCookie: string;
let usersGroupId: number;
let adminsGroupId: number;

const [restCalls, trpcCalls] = transports<WriteOp | 'list'>(() => t, {
  rest: {
    add: ['POST', '/api/settings/add'],
    edit: ['POST', '/api/settings/edit'],
    update: ['POST', '/api/settings/update'],
    delete: ['POST', '/api/settings/delete'],
    list: ['GET', '/api/settings'],
  },
  trpc: {
    add: ['mutation', 'settings.add'],
    edit: ['mutation', 'settings.edit'],
    update: ['mutation', 'settings.update'],
    delete: ['mutation', 'settings.delete'],
    list: ['query', 'settings.list'],
  },
});

/** The settings calls over one transport, with success and the refusal text read from its own answer shape. */
function settingsOver(calls: Transport<WriteOp | 'list'>, prefix: string): SettingsTransport {
  return {
    name: calls.name,
    prefix,
    async write(op, body, init = {}) {
      const answer = await calls.call(op, { body, ...init });
      return calls.name === 'REST'
        ? { status: answer.status, success: answer.json?.success === true, error: answer.json?.error, json: answer.json }
        : { status: answer.status, success: answer.status === 200 && answer.data?.success === true, error: answer.json?.error?.message, json: answer.json };
    },
    async list(cookie) {
      const answer = await calls.call('list', { cookie });
      expect(answer.status).toBe(200);
      return answer.data.settings;
    },
  };
}

const rest = () => settingsOver(restCalls, 'rest');
const trpc = () => settingsOver(trpcCalls, 'trpc');

async function dbRow(key: string) {
  const [row] = await t.db.select().from(settings).where(eq(settings.key, key));
  return row;
}

const restList = (cookie?: string): Promise<SettingJson[]> => rest().list(cookie);

const byKey = (list: SettingJson[]) => new Map(list.map((s) => [s.key, s]));

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser('plainuser', ['Users']);
  adminCookie = await t.cookieFor('admin');
  userCookie = await t.cookieFor('plainuser');
  const [users] = await t.db.select().from(groups).where(eq(groups.name, 'Users'));
  const [admins] = await t.db.select().from(groups).where(eq(groups.name, 'Administrators'));
  usersGroupId = users!.id;
  adminsGroupId = admins!.id;
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  // Expected failures are answers, never logged crashes.
  expect(t.errors).toEqual([]);
});

describe('GET /api/settings', () => {
  it('shows an anonymous visitor exactly the public settings, with booleans and integers typed', async () => {
    const list = await restList();
    const publicKeys = (await t.db.select({ key: settings.key }).from(settings).where(eq(settings.visibility, 'public'))).map((r) => r.key);
    expect(list.map((s) => s.key).sort()).toEqual([...publicKeys].sort());
    expect(list.every((s) => s.visibility === 'public')).toBe(true);
    const map = byKey(list);
    expect(map.get('allow_registration')?.value).toBe(false);
    expect(map.get('registration_requires_activation')?.value).toBe(false);
    expect(map.get('maintenance_mode')?.value).toBe(false);
    expect(map.get('password_min_length')).toEqual({
      key: 'password_min_length',
      value: 6,
      type: 'integer',
      description: 'Minimum password length for registration and admin password resets.',
      visibility: 'public',
      deletable: false,
      min_value: 6,
      max_value: 128,
      group_name: 'auth',
    });
    expect(map.has('default_user_group_id')).toBe(false);
    expect(map.has('vat_split')).toBe(false);
    expect(map.has('club_iban')).toBe(false);
  });

  it('answers with no-store JSON so a browser never shows a stale setting', async () => {
    const r = await t.request('/api/settings');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(r.json)).toEqual(['settings']);
  });

  it('shows a plain signed-in user the public and private settings but no admin ones', async () => {
    const added = await t.request('/api/settings/add', {
      cookie: adminCookie,
      body: { key: 'members.notice', value: 'Vergadering op dinsdag', type: 'string', visibility: 'private', description: 'For members' },
    });
    expect(added.json).toEqual({ success: true });

    const forUser = byKey(await restList(userCookie));
    expect(forUser.get('members.notice')).toEqual({
      key: 'members.notice',
      value: 'Vergadering op dinsdag',
      type: 'string',
      description: 'For members',
      visibility: 'private',
      deletable: true,
      min_value: null,
      max_value: null,
      group_name: 'general',
    });
    expect(forUser.has('allow_registration')).toBe(true);
    expect([...forUser.values()].every((s) => s.visibility !== 'admin')).toBe(true);
    expect(forUser.has('default_user_group_id')).toBe(false);

    const forAnonymous = byKey(await restList());
    expect(forAnonymous.has('members.notice')).toBe(false);
  });

  it('shows an admin every setting, with default_user_group_id equal to the id of the Users group', async () => {
    const list = await restList(adminCookie);
    const [{ count }] = (await t.db.select({ count: sql<number>`count(*)` }).from(settings)) as [{ count: number }];
    expect(list).toHaveLength(count);
    const map = byKey(list);
    expect(map.get('default_user_group_id')?.value).toBe(usersGroupId);
    expect(map.get('default_user_group_id')?.visibility).toBe('admin');
    expect(map.get('vat_split')?.value).toBe(JSON.stringify([{ label: 'Kerstpakket', share_percent: 100, vat_rate: 21 }]));
  });

  it('never sends the value of a password setting, not even to an admin', async () => {
    const added = await t.request('/api/settings/add', {
      cookie: adminCookie,
      body: { key: 'smtp.secret', value: 'hunter2-geheim', type: 'password', visibility: 'admin' },
    });
    expect(added.json).toEqual({ success: true });
    for (const path of ['/api/settings', '/trpc/settings.list']) {
      const r = await t.request(path, { cookie: adminCookie });
      expect(r.text).not.toContain('hunter2-geheim');
    }
    const map = byKey(await restList(adminCookie));
    expect(map.get('smtp.secret')?.value).toBe('');
    expect(map.get('smtp.secret')?.type).toBe('password');
    expect(await getSetting(t.deps, 'smtp.secret')).toBe('hunter2-geheim');
  });

  it('gives the same lists over tRPC settings.list as over REST, for each audience', async () => {
    for (const cookie of [undefined, userCookie, adminCookie]) {
      expect(await trpc().list(cookie)).toEqual(await restList(cookie));
    }
  });

  it('shows the new value on the next read after an update through REST (same process, cache invalidated)', async () => {
    expect(byKey(await restList()).get('club_town')?.value).toBe('Harlingen');
    const updated = await t.request('/api/settings/update', { cookie: adminCookie, body: { key: 'club_town', value: 'Franeker' } });
    expect(updated.json).toEqual({ success: true });
    expect(byKey(await restList()).get('club_town')?.value).toBe('Franeker');
    expect(byKey(await trpc().list()).get('club_town')?.value).toBe('Franeker');
  });

  it('shows the new value on the next read after an update through tRPC', async () => {
    expect(byKey(await restList(userCookie)).get('package_price')?.value).toBe(75);
    const updated = await trpc().write('update', { key: 'package_price', value: 80 }, { cookie: adminCookie });
    expect(updated.status).toBe(200);
    expect(byKey(await restList(userCookie)).get('package_price')?.value).toBe(80);
    await trpc().write('update', { key: 'package_price', value: '75' }, { cookie: adminCookie });
    expect(byKey(await restList(userCookie)).get('package_price')?.value).toBe(75);
  });
});

describe.each([rest, trpc].map((make) => [make().name, make] as const))('settings writes over %s', (_name, make) => {
  const x = make();
  const k = (name: string) => `${x.prefix}.${name}`;
  const add = (body: Record<string, unknown>, cookie: string | undefined = adminCookie) => x.write('add', body, { cookie });

  it('lets an admin add a setting and answers success', async () => {
    const answer = await add({ key: k('added'), value: 'hallo', type: 'string', description: 'A test', visibility: 'public', group_name: 'club' });
    expect(answer.status).toBe(200);
    expect(answer.success).toBe(true);
    if (x.name === 'REST') expect(answer.json).toEqual({ success: true });
    expect(byKey(await x.list()).get(k('added'))).toEqual({
      key: k('added'),
      value: 'hallo',
      type: 'string',
      description: 'A test',
      visibility: 'public',
      deletable: true,
      min_value: null,
      max_value: null,
      group_name: 'club',
    });
  });

  it.each(['add', 'edit', 'update', 'delete'] as const)('refuses %s from an anonymous visitor with 401 Not logged in', async (op) => {
    const answer = await x.write(op, { key: 'maintenance_mode', value: 'true', type: 'boolean' });
    expect(answer.status).toBe(401);
    expect(answer.error).toBe('Not logged in');
    if (x.name === 'REST') expect(answer.json).toMatchObject({ success: false, error: 'Not logged in', code: 'NOT_LOGGED_IN' });
  });

  it.each(['add', 'edit', 'update', 'delete'] as const)('refuses %s from a plain user with 403 Forbidden', async (op) => {
    const answer = await x.write(op, { key: 'maintenance_mode', value: 'true', type: 'boolean' }, { cookie: userCookie });
    expect(answer.status).toBe(403);
    expect(answer.error).toBe('Forbidden');
    if (x.name === 'REST') expect(answer.json).toMatchObject({ success: false, error: 'Forbidden', code: 'FORBIDDEN' });
    expect((await dbRow('maintenance_mode'))?.value).toBe('false');
  });

  it('refuses an anonymous visitor with 401 before looking at a malformed body', async () => {
    const answer = await x.write('add', undefined, { rawBody: '{"key": ' });
    expect(answer.status).toBe(401);
    expect(answer.error).toBe('Not logged in');
  });

  it('refuses a plain user with 403 before looking at an invalid body', async () => {
    const malformed = await x.write('update', undefined, { rawBody: '{oops', cookie: userCookie });
    expect(malformed.status).toBe(403);
    expect(malformed.error).toBe('Forbidden');
    const invalid = await x.write('update', { key: 42 }, { cookie: userCookie });
    expect(invalid.status).toBe(403);
    expect(invalid.error).toBe('Forbidden');
  });

  it.each([
    ['without the key', { value: 'x', type: 'string' }],
    ['without the value', { key: 'missing.value', type: 'string' }],
    ['without the type', { key: 'missing.type', value: 'x' }],
    ['with a blank key', { key: '   ', value: 'x', type: 'string' }],
    ['with an empty value for an integer', { key: 'empty.value', value: '', type: 'integer' }],
  ])('refuses an add %s with 400 "Key, value and type are required."', async (_what, body) => {
    const answer = await add(body);
    expect(answer.status).toBe(400);
    expect(answer.error).toBe('Key, value and type are required.');
  });

  it('refuses an edit without a value with 400 "Key, value and type are required."', async () => {
    const answer = await x.write('edit', { key: 'club_town', type: 'string' }, { cookie: adminCookie });
    expect(answer.status).toBe(400);
    expect(answer.error).toBe('Key, value and type are required.');
  });

  it.each(['1.5', 'abc', '12abc', ''])('refuses the integer value %j with "Value must be a whole number."', async (value) => {
    const answer = await x.write('update', { key: 'package_price', value }, { cookie: adminCookie });
    expect(answer.status).toBe(400);
    expect(answer.error).toBe('Value must be a whole number.');
    expect((await dbRow('package_price'))?.value).toBe('75');
  });

  it('refuses an integer below its minimum or above its maximum and keeps the stored value', async () => {
    const low = await x.write('update', { key: 'password_min_length', value: '5' }, { cookie: adminCookie });
    expect(low.status).toBe(400);
    expect(low.error).toBe('Value must be at least 6.');
    const high = await x.write('update', { key: 'password_min_length', value: 129 }, { cookie: adminCookie });
    expect(high.status).toBe(400);
    expect(high.error).toBe('Value must be at most 128.');
    expect(byKey(await x.list()).get('password_min_length')?.value).toBe(6);
  });

  it('accepts an integer at its bounds and stores it normalised', async () => {
    const answer = await x.write('update', { key: 'password_min_length', value: ' 128 ' }, { cookie: adminCookie });
    expect(answer.status).toBe(200);
    expect(byKey(await x.list()).get('password_min_length')?.value).toBe(128);
    expect((await dbRow('password_min_length'))?.value).toBe('128');
    await x.write('update', { key: 'password_min_length', value: 6 }, { cookie: adminCookie });
    expect(byKey(await x.list()).get('password_min_length')?.value).toBe(6);
  });

  it('refuses the boolean value "yes" with "Value must be true or false."', async () => {
    const answer = await x.write('update', { key: 'allow_registration', value: 'yes' }, { cookie: adminCookie });
    expect(answer.status).toBe(400);
    expect(answer.error).toBe('Value must be true or false.');
  });

  it('accepts a boolean sent as JSON true and as the text "TRUE", and shows it typed', async () => {
    expect((await x.write('update', { key: 'registration_requires_activation', value: true }, { cookie: adminCookie })).status).toBe(200);
    expect(byKey(await x.list()).get('registration_requires_activation')?.value).toBe(true);
    expect((await x.write('update', { key: 'registration_requires_activation', value: 'FALSE' }, { cookie: adminCookie })).status).toBe(200);
    expect(byKey(await x.list()).get('registration_requires_activation')?.value).toBe(false);
    expect((await dbRow('registration_requires_activation'))?.value).toBe('false');
  });

  it('refuses invalid JSON for a json setting with "Value must be valid JSON."', async () => {
    const added = await add({ key: k('badjson'), value: '{"a":', type: 'json' });
    expect(added.status).toBe(400);
    expect(added.error).toBe('Value must be valid JSON.');
    const updated = await x.write('update', { key: 'vat_split', value: '[{' }, { cookie: adminCookie });
    expect(updated.status).toBe(400);
    expect(updated.error).toBe('Value must be valid JSON.');
  });

  it('stores a json setting sent as a string and returns that same string', async () => {
    const text = '{"parts":[{"rate":9},{"rate":21}]}';
    const answer = await add({ key: k('json'), value: text, type: 'json', visibility: 'admin' });
    expect(answer.status).toBe(200);
    const shown = byKey(await x.list(adminCookie)).get(k('json'));
    expect(shown?.value).toBe(text);
    expect(shown?.type).toBe('json');
  });

  it('puts a setting without a group, or with a blank one, in the group general', async () => {
    expect((await add({ key: k('nogroup'), value: 'a', type: 'string' })).status).toBe(200);
    expect((await add({ key: k('blankgroup'), value: 'b', type: 'string', group_name: '  ' })).status).toBe(200);
    const map = byKey(await x.list());
    expect(map.get(k('nogroup'))?.group_name).toBe('general');
    expect(map.get(k('blankgroup'))?.group_name).toBe('general');
  });

  it('answers 404 "Setting not found." for an edit, update or delete of a key that does not exist', async () => {
    const edit = await x.write('edit', { key: k('ghost'), value: 'x', type: 'string' }, { cookie: adminCookie });
    expect(edit.status).toBe(404);
    expect(edit.error).toBe('Setting not found.');
    const update = await x.write('update', { key: k('ghost'), value: 'x' }, { cookie: adminCookie });
    expect(update.status).toBe(404);
    expect(update.error).toBe('Setting not found.');
    const del = await x.write('delete', { key: k('ghost') }, { cookie: adminCookie });
    expect(del.status).toBe(404);
    expect(del.error).toBe('Setting not found.');
    expect(await dbRow(k('ghost'))).toBeUndefined();
  });

  it('refuses to add a key that already exists with 409 and keeps the original', async () => {
    expect((await add({ key: k('dup'), value: 'first', type: 'string' })).status).toBe(200);
    const again = await add({ key: k('dup'), value: 'second', type: 'string' });
    expect(again.status).toBe(409);
    expect(again.error).toBe('A setting with this key already exists.');
    expect((await dbRow(k('dup')))?.value).toBe('first');
    const builtIn = await add({ key: 'maintenance_mode', value: 'true', type: 'boolean' });
    expect(builtIn.status).toBe(409);
    expect((await dbRow('maintenance_mode'))?.value).toBe('false');
  });

  it('edits a setting by its key: value, description, visibility and group change, the key does not', async () => {
    expect((await add({ key: k('editme'), value: 'old', type: 'string', description: 'before' })).status).toBe(200);
    const edited = await x.write(
      'edit',
      { key: k('editme'), value: 'new', type: 'string', description: 'after', visibility: 'private', group_name: 'club' },
      { cookie: adminCookie },
    );
    expect(edited.status).toBe(200);
    if (x.name === 'REST') expect(edited.json).toEqual({ success: true });
    const shown = byKey(await x.list(userCookie)).get(k('editme'));
    expect(shown).toMatchObject({ key: k('editme'), value: 'new', description: 'after', visibility: 'private', group_name: 'club' });
    expect(byKey(await x.list()).has(k('editme'))).toBe(false);
  });

  it('keeps a setting non-deletable when an edit sends deletable: true', async () => {
    expect((await add({ key: k('keeper'), value: 'x', type: 'string', deletable: false })).status).toBe(200);
    const edited = await x.write('edit', { key: k('keeper'), value: 'y', type: 'string', deletable: true }, { cookie: adminCookie });
    expect(edited.status).toBe(200);
    expect((await dbRow(k('keeper')))?.deletable).toBe(false);
    expect(byKey(await x.list()).get(k('keeper'))?.deletable).toBe(false);
    const del = await x.write('delete', { key: k('keeper') }, { cookie: adminCookie });
    expect(del.status).toBe(400);
    expect(del.error).toBe('This setting cannot be deleted.');
    expect(await dbRow(k('keeper'))).toBeDefined();
  });

  it('refuses to delete a built-in setting with 400 "This setting cannot be deleted."', async () => {
    const del = await x.write('delete', { key: 'allow_registration' }, { cookie: adminCookie });
    expect(del.status).toBe(400);
    expect(del.error).toBe('This setting cannot be deleted.');
    expect(await dbRow('allow_registration')).toBeDefined();
  });

  it('deletes a deletable setting so it is gone from the list and the database', async () => {
    expect((await add({ key: k('temp'), value: 'weg', type: 'string' })).status).toBe(200);
    expect(byKey(await x.list()).has(k('temp'))).toBe(true);
    const del = await x.write('delete', { key: k('temp') }, { cookie: adminCookie });
    expect(del.status).toBe(200);
    expect(del.success).toBe(true);
    if (x.name === 'REST') expect(del.json).toEqual({ success: true });
    expect(byKey(await x.list()).has(k('temp'))).toBe(false);
    expect(await dbRow(k('temp'))).toBeUndefined();
  });

  it('keeps a password setting when an edit sends an empty value, and changes it when the edit sends a new one', async () => {
    const key = k('pass');
    expect((await add({ key, value: 'eerste-geheim', type: 'password', visibility: 'admin', description: 'v1' })).status).toBe(200);
    const keep = await x.write('edit', { key, value: '', type: 'password', visibility: 'admin', description: 'v2' }, { cookie: adminCookie });
    expect(keep.status).toBe(200);
    expect(JSON.stringify(keep.json)).not.toContain('eerste-geheim');
    expect(await getSetting(t.deps, key)).toBe('eerste-geheim');
    expect((await dbRow(key))?.description).toBe('v2');

    const change = await x.write('edit', { key, value: 'tweede-geheim', type: 'password', visibility: 'admin' }, { cookie: adminCookie });
    expect(change.status).toBe(200);
    expect(JSON.stringify(change.json)).not.toContain('tweede-geheim');
    expect(await getSetting(t.deps, key)).toBe('tweede-geheim');
    expect(byKey(await x.list(adminCookie)).get(key)?.value).toBe('');
  });

  it('stores password values encrypted on add, edit and inline update, and an empty edit keeps the same ciphertext', async () => {
    const key = k('sealed');
    const stored = async () => (await dbRow(key))!.value;
    expect((await add({ key, value: 'smtp-wachtwoord-1', type: 'password', visibility: 'admin' })).status).toBe(200);
    const first = await stored();
    expect(first).toMatch(/^enc:v1:[A-Za-z0-9+/]+=*$/);
    expect(first).not.toContain('smtp-wachtwoord-1');
    expect(await getSetting(t.deps, key)).toBe('smtp-wachtwoord-1');

    expect((await x.write('edit', { key, value: '', type: 'password', visibility: 'admin', description: 'kept' }, { cookie: adminCookie })).status).toBe(200);
    expect(await stored()).toBe(first);

    expect((await x.write('edit', { key, value: 'smtp-wachtwoord-2', type: 'password', visibility: 'admin' }, { cookie: adminCookie })).status).toBe(200);
    const second = await stored();
    expect(second).toMatch(/^enc:v1:/);
    expect(second).not.toContain('smtp-wachtwoord-2');
    expect(await getSetting(t.deps, key)).toBe('smtp-wachtwoord-2');

    expect((await x.write('update', { key, value: 'smtp-wachtwoord-3' }, { cookie: adminCookie })).status).toBe(200);
    const third = await stored();
    expect(third).toMatch(/^enc:v1:/);
    expect(third).not.toContain('smtp-wachtwoord-3');
    expect(await getSetting(t.deps, key)).toBe('smtp-wachtwoord-3');
    // The same text twice gives another ciphertext (a fresh IV each time).
    expect((await x.write('update', { key, value: 'smtp-wachtwoord-3' }, { cookie: adminCookie })).status).toBe(200);
    expect(await stored()).not.toBe(third);

    // Turned into a plain string without a new value, it holds no value at all (not the ciphertext).
    expect((await x.write('edit', { key, value: '', type: 'string', visibility: 'admin' }, { cookie: adminCookie })).status).toBe(200);
    expect(await stored()).toBe('');
    expect(await getSetting(t.deps, key)).toBe('');
  });

  it('stores min and max as null for a setting that is not an integer', async () => {
    expect((await add({ key: k('bounded'), value: 'abc', type: 'string', min_value: 1, max_value: 5 })).status).toBe(200);
    const row = await dbRow(k('bounded'));
    expect(row?.minValue).toBeNull();
    expect(row?.maxValue).toBeNull();
    expect(byKey(await x.list()).get(k('bounded'))).toMatchObject({ min_value: null, max_value: null });
  });

  it('stores min and max for an integer setting and checks later updates against them', async () => {
    expect((await add({ key: k('count'), value: '5', type: 'integer', min_value: '1', max_value: 10 })).status).toBe(200);
    expect(byKey(await x.list()).get(k('count'))).toMatchObject({ value: 5, min_value: 1, max_value: 10 });
    const high = await x.write('update', { key: k('count'), value: '11' }, { cookie: adminCookie });
    expect(high.status).toBe(400);
    expect(high.error).toBe('Value must be at most 10.');
    const outOfBoundsAdd = await add({ key: k('count2'), value: '0', type: 'integer', min_value: 1 });
    expect(outOfBoundsAdd.status).toBe(400);
    expect(outOfBoundsAdd.error).toBe('Value must be at least 1.');
  });

  it('refuses a minimum greater than the maximum', async () => {
    const answer = await add({ key: k('minmax'), value: '5', type: 'integer', min_value: 10, max_value: 1 });
    expect(answer.status).toBe(400);
    expect(answer.error).toBe('Minimum cannot be greater than maximum.');
    expect(await dbRow(k('minmax'))).toBeUndefined();
  });

  it('refuses a bound that is not a whole number', async () => {
    const answer = await add({ key: k('minfrac'), value: '5', type: 'integer', min_value: 1.5 });
    expect(answer.status).toBe(400);
    expect(answer.error).toBe('Minimum and maximum must be whole numbers.');
  });

  it('refuses to change the type of a built-in setting', async () => {
    const answer = await x.write('edit', { key: 'allow_registration', value: 'maybe', type: 'string' }, { cookie: adminCookie });
    expect(answer.status).toBe(400);
    expect(answer.error).toBe('The type of a built-in setting cannot be changed.');
    expect((await dbRow('allow_registration'))?.type).toBe('boolean');
  });

  it('refuses a default user group that does not exist, and accepts an existing one', async () => {
    const update = await x.write('update', { key: 'default_user_group_id', value: '9999' }, { cookie: adminCookie });
    expect(update.status).toBe(400);
    expect(update.error).toBe('The default user group must be an existing group.');
    const edit = await x.write(
      'edit',
      { key: 'default_user_group_id', value: '9999', type: 'integer', visibility: 'admin', group_name: 'auth' },
      { cookie: adminCookie },
    );
    expect(edit.status).toBe(400);
    expect(edit.error).toBe('The default user group must be an existing group.');
    expect(await getSetting(t.deps, 'default_user_group_id')).toBe(usersGroupId);

    const [plain] = await t.db
      .insert(groups)
      .values({ name: `${x.name} plain group` })
      .returning();
    expect((await x.write('update', { key: 'default_user_group_id', value: String(plain!.id) }, { cookie: adminCookie })).status).toBe(200);
    expect(await getSetting(t.deps, 'default_user_group_id')).toBe(plain!.id);
    expect((await x.write('update', { key: 'default_user_group_id', value: usersGroupId }, { cookie: adminCookie })).status).toBe(200);
    expect(await getSetting(t.deps, 'default_user_group_id')).toBe(usersGroupId);
    await t.db.delete(groups).where(eq(groups.id, plain!.id));
  });

  it('refuses a default user group that holds admin.access: everyone who registers would be an administrator', async () => {
    const answer = await x.write('update', { key: 'default_user_group_id', value: String(adminsGroupId) }, { cookie: adminCookie });
    expect(answer.status).toBe(400);
    expect(answer.error).toBe('The default user group cannot hold admin.access: everyone who registers would be an administrator.');
    expect(await getSetting(t.deps, 'default_user_group_id')).toBe(usersGroupId);
  });

  it.each([
    ['a value that is an object', { key: 'wrong.value', value: { a: 1 }, type: 'string' }, 'Key, value and type are required.'],
    ['a key that is a number', { key: 123, value: 'x', type: 'string' }, 'Key, value and type are required.'],
    ['an unknown type', { key: 'wrong.type', value: '1.5', type: 'float' }, 'Key, value and type are required.'],
    ['an unknown visibility', { key: 'wrong.vis', value: 'x', type: 'string', visibility: 'secret' }, 'Visibility must be public, private or admin.'],
    ['deletable as text', { key: 'wrong.del', value: 'x', type: 'string', deletable: 'yes' }, 'deletable must be true or false.'],
    ['a key with capitals', { key: 'Bad Key', value: 'x', type: 'string' }, 'Key must start with a lowercase letter and contain only a-z, 0-9, _ . -'],
    ['a 65-character key', { key: 'a'.repeat(65), value: 'x', type: 'string' }, 'Key is too long (at most 64 characters).'],
    ['a 100 KB value', { key: 'wrong.long', value: 'x'.repeat(100 * 1024), type: 'string' }, 'Value is too long (at most 10000 characters).'],
  ])('answers %s with 400 and a readable error, never a 500', async (_what, body, message) => {
    const answer = await add(body);
    expect(answer.status).toBe(400);
    expect(answer.error).toBe(message);
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '123'],
  ])('answers a body that is %s with 400, never a 500', async (_what, rawBody) => {
    const answer = await x.write('add', undefined, { rawBody, cookie: adminCookie });
    expect(answer.status).toBe(400);
    expect(answer.success).toBe(false);
    expect(typeof answer.error).toBe('string');
  });

  it('answers a malformed JSON body with 400', async () => {
    const answer = await x.write('add', undefined, { rawBody: '{"key": "a", value: }', cookie: adminCookie });
    expect(answer.status).toBe(400);
    if (x.name === 'REST') expect(answer.json).toMatchObject({ success: false, error: 'Malformed JSON body', code: 'MALFORMED_JSON' });
    else {
      expect(answer.json.error.data.code).toBe('MALFORMED_JSON');
      expect(answer.json.error.message).toBe('Malformed JSON body');
    }
  });
});

describe('REST body limits and unknown paths', () => {
  it('answers a body over 256 KB with 413 "Request body too large"', async () => {
    const r = await t.request('/api/settings/add', {
      cookie: adminCookie,
      body: { key: 'huge', value: 'x'.repeat(300 * 1024), type: 'string' },
    });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ success: false, error: 'Request body too large', code: 'BODY_TOO_LARGE' });
  });

  it('answers a body announced over 256 KB by its Content-Length with 413', async () => {
    const rawBody = JSON.stringify({ key: 'huge', value: 'x'.repeat(300 * 1024), type: 'string' });
    const r = await t.request('/api/settings/add', { cookie: adminCookie, rawBody, headers: { 'content-length': String(rawBody.length) } });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ success: false, error: 'Request body too large', code: 'BODY_TOO_LARGE' });
  });

  it('counts the 256 KB limit in bytes: a 300 KB body of multi-byte characters without Content-Length gets 413', async () => {
    // 100,000 × '€' is 100,000 UTF-16 units but 300,000 bytes on the wire.
    const rawBody = JSON.stringify({ key: 'huge', value: '€'.repeat(100_000), type: 'string' });
    expect(new TextEncoder().encode(rawBody).length).toBeGreaterThan(256 * 1024);
    const r = await t.request('/api/settings/add', { cookie: adminCookie, rawBody });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ success: false, error: 'Request body too large', code: 'BODY_TOO_LARGE' });
  });

  it('answers a tRPC body over 256 KB with a 4xx, never a 500', async () => {
    const r = await t.request('/trpc/settings.add', { cookie: adminCookie, body: { key: 'huge', value: 'x'.repeat(300 * 1024), type: 'string' } });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.status).toBe(413);
    expect(r.json.error.message).toBe('Request body too large');
  });

  it('answers an unknown API path with a 404 JSON error', async () => {
    const get = await t.request('/api/nope');
    expect(get.status).toBe(404);
    expect(get.json).toMatchObject({ success: false, error: 'Not found', code: 'NOT_FOUND' });
    const post = await t.request('/api/nope', { body: {} });
    expect(post.status).toBe(404);
    expect(post.json).toMatchObject({ success: false, error: 'Not found', code: 'NOT_FOUND' });
  });

  it('answers an unknown tRPC procedure with 404', async () => {
    const r = await t.request('/trpc/settings.nope');
    expect(r.status).toBe(404);
    expect(r.json.error.data.code).toBe('NOT_FOUND');
  });
});

describe('getSetting for server use', () => {
  let g: TestApp;
  beforeAll(async () => {
    g = await createTestApp();
  });
  afterAll(async () => {
    await g.close();
  });

  it('falls back to the built-in default when a built-in row is missing', async () => {
    await g.db.delete(settings).where(eq(settings.key, 'password_min_length'));
    g.deps.settingsCache.invalidate();
    expect(await getSetting(g.deps, 'password_min_length')).toBe(6);
  });

  it('fails with "Missing required setting <key>" for a key without a row and without a default', async () => {
    for (const key of ['no.such.key', 'default_user_group_id']) {
      if (key === 'default_user_group_id') {
        await g.db.delete(settings).where(eq(settings.key, key));
        g.deps.settingsCache.invalidate();
      }
      const error = await getSetting(g.deps, key).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).message).toBe(`Missing required setting ${key}`);
    }
  });
});

describe('password settings at rest', () => {
  it('encrypts at start the password settings an older version stored in clear, once, and reads them back', async () => {
    const a = await createTestApp();
    try {
      await a.db.insert(settings).values({
        key: 'legacy.secret',
        value: 'oud-geheim',
        type: 'password',
        description: '',
        visibility: 'admin',
        deletable: true,
        groupName: 'general',
        updatedAt: new Date().toISOString(),
      });
      a.deps.settingsCache.invalidate();
      // Read as it stands before the next start.
      expect(await getSetting(a.deps, 'legacy.secret')).toBe('oud-geheim');

      await prepareDatabase({ ...a.deps, db: a.database }, { username: 'admin', password: 'not-used-admin-exists' });
      const [row] = await a.db.select().from(settings).where(eq(settings.key, 'legacy.secret'));
      expect(row!.value).toMatch(/^enc:v1:/);
      expect(row!.value).not.toContain('oud-geheim');
      a.deps.settingsCache.invalidate();
      expect(await getSetting(a.deps, 'legacy.secret')).toBe('oud-geheim');

      // A second start leaves the sealed value alone.
      await prepareDatabase({ ...a.deps, db: a.database }, { username: 'admin', password: 'not-used-admin-exists' });
      const [again] = await a.db.select().from(settings).where(eq(settings.key, 'legacy.secret'));
      expect(again!.value).toBe(row!.value);
    } finally {
      await a.close();
    }
  });

  it('says which setting cannot be read when SECRET_KEY changed, and refuses a reader without the key', async () => {
    const a = await createTestApp();
    try {
      const cookie = await a.cookieFor('admin');
      const added = await a.request('/api/settings/add', { cookie, body: { key: 'smtp.secret', value: 'geheim', type: 'password', visibility: 'admin' } });
      expect(added.json).toEqual({ success: true });
      const failure = (promise: Promise<unknown>) =>
        promise.then(
          () => null,
          (e: unknown) => e as AppError,
        );
      const otherKey = await failure(getSetting({ ...a.deps, secretKey: 'f'.repeat(64) }, 'smtp.secret'));
      expect(otherKey).toBeInstanceOf(AppError);
      expect(otherKey!.message).toBe('Setting smtp.secret cannot be read with this SECRET_KEY; enter its value again.');
      const noKey = await failure(getSetting({ db: a.deps.db, settingsCache: a.deps.settingsCache }, 'smtp.secret'));
      expect(noKey!.message).toBe('Setting smtp.secret is a password and needs the secret key to be read.');
    } finally {
      await a.close();
    }
  });
});

describe('refuseDuringMaintenance', () => {
  let m: TestApp;
  let mAdmin: string;
  const ctxOf = async (username: string | null) => {
    if (!username) return { db: m.db, settingsCache: m.deps.settingsCache, user: null };
    const [row] = await m.db.select({ id: users.id }).from(users).where(eq(users.username, username));
    return { db: m.db, settingsCache: m.deps.settingsCache, user: await loadUserProfile(m.db, row!.id) };
  };
  const setMaintenance = async (on: boolean) => {
    const r = await m.request('/api/settings/update', { cookie: mAdmin, body: { key: 'maintenance_mode', value: on } });
    expect(r.json).toEqual({ success: true });
  };

  beforeAll(async () => {
    m = await createTestApp();
    await m.createUser('member', ['Users']);
    mAdmin = await m.cookieFor('admin');
  });
  afterAll(async () => {
    expect(m.errors).toEqual([]);
    await m.close();
  });

  it('does nothing for anyone while maintenance_mode is false', async () => {
    await setMaintenance(false);
    await expect(refuseDuringMaintenance(await ctxOf(null))).resolves.toBeUndefined();
    await expect(refuseDuringMaintenance(await ctxOf('member'))).resolves.toBeUndefined();
    await expect(refuseDuringMaintenance(await ctxOf('admin'))).resolves.toBeUndefined();
  });

  it('refuses anonymous visitors and plain users with AppError 503 Maintenance while maintenance_mode is true', async () => {
    await setMaintenance(true);
    for (const who of [null, 'member']) {
      const error = await refuseDuringMaintenance(await ctxOf(who)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(503);
      expect((error as AppError).message).toBe('Maintenance');
    }
  });

  it('lets an admin through while maintenance_mode is true', async () => {
    await setMaintenance(true);
    await expect(refuseDuringMaintenance(await ctxOf('admin'))).resolves.toBeUndefined();
  });

  it('keeps reads working during maintenance and lets everyone through again once it is switched off', async () => {
    await setMaintenance(true);
    const r = await m.request('/api/settings');
    expect(r.status).toBe(200);
    expect(byKey(r.json.settings).get('maintenance_mode')?.value).toBe(true);
    await setMaintenance(false);
    await expect(refuseDuringMaintenance(await ctxOf(null))).resolves.toBeUndefined();
  });
});
