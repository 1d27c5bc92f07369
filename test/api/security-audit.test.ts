import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, orders, sequences, tablers, users } from '../../src/db/schema';
import { auditIfChanged, writeAudit } from '../../src/features/audit/audit';
import { parseConfig } from '../../src/env';
import { deliverOutbox } from '../../src/features/mail/mail-delivery';
import { sha256Hex } from '../../src/platform/crypto';
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
      ['0001', '0002', '0003', '0004'].map((n) => [
        200,
        { success: true, order_reference: `KP-2026-${n}`, order_url: expect.stringMatching(/\/bestelling\/[A-Za-z0-9_-]{43}$/) },
      ]),
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
      expect([answer.status, answer.json], name).toMatchObject([
        400,
        { success: false, error: 'Naam mag geen link of e-mailadres bevatten.', code: 'NAME_HAS_LINK' },
      ]);
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
    await t.database.run(sql`CREATE TRIGGER outbox_down BEFORE INSERT ON mail_outbox BEGIN SELECT RAISE(ABORT, 'outbox unavailable'); END`);
    const failed = await order({});
    expect(failed.status).toBe(500);
    expect(await t.db.select().from(orders)).toHaveLength(0);
    expect(await t.db.select().from(sequences)).toHaveLength(0);
    t.errors.length = 0;
    await t.database.run(sql`DROP TRIGGER outbox_down`);
    const stored = await order({});
    expect(stored.json).toEqual({ success: true, order_reference: 'KP-2026-0001', order_url: expect.stringMatching(/\/bestelling\/[A-Za-z0-9_-]{43}$/) });
    expect((await confirmations()).map((m) => m.textBody.includes('Bestelnummer: KP-2026-0001\nAantal kerstpakketten: 1 (€ 75 per pakket'))).toEqual([true]);
  });
});

describe('reset links after the audit (docs/decisions/055)', () => {
  let t: TestApp;
  let adminCookie: string;
  let ip = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: 'https://kerst.example.nl' } });
    adminCookie = await t.cookieFor('admin');
  });

  afterAll(async () => {
    await t.close();
  });

  const from = () => ({ 'x-test-client-ip': `10.92.${Math.floor(++ip / 200)}.${ip % 200}` });

  async function userWithMail(username: string) {
    const user = await t.createUser(username, ['Users'], { password: 'old-password-1' });
    await t.db
      .update(users)
      .set({ email: `${username}@example.nl` })
      .where(eq(users.id, user.id));
    return user;
  }

  async function mailedToken(username: string): Promise<string> {
    expect((await t.request('/api/account/forgot', { headers: from(), body: { login: username } })).status).toBe(200);
    const mails = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, `${username}@example.nl`));
    return /reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mails.at(-1)!.textBody)![1]!;
  }

  const reset = (token: string) => t.request('/api/account/reset', { headers: from(), body: { token, new_password: 'taken-over-123' } });
  const INVALID_LINK = { success: false, error: 'This password reset link is invalid or has expired. Request a new one.', code: 'RESET_LINK_INVALID' };

  it('voids an outstanding reset link when the user changes their password', async () => {
    await userWithMail('changer');
    const token = await mailedToken('changer');
    const cookie = await t.cookieFor('changer');
    const changed = await t.request('/api/account/changepassword', { cookie, body: { old_password: 'old-password-1', new_password: 'new-password-2' } });
    expect(changed.status).toBe(200);
    const answer = await reset(token);
    expect([answer.status, answer.json]).toEqual([400, INVALID_LINK]);
  });

  it('voids an outstanding reset link when an admin sets a new password or address for the user', async () => {
    const user = await userWithMail('adminreset');
    const token = await mailedToken('adminreset');
    expect((await t.request(`/api/users/edituser?id=${user.id}`, { cookie: adminCookie, body: { password: 'admin-chose-this' } })).status).toBe(200);
    expect((await reset(token)).json).toEqual(INVALID_LINK);

    const second = await mailedToken('adminreset');
    expect((await t.request(`/api/users/edituser?id=${user.id}`, { cookie: adminCookie, body: { email: 'nieuw-adres@example.nl' } })).status).toBe(200);
    expect((await reset(second)).json).toEqual(INVALID_LINK);
  });

  it('never shows a reset token in the mail view, and blanks the link in the stored row once the mail is delivered', async () => {
    await userWithMail('delivered');
    const token = await mailedToken('delivered');
    const view = await t.request('/api/mail', { cookie: adminCookie });
    expect(view.status).toBe(200);
    expect(view.json.messages.some((m: { kind: string; status: string }) => m.kind === 'password-reset' && m.status === 'queued')).toBe(true);
    expect(view.text).not.toContain(token);
    expect(view.text).not.toContain(sha256Hex(token));

    const sent: string[] = [];
    t.deps.mailTransport = { send: async (message) => void sent.push(message.text) };
    try {
      await deliverOutbox(t.deps);
    } finally {
      t.deps.mailTransport = null;
    }
    expect(sent.some((text) => text.includes(`https://kerst.example.nl/reset-password?token=${token}`))).toBe(true);
    const stored = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'delivered@example.nl'));
    expect(stored.map((m) => m.status)).toEqual(['sent']);
    expect(stored[0]!.textBody).not.toContain(token);
    expect(stored[0]!.textBody).toContain('https://kerst.example.nl/reset-password?token=(removed after delivery)');
    // The link in the delivered mail still works.
    expect((await reset(token)).status).toBe(200);
  });

  it('does the same round trips before answering a forgot-password request for an account and for an unknown login', async () => {
    await userWithMail('timing');
    const statementsFor = async (login: string) => {
      t.queries.reset();
      expect((await t.request('/api/account/forgot', { headers: from(), body: { login } })).json).toEqual({ success: true });
      return t.queries.statements.map((statement) => statement.replace(/\?|'[^']*'|\d+/g, '_'));
    };
    const known = await statementsFor('timing');
    const unknown = await statementsFor('nobody-by-this-name');
    expect(unknown.length).toBe(known.length);
    // The same reads and counters, then one batch each of the same four statements (for an unknown login
    // the link's and the mail's inserts select nothing).
    expect(unknown.slice(0, -1)).toEqual(known.slice(0, -1));
    for (const batch of [known.at(-1), unknown.at(-1)]) {
      expect(batch).toMatch(
        /^update "password_resets" [^;]*; insert into "password_resets" [^;]*; insert into "audit_log" [^;]*; insert into "mail_outbox" [^;]*$/,
      );
    }
  });
});

