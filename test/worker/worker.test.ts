import { env, SELF } from 'cloudflare:test';
import { clubDb, FIRST_CLUB_ID } from '../../src/db/club-db';
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { openD1Db } from '../../src/db/d1';
import { mailOutbox, users } from '../../src/db/schema';
import { TEST_ARGON2_PARAMS } from '../support/argon2-params';
import { createR2FileStore } from '../../src/platform/files-r2';
import { enqueueMailUnlessWaiting } from '../../src/platform/mail';
import { createPasswordHasher } from '../../src/platform/password';
import { jsArgon2id } from '../../src/platform/password-js';
import { buildTestApk } from '../support/zip';
import { adminCookie } from './sign-in';

/** `createPasswordHasher(nodeArgon2id).hash('Kerst-pakket 2026!')` under Node 24. */
const NODE_MADE_HASH = '$argon2id$v=19$m=19456,t=2,p=1$dtj8LAeqdOE2HGtfGQYKsw$GRtqPgtuG9li55O35vYloLzDneENK3q/x+fgebf85e0';

const bindings = env as unknown as { APKS: Parameters<typeof createR2FileStore>[0]; DB: Parameters<typeof openD1Db>[0] };

describe('the Worker entry inside workerd', () => {
  it('serves the public settings from D1, typed, after seeding on first request', async () => {
    const response = await SELF.fetch('https://kerst.example/api/settings');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('strict-transport-security')).toContain('max-age=');
    const body = (await response.json()) as { settings: { key: string; value: unknown; visibility: string }[] };
    const byKey = new Map(body.settings.map((s) => [s.key, s]));
    expect(byKey.get('allow_registration')?.value).toBe(false);
    expect(byKey.get('password_min_length')?.value).toBe(6);
    expect(byKey.get('package_price')?.value).toBe(75);
    expect(body.settings.every((s) => s.visibility === 'public')).toBe(true);
  });

  it('serves the prerendered public pages from the assets, the SPA shell for other routes, robots.txt and the sitemap', async () => {
    const page = (path: string) => SELF.fetch(`https://kerst.example${path}`, { headers: { accept: 'text/html' } });
    const faq = await page('/faq');
    expect(faq.status).toBe(200);
    const faqHtml = await faq.text();
    expect(faqHtml).toContain('data-prerendered="/faq"');
    expect(faqHtml).toContain('<title>Veelgestelde Vragen | Kerstactie Ronde Tafel 144 Harlingen</title>');
    expect(faq.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await (await page('/')).text()).toContain('data-prerendered="/"');
    for (const path of ['/admin', '/login', '/no-such-page']) {
      const shell = await page(path);
      expect(shell.status, path).toBe(200);
      const html = await shell.text();
      expect(html, path).toContain('<div id="root"></div>');
      expect(html, path).not.toContain('data-prerendered');
    }
    expect((await SELF.fetch('https://kerst.example/assets/no-such-file.js')).status).toBe(404);
    expect(await (await SELF.fetch('https://kerst.example/robots.txt')).text()).toContain('Sitemap: https://kerst.example/sitemap.xml');
    expect(await (await SELF.fetch('https://kerst.example/sitemap.xml')).text()).toContain('<loc>https://kerst.example/faq</loc>');
  });

  it('refuses an admin call from an anonymous visitor with 401', async () => {
    const response = await SELF.fetch('https://kerst.example/api/settings/update', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: 'maintenance_mode', value: true }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false, error: 'Not logged in', code: 'NOT_LOGGED_IN' });
  });

  it('answers the tRPC settings list', async () => {
    const response = await SELF.fetch('https://kerst.example/trpc/settings.list');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: { data: { settings: { key: string }[] } } };
    expect(body.result.data.settings.map((s) => s.key)).toContain('maintenance_mode');
  });

  it('queues one invoice mail in D1 for sends at the same moment (one atomic conditional insert)', async () => {
    const db = clubDb(openD1Db(bindings.DB), FIRST_CLUB_ID);
    const clock = { now: () => new Date('2026-12-01T09:00:00.000Z') };
    const mail = { kind: 'invoice', to: 'klant@example.nl', subject: 'Factuur F2026-0001', text: 'In de bijlage.', relatedRef: 'order:worker-1' };
    await Promise.all([1, 2, 3, 4].map(() => enqueueMailUnlessWaiting(db, clock, mail)));
    const rows = await db.select().from(mailOutbox).where(eq(mailOutbox.relatedRef, 'order:worker-1')).orderBy(asc(mailOutbox.id));
    expect(rows.map((row) => [row.status, row.toAddress, row.nextAttemptAt])).toEqual([['queued', 'klant@example.nl', Date.parse('2026-12-01T09:00:00.000Z')]]);
  });

  it('stores a streamed file in R2 and reads it back', async () => {
    const files = createR2FileStore(bindings.APKS);
    const bytes = new Uint8Array(200_000).map((_, i) => i % 251);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 65_536) controller.enqueue(bytes.slice(offset, offset + 65_536));
        controller.close();
      },
    });
    const { size } = await files.put('apks/test.apk', stream, { size: bytes.length, contentType: 'application/vnd.android.package-archive' });
    expect(size).toBe(bytes.length);
    expect(await files.exists('apks/test.apk')).toBe(true);
    const stored = await files.get('apks/test.apk');
    expect(stored?.size).toBe(bytes.length);
    const back = new Uint8Array(await new Response(stored!.body as never).arrayBuffer());
    expect(back).toEqual(bytes);
    await files.delete('apks/test.apk');
    expect(await files.get('apks/test.apk')).toBeNull();
  });
});

