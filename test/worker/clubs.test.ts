import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { asClubId, clubDb } from '../../src/db/club-db';
import { openD1Db } from '../../src/db/d1';
import { mailOutbox, orders } from '../../src/db/schema';
import { SUSPENDED_CLUB_PAGE, UNKNOWN_CLUB_PAGE } from '../../src/http/club-pages';
import { adminCookie, SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0] };

/**
 * Two clubs on one Worker (DESIGN §6 "Many clubs on one deployment", docs/decisions/071), on D1 (or Turso on the
 * worker-turso project). The first club's admin makes club B on a host of its own; B's requests, sessions, order
 * series and suspension are B's. The file has a database of its own (docs/decisions/063): with two clubs, a host of
 * neither answers 404, which the lane's other files, sending any host, must not meet.
 */

const IP_A = '198.51.100.150';
const IP_B = '198.51.100.151';
const SUFFIX = crypto.randomUUID().slice(0, 8);
const SLUG = `w${SUFFIX}`;
const HOST_B = `${SLUG}.worker-clubs.test`;
const PASSWORD_B = 'worker-club-b-password';
const ORDER = { email: 'klant@example.nl', phone: '0612345678', address: 'Voorstraat 1', postal_code: '8861 BM', city: 'Harlingen', amount: 1 };

