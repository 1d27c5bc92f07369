import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asClubId, clubDb } from '../../src/db/club-db';
import { mailOutbox, orders, sessions } from '../../src/db/schema';
import { SUSPENDED_CLUB_PAGE, UNKNOWN_CLUB_PAGE } from '../../src/http/club-pages';
import { createTestApp, type TestApp } from '../support/test-app';
import { CLUB_B_HOST, createTwoClubs, type TwoClubs } from '../support/two-clubs';

const ORDER = {
  name: 'Anna Jansen',
  email: 'anna@example.nl',
  phone: '0612345678',
  address: 'Voorstraat 1',
  postal_code: '8861 BM',
  city: 'Harlingen',
  amount: 2,
};

describe('two clubs on one deployment (DESIGN §6 "Many clubs")', () => {
  let t: TwoClubs;
  beforeAll(async () => {
    t = await createTwoClubs();
  });
  afterAll(() => t.close());

  it('lists both clubs, with hosts and counts, for the platform only', async () => {
    await t.asA('/orders/create', { body: ORDER });
    const list = await t.asA('/api/platform/clubs');
    expect(list.status).toBe(200);
    expect(list.json.clubs).toEqual([
      { id: 1, slug: 'kerstactie', name: 'Ronde Tafel 144 Harlingen', status: 'active', hosts: [], created_at: expect.any(String), orders: 1, users: 1 },
      { id: t.clubB, slug: 'sneek', name: 'Ronde Tafel 99 Sneek', status: 'active', hosts: [CLUB_B_HOST], created_at: expect.any(String), orders: 0, users: 1 },
    ]);
    // Club B's admin holds admin.access in B, which passes no platform check.
    expect((await t.asB('/api/platform/clubs')).status).toBe(403);
    expect((await t.asB('/api/platform/clubs', { body: { name: 'X', slug: 'xxx', hosts: ['x.test'], admin_email: 'x@x.nl' } })).status).toBe(403);
    expect((await t.request('/api/platform/clubs')).status).toBe(401);
  });

  it('gives the new club its own defaults: its name, the set-up pending, its groups and one admin', async () => {
    const settings = await t.asB('/api/settings');
    const value = (key: string) => settings.json.settings.find((s: { key: string }) => s.key === key)?.value;
    expect(value('club_name')).toBe('Ronde Tafel 99 Sneek');
    expect(value('club_setup_pending')).toBe(true);
    // Not the first club's address and links (docs/decisions/073): customers' mail goes to the new admin until the set-up.
    expect(['club_town', 'club_address', 'club_email', 'club_facebook_url', 'club_website_url'].map(value)).toEqual(['', '', 'beheer@sneek.example', '', '']);
    const users = await t.asB('/api/users');
    expect(users.json.users.map((u: { username: string }) => u.username)).toEqual(['admin']);
    const permissions = await t.asB('/api/permissions');
    expect(permissions.json.permissions.map((p: { key: string }) => p.key)).not.toContain('platform.access');
    const permissionsA = await t.asA('/api/permissions');
    expect(permissionsA.json.permissions.map((p: { key: string }) => p.key)).toContain('platform.access');
  });

  it('mailed the set-password link on the new club’s own origin, valid 7 days', async () => {
    const [invite] = await t.dbB.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'beheer@sneek.example'));
    expect(invite!.textBody).toContain(`http://${CLUB_B_HOST}:8787/reset-password?token=`);
    expect(invite!.subject).toContain('Ronde Tafel 99 Sneek');
  });

  it('refuses a taken slug or host with 409, and a club without a host when there is no CLUBS_DOMAIN', async () => {
    const taken = await t.asA('/api/platform/clubs', { body: { name: 'Dubbel', slug: 'sneek', hosts: ['c.club.test'], admin_email: 'c@c.nl' } });
    expect([taken.status, taken.json.code]).toEqual([409, 'CLUB_SLUG_TAKEN']);
    const host = await t.asA('/api/platform/clubs', { body: { name: 'Dubbel', slug: 'dubbel', hosts: ['B.CLUB.TEST'], admin_email: 'c@c.nl' } });
    expect([host.status, host.json.code]).toEqual([409, 'CLUB_HOST_TAKEN']);
    const first = await t.asA('/api/platform/clubs', { body: { name: 'Dubbel', slug: 'dubbel', hosts: ['127.0.0.1'], admin_email: 'c@c.nl' } });
    expect([first.status, first.json.code]).toEqual([409, 'CLUB_HOST_TAKEN']);
    const none = await t.asA('/api/platform/clubs', { body: { name: 'Dubbel', slug: 'dubbel', admin_email: 'c@c.nl' } });
    expect([none.status, none.json.code]).toEqual([400, 'CLUB_HOST_REQUIRED']);
    const slug = await t.asA('/api/platform/clubs', { body: { name: 'Dubbel', slug: 'No Slug!', hosts: ['c.club.test'], admin_email: 'c@c.nl' } });
    expect(slug.status).toBe(400);
  });

  it('answers a host of no club with 404 and a Dutch page, once there are two clubs', async () => {
    const response = await t.request('/api/settings', { host: 'elders.example' });
    expect(response.status).toBe(404);
    expect(response.text).toBe(UNKNOWN_CLUB_PAGE);
    expect(response.text).toContain('Deze kerstactie bestaat niet');
    expect(response.headers.get('content-type')).toContain('text/html');
  });

  it('knows a session only on the host of its club (401 on the other)', async () => {
    expect((await t.request('/api/users', { cookie: t.adminA })).status).toBe(200);
    expect((await t.request('/api/users', { cookie: t.adminA, host: CLUB_B_HOST })).status).toBe(401);
    expect((await t.request('/api/users', { cookie: t.adminB })).status).toBe(401);
    expect((await t.request('/api/users', { cookie: t.adminB, host: CLUB_B_HOST })).status).toBe(200);
    // Club A's password does not sign in on club B, whose admin has a name of its own.
    const login = await t.request('/api/account/login', { host: CLUB_B_HOST, body: { username: 'admin', password: t.adminAPassword } });
    expect(login.status).toBe(401);
  });

  it('starts each club’s series at 0001: order references and invoice numbers', async () => {
    const a = await t.asA('/orders/create', { body: { ...ORDER, name: 'Tweede A' } });
    expect(a.json.order_reference).toBe('KP-2026-0002');
    const b = await t.asB('/orders/create', { body: { ...ORDER, name: 'Eerste B' } });
    expect(b.json.order_reference).toBe('KP-2026-0001');
    const both = await t.database.select({ clubId: orders.clubId, reference: orders.reference }).from(orders);
    expect(both.map((row) => `${row.clubId}:${row.reference}`).sort()).toEqual(['1:KP-2026-0001', '1:KP-2026-0002', `${t.clubB}:KP-2026-0001`]);
  });

  it('answers an id of another club with 404, and lists none of its rows', async () => {
    const [orderOfA] = await t.db.select({ id: orders.id }).from(orders).limit(1);
    const refused = await t.asB(`/orders/delete?id=${orderOfA!.id}`, { body: {} });
    expect([refused.status, refused.json.code]).toEqual([404, 'ORDER_NOT_FOUND']);
    const listed = await t.asB('/orders?page=1');
    expect(listed.json.orders.map((o: { name: string }) => o.name)).toEqual(['Eerste B']);
    expect(listed.json.total).toBe(1);
    expect(await t.db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderOfA!.id))).toHaveLength(1);
  });

  it('suspends a club: every request on its hosts answers 503 with a Dutch page, and its sessions end', async () => {
    const suspend = await t.asA(`/api/platform/clubs/update?id=${t.clubB}`, { body: { status: 'suspended' } });
    expect(suspend.json).toEqual({ success: true });
    const page = await t.request('/', { host: CLUB_B_HOST, headers: { accept: 'text/html' } });
    expect([page.status, page.text]).toEqual([503, SUSPENDED_CLUB_PAGE]);
    expect((await t.asB('/api/users')).status).toBe(503);
    expect(await clubDb(t.database, asClubId(t.clubB)).select().from(sessions)).toEqual([]);
    // Club A goes on; the first club itself cannot be suspended.
    expect((await t.asA('/api/users')).status).toBe(200);
    const first = await t.asA('/api/platform/clubs/update?id=1', { body: { status: 'suspended' } });
    expect([first.status, first.json.code]).toEqual([409, 'FIRST_CLUB_NOT_SUSPENDABLE']);

    expect((await t.asA(`/api/platform/clubs/update?id=${t.clubB}`, { body: { status: 'active' } })).json).toEqual({ success: true });
    // The session ended with the suspension stays ended.
    expect((await t.asB('/api/users')).status).toBe(401);
    expect((await t.request('/api/settings', { host: CLUB_B_HOST })).status).toBe(200);
    const audit = await t.asA('/api/audit?action=club.updated');
    expect(audit.json.entries.map((e: { details: unknown }) => e.details)).toEqual([{ status: ['suspended', 'active'] }, { status: ['active', 'suspended'] }]);
  });

  it('moves a club to other hosts: the old host is no club’s any more', async () => {
    const moved = await t.asA(`/api/platform/clubs/update?id=${t.clubB}`, { body: { hosts: ['kerst.sneek.example', CLUB_B_HOST] } });
    expect(moved.json).toEqual({ success: true });
    const name = async (host: string) =>
      (await t.request('/api/settings', { host })).json?.settings?.find((s: { key: string }) => s.key === 'club_name')?.value;
    expect(await name('kerst.sneek.example')).toBe('Ronde Tafel 99 Sneek');
    await t.asA(`/api/platform/clubs/update?id=${t.clubB}`, { body: { hosts: ['kerst.sneek.example'] } });
    expect((await t.request('/api/settings', { host: CLUB_B_HOST })).status).toBe(404);
    await t.asA(`/api/platform/clubs/update?id=${t.clubB}`, { body: { hosts: [CLUB_B_HOST] } });
  });
});