describe('accounts inside workerd', () => {
  it('hashes and verifies with the production Argon2id parameters in pure JS, as Node’s native argon2 does', async () => {
    // The suites' Worker hashes cheaply (entry.ts); the deployed one uses CURRENT_ARGON2_PARAMS, checked here.
    const passwords = createPasswordHasher(jsArgon2id);
    const hash = await passwords.hash('Kerst-pakket 2026!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await passwords.verify(hash, 'Kerst-pakket 2026!')).toBe(true);
    expect(await passwords.verify(hash, 'Kerst-pakket 2026?')).toBe(false);
    // Made by Node's crypto.argon2 with the same parameters: the two implementations agree.
    expect(await passwords.verify(NODE_MADE_HASH, 'Kerst-pakket 2026!')).toBe(true);
  });

  it('signs the admin in and starts two-factor set-up with an SVG QR code', async () => {
    const login = await SELF.fetch('https://kerst.example/api/account/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'worker-admin-password' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-kerstactie_session=[A-Za-z0-9_-]{43}; .*HttpOnly/);
    expect(cookie).toContain('Secure');
    const setup = await SELF.fetch('https://kerst.example/api/twofactor/setup', { headers: { cookie: cookie.split(';')[0]! } });
    expect(setup.status).toBe(200);
    const body = (await setup.json()) as { success: boolean; secret: string; qr_code: string; otpauth_url: string };
    expect(body.success).toBe(true);
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_url).toContain('issuer=Ronde+Tafel+144+Harlingen');
    expect(atob(body.qr_code.replace('data:image/svg+xml;base64,', ''))).toContain('<svg');
  });

  it('stores the back-office language on the user in D1 and reads it back with the identity', async () => {
    const cookie = await adminCookie('203.0.113.16');
    const me = async () =>
      ((await (await SELF.fetch('https://kerst.example/api/account/me', { headers: { cookie } })).json()) as { user: { locale: string } }).user.locale;
    const setLocale = (locale: string) =>
      SELF.fetch('https://kerst.example/api/account/locale', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ locale }),
      });
    expect(await me()).toBe('en');
    expect(await (await setLocale('nl')).json()).toEqual({ success: true });
    expect(await me()).toBe('nl');
    const refused = await setLocale('fr');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ success: false, error: 'Locale must be one of: en, nl', code: 'FIELD_NOT_ALLOWED' });
    expect(await (await setLocale('en')).json()).toEqual({ success: true });
    expect(await me()).toBe('en');
  });
});