describe('the REST surface and browsers’ simple requests (docs/decisions/055)', () => {
  let t: TestApp;
  let adminCookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    adminCookie = await t.cookieFor('admin');
  });

  afterAll(async () => {
    await t.close();
  });

  it('refuses a JSON body sent as text/plain or form-encoded with 415, and changes nothing', async () => {
    for (const contentType of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await t.request('/api/settings/update', {
        cookie: adminCookie,
        headers: { 'content-type': contentType },
        rawBody: JSON.stringify({ key: 'club_name', value: 'Overgenomen' }),
      });
      expect([answer.status, answer.json], contentType).toMatchObject([
        415,
        { success: false, error: 'Content-Type must be application/json', code: 'UNSUPPORTED_MEDIA_TYPE' },
      ]);
    }
    const bare = await t.app.request('http://127.0.0.1/api/account/forgot', { method: 'POST', body: JSON.stringify({ login: 'admin' }) });
    expect(bare.status).toBe(415);
    const settings = await t.request('/api/settings');
    expect(JSON.stringify(settings.json)).not.toContain('Overgenomen');
  });

  it('still takes JSON with a charset, and a POST without a body', async () => {
    const answer = await t.request('/api/settings/update', {
      cookie: adminCookie,
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      rawBody: JSON.stringify({ key: 'club_name', value: 'Ronde Tafel 144 Harlingen' }),
    });
    expect(answer.json).toEqual({ success: true });
    expect((await t.app.request('http://127.0.0.1/api/account/logout', { method: 'POST' })).status).toBe(200);
  });

  it('refuses a tRPC mutation sent as text/plain as well', async () => {
    const answer = await t.request('/trpc/settings.update', {
      cookie: adminCookie,
      headers: { 'content-type': 'text/plain' },
      rawBody: JSON.stringify({ key: 'club_name', value: 'Overgenomen' }),
    });
    expect(answer.status).toBe(415);
  });
});