describe('a deployment with one club', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers on any host, as before there were clubs', async () => {
    const response = await t.request('/api/settings', { host: 'wat.dan.ook' });
    expect(response.status).toBe(200);
  });
});

describe('signing up a club on /aanmelden (POST /api/clubs/signup, /api/clubs/verify)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { CLUBS_DOMAIN: 'kerst.test' } });
  });
  afterAll(() => t.close());
  const SIGNUP = {
    club_name: 'Lions Franeker',
    slug: 'franeker',
    email: 'Secretaris@Franeker.example',
    username: 'secretaris',
    password: 'een-goed-wachtwoord',
  };

  it('answers 404 while club_signup is off', async () => {
    const response = await t.request('/api/clubs/signup', { body: SIGNUP });
    expect([response.status, response.json.code]).toEqual([404, 'CLUB_SIGNUP_CLOSED']);
  });

  it('mails a verification link; the link makes the club, with its user as admin, once', async () => {
    const admin = await t.cookieFor('admin');
    expect((await t.request('/api/settings/update', { cookie: admin, body: { key: 'club_signup', value: true } })).status).toBe(200);
    const answer = await t.request('/api/clubs/signup', { body: SIGNUP });
    expect(answer.json).toEqual({ success: true });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'club_signup'));
    expect(mail!.subject).toBe('Bevestig de aanmelding van Lions Franeker');
    expect(mail!.textBody).toContain('http://franeker.kerst.test:8787');
    const token = /clubs\/verify\?token=([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1]!;
    expect(mail!.textBody).toContain(`http://127.0.0.1:8787/clubs/verify?token=${token}`);

    // Nothing exists before the link is used: with one club, its host still answers the only club.
    const before = await t.request('/api/settings', { host: 'franeker.kerst.test' });
    expect(before.json.settings.find((s: { key: string }) => s.key === 'club_name').value).toBe('Ronde Tafel 144 Harlingen');
    const again = await t.request('/api/clubs/signup', { body: { ...SIGNUP, slug: 'kerstactie' } });
    expect([again.status, again.json.code]).toEqual([409, 'CLUB_SLUG_TAKEN']);

    const verified = await t.request('/api/clubs/verify', { body: { token } });
    expect(verified.json).toEqual({ success: true, url: 'http://franeker.kerst.test:8787' });
    const login = await t.request('/api/account/login', { host: 'franeker.kerst.test', body: { username: 'secretaris', password: SIGNUP.password } });
    expect(login.status).toBe(200);
    expect(login.json.user.permissions.map((p: { key: string }) => p.key)).toContain('admin.access');
    const reused = await t.request('/api/clubs/verify', { body: { token } });
    expect([reused.status, reused.json.code]).toEqual([400, 'CLUB_SIGNUP_LINK_INVALID']);
  });

  it('refuses an expired link', async () => {
    await t.request('/api/clubs/signup', { body: { ...SIGNUP, slug: 'bolsward', email: 'b@bolsward.example' } });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'b@bolsward.example'));
    const token = /clubs\/verify\?token=([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1]!;
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    const late = await t.request('/api/clubs/verify', { body: { token } });
    expect([late.status, late.json.code]).toEqual([400, 'CLUB_SIGNUP_LINK_INVALID']);
  });

  it('is open on the first club’s host only', async () => {
    const elsewhere = await t.request('/api/clubs/signup', { host: 'franeker.kerst.test', body: { ...SIGNUP, slug: 'dokkum' } });
    expect([elsewhere.status, elsewhere.json.code]).toEqual([404, 'CLUB_SIGNUP_CLOSED']);
  });
});