describe('APK versions inside workerd (R2)', () => {
  it('streams an APK of 9 MiB into R2 (as a multipart upload) and serves it back whole', async () => {
    const cookie = await adminCookie('198.51.100.71');
    const apk = buildTestApk(9 * 1024 * 1024);
    const data = new FormData();
    data.append('version_code', '7');
    data.append('version_name', '1.0.7');
    data.append('apk_file', new Blob([apk as Uint8Array<ArrayBuffer>]), 'kerstactie.apk');
    const upload = await SELF.fetch('https://kerst.example/api/update/upload', { method: 'POST', headers: { cookie }, body: data as never }); // workerd's FormData at run time; typed by the DOM lib here
    const body = (await upload.json()) as { success: boolean; version: { id: number; version_code: number } };
    expect(upload.status).toBe(200);
    expect(body.version.version_code).toBe(7);

    const latest = await SELF.fetch('https://kerst.example/api/update/latest');
    expect(latest.status).toBe(200);
    expect(latest.headers.get('content-disposition')).toBe('attachment; filename="app_latest.apk"');
    expect(latest.headers.get('content-length')).toBe(String(apk.length));
    // Compare digests: a deep equality over 9 million elements would exhaust the test's memory.
    const digest = async (bytes: ArrayBuffer | Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as ArrayBuffer)).join(',');
    expect(await digest(await latest.arrayBuffer())).toBe(await digest(apk));

    const listed = await bindings.APKS.list({ prefix: 'apks/' });
    expect(listed.objects).toHaveLength(1);
  });

  it('leaves neither row nor object behind when the file is not a ZIP', async () => {
    const cookie = await adminCookie('198.51.100.71');
    const before = (await bindings.APKS.list({ prefix: 'apks/' })).objects.length;
    const data = new FormData();
    data.append('version_code', '8');
    data.append('version_name', 'broken');
    data.append('apk_file', new Blob(['this is no zip']), 'broken.apk');
    const upload = await SELF.fetch('https://kerst.example/api/update/upload', { method: 'POST', headers: { cookie }, body: data as never }); // workerd's FormData at run time; typed by the DOM lib here
    expect(upload.status).toBe(400);
    expect(await upload.json()).toMatchObject({
      success: false,
      error: 'Please select a valid APK file',
      code: 'APK_INVALID',
      message: 'Please select a valid APK file',
    });
    expect((await bindings.APKS.list({ prefix: 'apks/' })).objects.length).toBe(before);
    const list = await SELF.fetch('https://kerst.example/api/update/list', { headers: { cookie } });
    expect(((await list.json()) as { versions: { version_code: number }[] }).versions.map((v) => v.version_code)).not.toContain(8);
  });
});

