import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, orders, sequences, tablers, users } from '../../src/db/schema';
import { parseConfig } from '../../src/env';
import { startNodeServer } from '../../src/node';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../support/test-app';

/**
 * The live security audit of November 2026 (docs/decisions/054 and 055): each finding with a test that
 * fails without its fix.
 */

const TOKEN_LINK = /(\S+)\/reset-password\?token=[A-Za-z0-9_-]{43}/;

async function resetLinkOrigin(db: TestApp['db'], to: string): Promise<string | undefined> {
  const mails = await db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, 'password-reset'), eq(mailOutbox.toAddress, to)));
  return TOKEN_LINK.exec(mails.at(-1)?.textBody ?? '')?.[1];
}

describe('every absolute link from the club’s configured origin (docs/decisions/054)', () => {
  let configured: TestApp;
  let plain: TestApp;

  beforeAll(async () => {
    configured = await createTestApp({ env: { PUBLIC_URL: 'https://kerst.example.nl/' } });
    plain = await createTestApp();
    for (const t of [configured, plain]) {
      const user = await t.createUser('linkuser');
      await t.db.update(users).set({ email: 'linkuser@example.nl' }).where(eq(users.id, user.id));
    }
  });

  afterAll(async () => {
    await configured.close();
    await plain.close();
  });

  const forgotFrom = (t: TestApp, url: string, headers: Record<string, string> = {}) =>
    t.app.request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ login: 'linkuser' }) });

  it('mails a reset link on PUBLIC_URL to a forgot-password request sent with Host: evil.example and forwarded-host headers', async () => {
    const answer = await forgotFrom(configured, 'http://evil.example/api/account/forgot', {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
    });
    expect(answer.status).toBe(200);
    expect(await resetLinkOrigin(configured.db, 'linkuser@example.nl')).toBe('https://kerst.example.nl');
  });

  it('without PUBLIC_URL mails the link on the default origin http://HOST:PORT, not on the request’s host', async () => {
    const answer = await forgotFrom(plain, 'http://evil.example/api/account/forgot', { host: 'evil.example' });
    expect(answer.status).toBe(200);
    expect(await resetLinkOrigin(plain.db, 'linkuser@example.nl')).toBe('http://127.0.0.1:8787');
  });

  it('writes the sitemap and robots.txt on the configured or default origin whatever the Host', async () => {
    const sitemap = await (await plain.app.request('http://evil.example/sitemap.xml')).text();
    expect(sitemap).toContain('<loc>http://127.0.0.1:8787/faq</loc>');
    expect(sitemap).not.toContain('evil.example');
    expect(await (await configured.app.request('http://evil.example/robots.txt')).text()).toContain('Sitemap: https://kerst.example.nl/sitemap.xml');
  });

  it('defaults the origin to HOST and PORT as given, an IPv6 host in brackets', () => {
    expect(parseConfig({}).origin).toBe('http://127.0.0.1:8787');
    expect(parseConfig({ HOST: 'kerst.lan', PORT: '3000' }).origin).toBe('http://kerst.lan:3000');
    expect(parseConfig({ HOST: '::1', PORT: '80' }).origin).toBe('http://[::1]');
    expect(parseConfig({ HOST: '::1', PUBLIC_URL: 'https://kerst.example.nl/pad/' }).origin).toBe('https://kerst.example.nl');
    expect(parseConfig({}).publicUrl).toBeUndefined();
  });

  it('keeps cookies without Secure and sends no HSTS on a plain start without PUBLIC_URL', async () => {
    const login = await plain.request('/api/account/login', { body: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.headers.get('set-cookie')).not.toMatch(/Secure/i);
    expect(login.headers.get('strict-transport-security')).toBeNull();
  });

  it('on Node names the port PORT=0 bound, and mails that origin to a request with a foreign Host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kerstactie-origin-'));
    const server = await startNodeServer({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD });
    try {
      expect(server.port).toBeGreaterThan(0);
      expect(server.deps.config.origin).toBe(`http://127.0.0.1:${server.port}`);
      await server.deps.db.update(users).set({ email: 'beheer@example.nl' }).where(eq(users.username, 'admin'));
      const status = await new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ login: 'admin' });
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: server.port,
            path: '/api/account/forgot',
            method: 'POST',
            headers: { host: 'evil.example', 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
      expect(status).toBe(200);
      expect(await resetLinkOrigin(server.deps.db, 'beheer@example.nl')).toBe(`http://127.0.0.1:${server.port}`);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the public order form and its confirmation mail (docs/decisions/055)', () => {
  let t: TestApp;
  let tablerId: number;
  let ip = 0;

  beforeEach(async () => {
    t = await createTestApp();
    const now = t.clock.now().toISOString();
    tablerId = (await t.db.insert(tablers).values({ name: 'Jan Jansen', createdAt: now, updatedAt: now }).returning())[0]!.id;
  });

  afterEach(async () => {
    await t.close();
  });

  const order = (extra: Record<string, unknown>) =>
    t.request('/orders/create', {
      headers: { 'x-test-client-ip': `10.91.0.${++ip}` },
      body: {
        tabler_id: tablerId,
        name: 'Anna de Boer',
        email: 'anna@example.nl',
        phone: '0517-123456',
        address: 'Voorstraat 12',
        postal_code: '8861BM',
        city: 'Harlingen',
        amount: 1,
        ...extra,
      },
    });
  const confirmations = () => t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'order-confirmation'));

  it('mails one recipient at most 3 confirmations a day, however the address is spelt, and answers the 4th as the others', async () => {
    const answers = [];
    for (const email of ['slachtoffer@example.nl', 'Slachtoffer@Example.nl', 'slachtoffer+1@example.nl', 'slachtoffer+2@example.nl'])
      answers.push(await order({ email }));
    expect(answers.map((a) => [a.status, a.json])).toEqual(
      ['0001', '0002', '0003', '0004'].map((n) => [200, { success: true, order_reference: `KP-2026-${n}` }]),
    );
    expect(await t.db.select().from(orders)).toHaveLength(4);
    expect((await confirmations()).map((m) => m.subject)).toEqual(['0001', '0002', '0003'].map((n) => `Bevestiging van je bestelling KP-2026-${n}`));
    // Another recipient is not affected, and the day after the first one gets mail again.
    expect((await order({ email: 'iemand@example.nl' })).status).toBe(200);
    t.clock.advance(24 * 60 * 60 * 1000);
    expect((await order({ email: 'slachtoffer@example.nl' })).status).toBe(200);
    expect((await confirmations()).map((m) => m.toAddress)).toEqual([
      'slachtoffer@example.nl',
      'Slachtoffer@Example.nl',
      'slachtoffer+1@example.nl',
      'iemand@example.nl',
      'slachtoffer@example.nl',
    ]);
  });

  it('refuses a name with a link, host name or look-alike domain, and keeps real names in the greeting', async () => {
    for (const name of ['Jan www.x.nl', 'Jan x.com/inloggen', 'http jan', 'Rabobank-veilig.support', 'Klant rabo\u3002nl', 'Piet \uFF58\uFF0E\uFF4E\uFF4C']) {
      const answer = await order({ name });
      expect([answer.status, answer.json], name).toEqual([400, { success: false, error: 'Naam mag geen link of e-mailadres bevatten.' }]);
    }
    expect(await t.db.select().from(orders)).toHaveLength(0);
    for (const [name, email] of [
      ['Jan de Vries', 'jan@example.nl'],
      ['A. van Dijk', 'dijk@example.nl'],
    ]) {
      expect((await order({ name, email })).status).toBe(200);
    }
    expect((await confirmations()).map((m) => m.textBody.split('\n')[0])).toEqual(['Beste Jan de Vries,', 'Beste A. van Dijk,']);
  });

  it('stores an order and queues its confirmation in one batch: when the outbox refuses, no order is left behind', async () => {
    await t.db.run(sql`CREATE TRIGGER outbox_down BEFORE INSERT ON mail_outbox BEGIN SELECT RAISE(ABORT, 'outbox unavailable'); END`);
    const failed = await order({});
    expect(failed.status).toBe(500);
    expect(await t.db.select().from(orders)).toHaveLength(0);
    expect(await t.db.select().from(sequences)).toHaveLength(0);
    t.errors.length = 0;
    await t.db.run(sql`DROP TRIGGER outbox_down`);
    const stored = await order({});
    expect(stored.json).toEqual({ success: true, order_reference: 'KP-2026-0001' });
    expect((await confirmations()).map((m) => m.textBody.includes('Bestelnummer: KP-2026-0001\nAantal kerstpakketten: 1 (€ 75 per pakket'))).toEqual([true]);
  });
});
