import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, settings } from '../../src/db/schema';
import { housekeeping } from '../../src/features/housekeeping/housekeeping';
import { createTestApp, type TestApp } from '../support/test-app';
import { expectFailure, transports } from '../support/transports';

/**
 * docs/architecture.md §5 audit log: what admin changes write, GET /api/audit (and audit.list) with its filters and
 * paging, and retention by housekeeping.
 */

const DAY = 24 * 60 * 60 * 1000;

type Op = 'audit' | 'updateSetting' | 'addSetting' | 'editUser' | 'createTabler' | 'addGroup';

let t: TestApp;
let adminCookie: string;

const both = transports<Op>(() => t, {
  rest: {
    audit: ['GET', '/api/audit'],
    updateSetting: ['POST', '/api/settings/update'],
    addSetting: ['POST', '/api/settings/add'],
    editUser: ['POST', '/api/users/edituser', 'id'],
    createTabler: ['POST', '/tablers/create'],
    addGroup: ['POST', '/api/groups/addgroup'],
  },
  trpc: {
    audit: ['query', 'audit.list'],
    updateSetting: ['mutation', 'settings.update'],
    addSetting: ['mutation', 'settings.add'],
    editUser: ['mutation', 'users.edit', 'id'],
    createTabler: ['mutation', 'tablers.create'],
    addGroup: ['mutation', 'groups.add'],
  },
});

beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.cookieFor('admin');
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  expect(t.errors).toEqual([]);
});