describe('sign-in limits and the audit log inside workerd (D1)', () => {
  const site = 'https://kerst.example';
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    SELF.fetch(`${site}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const login = (password: string, ip: string) => post('/api/account/login', { username: 'admin', password }, { 'cf-connecting-ip': ip });
  const cookieOf = (response: { headers: { get(name: string): string | null } }) => (response.headers.get('set-cookie') ?? '').split(';')[0]!;

  it('throttles sign-in per (username, address): five wrong passwords from one address do not lock the admin out elsewhere', async () => {
    for (let i = 0; i < 5; i++) expect((await login(`wrong-${i}`, '203.0.113.7')).status).toBe(401);
    expect((await login('worker-admin-password', '203.0.113.7')).status).toBe(429);
    const elsewhere = await login('worker-admin-password', '198.51.100.1');
    expect(elsewhere.status).toBe(200);
    expect(cookieOf(elsewhere)).toMatch(/^__Host-kerstactie_session=/);
  });

  it('writes audit entries in the change’s batch on D1, and none for a refused change', async () => {
    const cookie = cookieOf(await login('worker-admin-password', '198.51.100.2'));
    expect((await post('/tablers/create', { name: 'Worker Tabler' }, { cookie, 'cf-connecting-ip': '198.51.100.2' })).status).toBe(200);
    expect((await post('/tablers/create', { name: 'Worker Tabler' }, { cookie })).status).toBe(409);
    const audit = await SELF.fetch(`${site}/api/audit?action=tabler.created`, { headers: { cookie } });
    const body = (await audit.json()) as { entries: { actor_username: string; target: string; ip: string }[]; total: number };
    // The lane's files share one D1 (docs/decisions/063): this test's entries are told by their target and address.
    const mine = body.entries.filter((e) => e.target === 'tabler (Worker Tabler)');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ actor_username: 'admin', ip: '198.51.100.2' });
    const failed = (await (await SELF.fetch(`${site}/api/audit?action=auth.login_failed&per_page=200`, { headers: { cookie } })).json()) as {
      entries: { ip: string }[];
    };
    expect(failed.entries.filter((e) => e.ip === '203.0.113.7')).toHaveLength(5);
  });

  it('hands out a gate token that the order form sends with the order', async () => {
    const match = await post('/tablers/match', { password: 'worker tabler' }, { 'cf-connecting-ip': '192.0.2.10' });
    const matched = (await match.json()) as { tabler: { id: number }; gate_token: string };
    expect(matched.gate_token).toMatch(new RegExp(`^${matched.tabler.id}\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
    const order = await post(
      '/orders/create',
      {
        tabler_id: matched.tabler.id,
        gate_token: matched.gate_token,
        name: 'Jan Visser',
        email: 'jan@example.nl',
        phone: '0612345678',
        address: 'Voorstraat 3',
        postal_code: '8861 BK',
        city: 'Harlingen',
        amount: 2,
      },
      { 'cf-connecting-ip': '192.0.2.10' },
    );
    expect(order.status).toBe(200);
    const db = openD1Db(bindings.DB);
    const [mail] = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'order-confirmation'), eq(mailOutbox.toAddress, 'jan@example.nl')));
    expect(mail!.textBody).toContain('Beste Jan Visser,');
    // docs/decisions/056: the confirmation repeats where the order goes and names the member who took it.
    expect(mail!.textBody).toContain('Afleveradres:\nVoorstraat 3\n8861 BK Harlingen\nTelefoon: 0612345678');
    expect(mail!.textBody).toContain('Worker Tabler heeft je bestelling opgenomen');
  });

  it('lists the admin’s sessions, resets the password by a mailed link and ends every session', async () => {
    const cookie = cookieOf(await login('worker-admin-password', '198.51.100.3'));
    const sessions = (await (await SELF.fetch(`${site}/api/account/sessions`, { headers: { cookie } })).json()) as { sessions: { current: boolean }[] };
    expect(sessions.sessions.filter((s) => s.current)).toHaveLength(1);

    expect((await post('/api/account/edit', { email: 'beheer@example.nl' }, { cookie })).status).toBe(200);
    // docs/decisions/054: sent to another host name, the link still names PUBLIC_URL.
    const forgot = await SELF.fetch('https://evil.example/api/account/forgot', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.4', 'x-forwarded-host': 'evil.example' },
      body: JSON.stringify({ login: 'BEHEER@example.nl' }),
    });
    expect(forgot.status).toBe(200);
    const db = openD1Db(bindings.DB);
    const [mail] = await db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.kind, 'password-reset'), eq(mailOutbox.toAddress, 'beheer@example.nl')));
    expect(mail!.textBody).not.toContain('evil.example');
    const token = /https:\/\/kerst\.example\/reset-password\?token=([A-Za-z0-9_-]{43})/.exec(mail!.textBody)![1]!;
    expect((await post('/api/account/reset', { token, new_password: 'worker-new-password' })).status).toBe(200);
    expect(((await (await SELF.fetch(`${site}/api/account/me`, { headers: { cookie } })).json()) as { loggedIn: boolean }).loggedIn).toBe(false);
    expect((await login('worker-new-password', '198.51.100.5')).status).toBe(200);
    // The other files of the lane sign in with the configured password (docs/decisions/063): it is put back.
    const hash = await createPasswordHasher(jsArgon2id, TEST_ARGON2_PARAMS).hash('worker-admin-password');
    await db.update(users).set({ passwordHash: hash, email: null }).where(eq(users.username, 'admin'));
    expect((await login('worker-admin-password', '198.51.100.6')).status).toBe(200);
  });
});