describe('settings whose value is a URL (docs/decisions/055)', () => {
  let t: TestApp;
  let adminCookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    adminCookie = await t.cookieFor('admin');
  });

  afterAll(async () => {
    await t.close();
  });

  const update = (key: string, value: string) => t.request('/api/settings/update', { cookie: adminCookie, body: { key, value } });

  it('refuses javascript:, data: and other schemes for every URL setting, and takes http(s)', async () => {
    for (const key of ['club_facebook_url', 'club_website_url', 'geocoder_url']) {
      for (const value of [
        'javascript:alert(1)',
        ' JavaScript:alert(document.cookie)',
        'data:text/html,<script>alert(1)</script>',
        'ftp://x.nl/',
        '//evil.example/',
        'https://',
        ...(key === 'geocoder_url' ? [''] : []),
      ]) {
        const answer = await update(key, value);
        expect([answer.status, answer.json], `${key} ${value}`).toEqual([
          400,
          { success: false, error: 'Value must be an http:// or https:// address (e.g. https://www.example.nl/).', code: 'SETTING_URL_INVALID' },
        ]);
      }
      expect((await update(key, 'https://www.example.nl/pagina')).json, key).toEqual({ success: true });
      expect((await update(key, 'HTTP://kerst.lan:8080/')).json, key).toEqual({ success: true });
      // A club without a social page or site of its own leaves the link empty (docs/decisions/073).
      if (key !== 'geocoder_url') expect((await update(key, '')).json, key).toEqual({ success: true });
    }
  });
});

describe('audit entries keep no control characters (docs/decisions/055)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('spells out C0, C1, DEL and bidirectional controls in targets and details, whichever way the entry is written', async () => {
    const typed = 'adm\u001b[2J\u0007in\u0085\u009b31m\u007f\u202eten\u0000';
    const spelt = 'adm\\u001b[2J\\u0007in\\u0085\\u009b31m\\u007f\\u202eten\\u0000';
    const failed = await t.request('/api/account/login', { headers: { 'x-test-client-ip': '10.93.0.1' }, body: { username: typed, password: 'whatever-1' } });
    expect(failed.status).toBe(401);
    const ctx = { db: t.db, clock: t.clock, ip: '10.93.0.2', user: { id: 1, username: 'admin' } };
    await t.db.batch([
      t.db.update(users).set({ updatedAt: t.clock.now().toISOString() }).where(eq(users.username, 'admin')),
      auditIfChanged(ctx, { action: 'user.updated', target: `user:1 (${typed})`, details: { 'k\u001b': [typed, { deeper: typed }], n: 3 } }),
    ]);
    await writeAudit(ctx, { action: 'user.updated', target: typed, details: { email: [null, typed] } });
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.action, 'auth.login_failed'));
    const written = await t.db.select().from(auditLog).where(eq(auditLog.ip, '10.93.0.2'));
    expect(entries.map((e) => e.target)).toEqual([spelt]);
    expect(written.map((e) => [e.target, JSON.parse(e.details)])).toEqual([
      [`user:1 (${spelt})`, { 'k\\u001b': [spelt, { deeper: spelt }], n: 3 }],
      [spelt, { email: [null, spelt] }],
    ]);
  });
});

describe('isolation headers (docs/decisions/055)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // A built page as the assets binding serves it: a raw Response whose headers the app copies onto.
    t = await createTestApp({ assets: async () => new Response('<!doctype html><title>Kerstactie</title>', { headers: { 'content-type': 'text/html' } }) });
  });

  afterAll(async () => {
    await t.close();
  });

  it('sends COOP, CORP and a Permissions-Policy on a page, an API answer, an error and the APK download', async () => {
    const answers = {
      page: await t.app.request('http://127.0.0.1/faq'),
      api: await t.app.request('http://127.0.0.1/api/settings'),
      refused: await t.app.request('http://127.0.0.1/api/users'),
      apk: await t.app.request('http://127.0.0.1/api/update/latest'),
    };
    expect(answers.page.headers.get('content-type')).toContain('text/html');
    expect([answers.api.status, answers.refused.status]).toEqual([200, 401]);
    for (const [what, response] of Object.entries(answers)) {
      expect(response.headers.get('cross-origin-opener-policy'), what).toBe('same-origin');
      expect(response.headers.get('cross-origin-resource-policy'), what).toBe('same-origin');
      expect(response.headers.get('permissions-policy'), what).toBe(
        'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), hid=(), magnetometer=(), microphone=(), midi=(), payment=(), serial=(), usb=()',
      );
    }
  });
});