describe.each(both)('$name', (tr) => {
  const name = (base: string) => `${tr.p}_${base}`;

  async function audit(query: Record<string, string> = {}, cookie = adminCookie) {
    if (tr.name === 'REST') {
      const r = await t.request(`/api/audit?${new URLSearchParams(query)}`, { cookie });
      return { status: r.status, data: r.json, json: r.json, setCookies: r.headers.getSetCookie(), headers: r.headers };
    }
    return tr.call('audit', { cookie, body: query });
  }

  it('is for admins only', async () => {
    expectFailure(tr, await tr.call('audit'), 401, 'Not logged in');
    await t.createUser(name('member'));
    expectFailure(tr, await tr.call('audit', { cookie: await t.cookieFor(name('member')) }), 403, 'Forbidden');
  });

  it('records a setting change old → new with who and from where, and never a password setting’s value', async () => {
    const update = await tr.call('updateSetting', { cookie: adminCookie, ip: '10.7.7.7', body: { key: 'club_town', value: `${tr.name} Franeker` } });
    expect(update.status).toBe(200);
    await tr.call('addSetting', {
      cookie: adminCookie,
      body: { key: name('smtp.secret'), value: 'hunter2-secret', type: 'password', description: '', visibility: 'admin', group_name: 'mail' },
    });
    await tr.call('updateSetting', { cookie: adminCookie, body: { key: name('smtp.secret'), value: 'another-secret' } });

    const answer = await audit({ action: 'setting.updated', per_page: '200' });
    expect(answer.status).toBe(200);
    const town = answer.data.entries.find((e: { target: string; ip: string }) => e.target === 'setting:club_town' && e.ip === '10.7.7.7');
    expect(town).toMatchObject({ actor_username: 'admin', action: 'setting.updated', details: { value: [expect.any(String), `${tr.name} Franeker`] } });
    expect(town.actor_id).toBe(1);
    const secret = answer.data.entries.find((e: { target: string }) => e.target === `setting:${name('smtp.secret')}`);
    expect(secret.details).toEqual({ value: 'changed' });
    const everything = JSON.stringify(await t.db.select().from(auditLog));
    expect(everything).not.toContain('hunter2-secret');
    expect(everything).not.toContain('another-secret');
  });

  it('records an admin password reset of a user as user.updated without the password, and writes nothing for a refused change', async () => {
    const user = await t.createUser(name('target'));
    expect((await tr.call('editUser', { cookie: adminCookie, id: user.id, body: { password: 'a-new-password-1', status: 'inactive' } })).status).toBe(200);
    expect((await tr.call('editUser', { cookie: adminCookie, id: user.id, body: { password: 'x' } })).status).toBe(400);
    const entries = (await audit({ action: 'user.updated' })).data.entries.filter(
      (e: { target: string }) => e.target === `user:${user.id} (${name('target')})`,
    );
    expect(entries.map((e: { details: unknown }) => e.details)).toEqual([{ status: ['active', 'inactive'], password: 'changed' }]);
    expect(JSON.stringify(entries)).not.toContain('a-new-password-1');
  });

  it('filters by actor (any case), action and inclusive dates, newest first, with paging and a total', async () => {
    const actor = await t.createUser(name('pager'), ['Administrators']);
    const cookie = await t.cookieFor(name('pager'));
    const start = t.clock.now();
    for (let i = 0; i < 5; i++) {
      expect((await tr.call('createTabler', { cookie, body: { name: `${name('Tabler')} Nummer ${'ABCDE'[i]}` } })).status).toBe(200);
      t.clock.advance(DAY);
    }
    const day = (offset: number) => new Date(start.getTime() + offset * DAY).toISOString().slice(0, 10);

    const first = await audit({ actor: name('PAGER'), action: 'tabler.created', per_page: '2' });
    expect(first.data).toMatchObject({ total: 5, page: 1, per_page: 2 });
    expect(first.data.entries.map((e: { target: string }) => e.target)).toEqual([`tabler (${name('Tabler')} Nummer E)`, `tabler (${name('Tabler')} Nummer D)`]);
    expect(first.data.entries.every((e: { actor_id: number }) => e.actor_id === actor.id)).toBe(true);
    const third = await audit({ actor: name('pager'), per_page: '2', page: '3' });
    expect(third.data.entries.map((e: { target: string }) => e.target)).toEqual([`tabler (${name('Tabler')} Nummer A)`]);

    const middle = await audit({ actor: name('pager'), from: day(1), to: day(3) });
    expect(middle.data.total).toBe(3);
    expect(middle.data.entries.map((e: { target: string }) => e.target.slice(-2, -1))).toEqual(['D', 'C', 'B']);
  });

  it('caps per_page at 200 and refuses an unknown action or a malformed date', async () => {
    expect((await audit({ per_page: '5000' })).data.per_page).toBe(200);
    expectFailure(tr, await audit({ action: 'no.such_action' }), 400, 'Unknown action');
    expectFailure(tr, await audit({ from: '23-11-2026' }), 400, 'Dates are YYYY-MM-DD');
    expectFailure(tr, await audit({ page: '0' }), 400, 'page and per_page are whole numbers from 1');
  });

  it('writes the group entry in the same batch as the group, and none when the add is refused', async () => {
    expect((await tr.call('addGroup', { cookie: adminCookie, body: { name: name('Kassa'), description: 'Geld' } })).status).toBe(200);
    expect((await tr.call('addGroup', { cookie: adminCookie, body: { name: name('KASSA'), description: 'Dubbel' } })).status).toBe(409);
    const entries = (await audit({ action: 'group.created' })).data.entries.filter(
      (e: { target: string }) => e.target.toLowerCase() === `group (${name('kassa')})`,
    );
    expect(entries).toHaveLength(1);
  });
});

describe('retention', () => {
  it('housekeeping removes entries older than audit_retention_days and keeps the rest', async () => {
    const now = t.clock.now().getTime();
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
    await t.db.insert(auditLog).values([
      { at: at(401), action: 'auth.login', target: 'retention-old' },
      { at: at(399), action: 'auth.login', target: 'retention-young' },
    ]);
    await housekeeping(t.deps);
    const left = (await t.db.select().from(auditLog)).map((e) => e.target);
    expect(left).toContain('retention-young');
    expect(left).not.toContain('retention-old');

    await t.db.update(settings).set({ value: '30' }).where(eq(settings.key, 'audit_retention_days'));
    t.deps.settingsCache.invalidate();
    await housekeeping(t.deps);
    expect((await t.db.select().from(auditLog)).map((e) => e.target)).not.toContain('retention-young');
  });
});