function call(host: string, path: string, init: { body?: unknown; cookie?: string; ip?: string; accept?: string } = {}) {
  const headers: Record<string, string> = { host, 'cf-connecting-ip': init.ip ?? IP_B };
  if (init.cookie) headers.cookie = init.cookie;
  if (init.accept) headers.accept = init.accept;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return SELF.fetch(`https://${host}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const siteHost = new URL(SITE).host;

describe('two clubs on one Worker', () => {
  const db = openD1Db(bindings.DB);
  let cookieA: string;
  let cookieB: string;
  let clubB: number;

  beforeAll(async () => {
    cookieA = await adminCookie(IP_A);
    const created = await call(siteHost, '/api/platform/clubs', {
      cookie: cookieA,
      ip: IP_A,
      body: { name: `Tafel ${SUFFIX}`, slug: SLUG, hosts: [HOST_B], admin_email: `beheer-${SUFFIX}@example.nl` },
    });
    const answer = (await created.json()) as { club_id: number };
    expect(created.status, JSON.stringify(answer)).toBe(200);
    clubB = answer.club_id;
    const [invite] = await clubDb(db, asClubId(clubB))
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, `beheer-${SUFFIX}@example.nl`));
    // The invitation's link is on B's own host.
    expect(invite!.textBody).toContain(`https://${HOST_B}/reset-password?token=`);
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(invite!.textBody)![1]!;
    const reset = await call(HOST_B, '/api/account/reset', { body: { token, new_password: PASSWORD_B } });
    expect(reset.status, await reset.text()).toBe(200);
    const login = await call(HOST_B, '/api/account/login', { body: { username: 'admin', password: PASSWORD_B } });
    expect(login.status).toBe(200);
    cookieB = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  });

  it('answers B’s host with B’s club', async () => {
    const settings = (await (await call(HOST_B, '/api/settings')).json()) as { settings: { key: string; value: unknown }[] };
    expect(settings.settings.find((s) => s.key === 'club_name')?.value).toBe(`Tafel ${SUFFIX}`);
    const users = (await (await call(HOST_B, '/api/users', { cookie: cookieB })).json()) as { users: { username: string }[] };
    expect(users.users.map((u) => u.username)).toEqual(['admin']);
  });

  it('knows A’s session only on A’s host: 401 on B’s', async () => {
    expect((await call(siteHost, '/api/users', { cookie: cookieA, ip: IP_A })).status).toBe(200);
    const onB = await call(HOST_B, '/api/users', { cookie: cookieA });
    expect([onB.status, ((await onB.json()) as { code: string }).code]).toEqual([401, 'NOT_LOGGED_IN']);
    expect((await call(siteHost, '/api/users', { cookie: cookieB, ip: IP_A })).status).toBe(401);
  });

  it('starts B’s order references at 0001 while A has orders, and refuses B’s admin A’s order (404)', async () => {
    const a = await call(siteHost, '/orders/create', { cookie: cookieA, ip: IP_A, body: { ...ORDER, name: `Klant A ${SUFFIX}` } });
    const { order_reference: referenceA } = (await a.json()) as { order_reference: string };
    expect(a.status).toBe(200);
    const b = await call(HOST_B, '/orders/create', { cookie: cookieB, body: { ...ORDER, name: `Klant B ${SUFFIX}` } });
    const { order_reference: referenceB } = (await b.json()) as { order_reference: string };
    expect(b.status).toBe(200);
    const year = referenceA.slice(3, 7);
    expect(referenceB).toBe(`KP-${year}-0001`);

    const [orderA] = await clubDb(db, asClubId(1)).select({ id: orders.id }).from(orders).where(eq(orders.reference, referenceA));
    const lookup = await call(HOST_B, `/api/payments/order?order_id=${orderA!.id}`, { cookie: cookieB });
    expect([lookup.status, ((await lookup.json()) as { code: string }).code]).toEqual([404, 'ORDER_NOT_FOUND']);
    const removed = await call(HOST_B, `/orders/delete?id=${orderA!.id}`, { cookie: cookieB, body: {} });
    expect([removed.status, ((await removed.json()) as { code: string }).code]).toEqual([404, 'ORDER_NOT_FOUND']);
    const listed = (await (await call(HOST_B, '/orders?page=1', { cookie: cookieB })).json()) as { orders: { name: string }[]; total: number };
    expect([listed.total, listed.orders.map((o) => o.name)]).toEqual([1, [`Klant B ${SUFFIX}`]]);
    expect(await clubDb(db, asClubId(1)).select({ id: orders.id }).from(orders).where(eq(orders.id, orderA!.id))).toHaveLength(1);
    // The page's total is summed from the counts the triggers keep (docs/decisions/074), each club's its own.
    const pageA = (await (await call(siteHost, '/orders?page=1&per_page=1&paid=false', { cookie: cookieA, ip: IP_A })).json()) as { total: number };
    const listedA = (await (await call(siteHost, '/orders?paid=false', { cookie: cookieA, ip: IP_A })).json()) as unknown[];
    expect(pageA.total).toBe(listedA.length);
    const kept = await db.all(sql`SELECT club_id, paid, invoice_sent, cancelled, delivered, orders FROM order_counts WHERE orders <> 0 ORDER BY 1, 2, 3, 4, 5`);
    const counted = await db.all(
      sql`SELECT club_id, paid, invoice_sent, cancelled, delivered, count(*) AS orders FROM orders GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
    );
    expect(kept).toEqual(counted);
  });

  it('answers a host of no club with 404 and the Dutch page, while there are two clubs', async () => {
    const response = await call(`nergens-${SUFFIX}.example`, '/api/settings', { accept: 'text/html' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toBe(UNKNOWN_CLUB_PAGE);
  });

  it('suspends B: 503 and the Dutch page on B’s host, A goes on', async () => {
    const suspend = await call(siteHost, `/api/platform/clubs/update?id=${clubB}`, { cookie: cookieA, ip: IP_A, body: { status: 'suspended' } });
    expect(await suspend.json()).toEqual({ success: true });
    const page = await call(HOST_B, '/', { accept: 'text/html' });
    expect([page.status, await page.text()]).toEqual([503, SUSPENDED_CLUB_PAGE]);
    const api = await call(HOST_B, '/api/users', { cookie: cookieB });
    expect([api.status, await api.text()]).toEqual([503, SUSPENDED_CLUB_PAGE]);
    expect((await call(siteHost, '/api/users', { cookie: cookieA, ip: IP_A })).status).toBe(200);
  });
});
