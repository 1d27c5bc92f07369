import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformDb as Db } from '../../src/db/client';
import { exportedTables, exportTables } from '../../src/features/backups/table-export';
import { startNodeServer } from '../../src/node';
import { VALID_INVOICE_SETTINGS } from '../support/invoice-settings';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * docs/architecture.md §6 backups on Node (docs/decisions/051): the admin calls, and the restore drill —
 * back up a running server, change its data, stop it, `npm run restore`, start it: every table row by row
 * and the order search are as they were at the backup, and the stored files and the key are back.
 */

const run = promisify(execFile);
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const mode = (path: string) => statSync(path).mode & 0o777;
const orderId = async (db: Db, created: Record<string, unknown>) =>
  (await db.all<{ id: number }>(sql`SELECT id FROM orders WHERE reference = ${created.order_reference as string}`))[0]!.id;
const ORDER = { email: 'klant@example.nl', phone: '0517 123456', address: 'Voorstraat 1', postal_code: '8861 BJ', city: 'Harlingen', amount: 2 };

describe('the backup calls (POST/GET /api/admin/backups, download; backups.create/list)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { BACKUP_KEEP: '2' } });
    admin = await t.cookieFor('admin');
  });
  afterAll(async () => t.close());
  afterEach(() => expect(t.errors).toEqual([]));

  it('makes a consistent copy with the stored files and the key, lists it newest first, downloads it, and keeps BACKUP_KEEP', async () => {
    await t.deps.files.put('invoices/F2026-0001.pdf', new TextEncoder().encode('%PDF-1.7 factuur'));
    const made = await t.request('/api/admin/backups', { method: 'POST', cookie: admin, body: {} });
    expect(made.status).toBe(200);
    expect(made.json).toEqual({ success: true, name: 'kerstactie-2026-11-22T10-00-00-000Z.tar.gz', bytes: expect.any(Number) });
    const file = join(t.dir, 'backups', made.json.name);
    expect(statSync(file).size).toBe(made.json.bytes);
    expect(mode(join(t.dir, 'backups'))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    const { stdout } = await run('tar', ['-tzf', file]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual(['invoices/', 'invoices/F2026-0001.pdf', 'kerstactie.db', 'secret.key']);

    const download = await t.request(`/api/admin/backups/download?name=${made.json.name}`, { cookie: admin });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/gzip');
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${made.json.name}"`);
    expect(Number(download.headers.get('content-length'))).toBe(made.json.bytes);

    t.clock.advance(60_000);
    const second = await t.request('/trpc/backups.create', { method: 'POST', cookie: admin, body: {} });
    expect(second.json.result.data).toMatchObject({ success: true, name: 'kerstactie-2026-11-22T10-01-00-000Z.tar.gz' });
    t.clock.advance(60_000);
    await t.request('/api/admin/backups', { method: 'POST', cookie: admin, body: {} });
    const list = await t.request('/api/admin/backups', { cookie: admin });
    expect(list.json.backups.map((b: { name: string }) => b.name)).toEqual([
      'kerstactie-2026-11-22T10-02-00-000Z.tar.gz',
      'kerstactie-2026-11-22T10-01-00-000Z.tar.gz',
    ]);
    expect(list.json.backups[0]).toEqual({
      name: 'kerstactie-2026-11-22T10-02-00-000Z.tar.gz',
      bytes: expect.any(Number),
      created_at: '2026-11-22T10:02:00.000Z',
    });
    const viaTrpc = await t.request('/trpc/backups.list', { cookie: admin });
    expect(viaTrpc.json.result.data).toEqual(list.json);
    expect(readdirSync(join(t.dir, 'backups')).sort()).toEqual(['kerstactie-2026-11-22T10-01-00-000Z.tar.gz', 'kerstactie-2026-11-22T10-02-00-000Z.tar.gz']);
  });

  it('answers 404 for an unknown or path-like name', async () => {
    for (const name of ['kerstactie-2020-01-01T00-00-00-000Z.tar.gz', '../test.db', 'secret.key', '..%2Fsecret.key', '', '%2Fetc%2Fpasswd']) {
      const answer = await t.request(`/api/admin/backups/download?name=${name}`, { cookie: admin });
      expect(answer.status, name).toBe(404);
      expect(answer.json).toMatchObject({ success: false, error: 'Not found', code: 'BACKUP_NOT_FOUND' });
    }
  });

  it('is for admins only', async () => {
    await t.createUser('penningmeester', ['Users']);
    const user = await t.cookieFor('penningmeester');
    expect((await t.request('/api/admin/backups', { method: 'POST', body: {} })).status).toBe(401);
    for (const cookie of [user]) {
      expect((await t.request('/api/admin/backups', { method: 'POST', cookie, body: {} })).status).toBe(403);
      expect((await t.request('/api/admin/backups', { cookie })).status).toBe(403);
      expect((await t.request('/trpc/backups.list', { cookie })).status).toBe(403);
      const list = await t.request('/api/admin/backups', { cookie: admin });
      expect((await t.request(`/api/admin/backups/download?name=${list.json.backups[0].name}`, { cookie })).status).toBe(403);
    }
  });
});

/** Every table of the schema, row by row in rowid order, and the search index's own check. */
async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const { name } of exportedTables()) tables[name] = await db.all(sql.raw(`SELECT * FROM "${name}" ORDER BY rowid`));
  await db.run(sql`INSERT INTO orders_fts(orders_fts, rank) VALUES ('integrity-check', 1)`);
  return tables;
}

describe('the restore drill on Node (npm run backup, npm run restore)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kerstactie-drill-'));
  // Relative, as `npm start`'s default `data` is: the archive's links to the stored folders must still resolve.
  const env = { DATA_DIR: relative(process.cwd(), dir), PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'drill-admin-password' };
  const cli = (script: string, args: string[] = []) =>
    run(process.execPath, [join('scripts', script), ...args], { env: { ...process.env, ...env, SECRET_KEY: '' }, timeout: 60_000 }).then(
      (done) => ({ code: 0, out: done.stdout + done.stderr }),
      (failed: { code: number; stdout: string; stderr: string }) => ({ code: failed.code, out: failed.stdout + failed.stderr }),
    );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function signIn(base: string) {
    const login = await fetch(`${base}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: env.ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const post = async (path: string, body: unknown) => {
      const answer = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
      const json = (await answer.json()) as Record<string, unknown>;
      expect(json, path).toMatchObject({ success: true });
      return json;
    };
    const search = async (q: string) =>
      ((await (await fetch(`${base}/orders?q=${encodeURIComponent(q)}&sort=name&dir=asc`, { headers: { cookie } })).json()) as { name: string }[]).map(
        (o) => o.name,
      );
    return { post, search };
  }

  it('brings back every table, the search, the stored files and the key as they were at the backup', async () => {
    let server = await startNodeServer(env);
    let api = await signIn(`http://127.0.0.1:${server.port}`);
    const sjoerd = await api.post('/orders/create', { ...ORDER, name: 'Sjoerd Visser', notes: 'achterdeur' });
    const gone = await api.post('/orders/create', { ...ORDER, name: 'Wytze de Boer' });
    await api.post('/api/settings/update', { key: 'club_name', value: 'Ronde Tafel Harlingen' });
    for (const [key, value] of Object.entries(VALID_INVOICE_SETTINGS)) await api.post('/api/settings/update', { key, value });
    expect(await api.post(`/orders/sendInvoice?id=${await orderId(server.database, sjoerd)}`, {})).toMatchObject({ invoice_number: 'F2026-0001' });
    await server.deps.files.put('apks/kept.apk', new TextEncoder().encode('PK\u0003\u0004 bewaard'));

    const backup = await cli('backup.mjs');
    expect(backup.code, backup.out).toBe(0);
    const [name] = readdirSync(join(dir, 'backups'));
    expect(backup.out).toContain(`Backup ${join(env.DATA_DIR, 'backups', name!)}`);
    const atBackup = await snapshot(server.database);
    const searchAtBackup = [await api.search('visser'), await api.search('achterdeur'), await api.search('harlingen')];
    expect(searchAtBackup).toEqual([['Sjoerd Visser'], ['Sjoerd Visser'], ['Sjoerd Visser', 'Wytze de Boer']]);
    const keyAtBackup = readFileSync(join(dir, 'secret.key'), 'utf8');

    // Changes after the backup: orders, a user, a setting, files.
    const klaas = await api.post('/orders/create', { ...ORDER, name: 'Klaas Bakker' });
    // An invoice issued after the backup: its number and PDF are out in the world.
    expect(await api.post(`/orders/sendInvoice?id=${await orderId(server.database, klaas)}`, {})).toMatchObject({ invoice_number: 'F2026-0002' });
    const [klaasPdfKey] = await server.database.all<{ key: string }>(sql`SELECT invoice_file_key AS key FROM orders WHERE invoice_number = 'F2026-0002'`);
    const [wytze] = await server.database.all<{ id: number }>(sql`SELECT id FROM orders WHERE reference = ${gone.order_reference as string}`);
    await api.post(`/orders/delete?id=${wytze!.id}`, {});
    await api.post('/api/settings/update', { key: 'club_name', value: 'Iets anders' });
    await api.post('/api/account/edit', { email: 'beheer@example.nl' });
    await server.deps.files.put('apks/later.apk', new TextEncoder().encode('PK\u0003\u0004 later'));
    await server.deps.files.delete('apks/kept.apk');
    expect(await snapshot(server.database)).not.toEqual(atBackup);

    const refused = await cli('restore.mjs', [join(dir, 'backups', name!)]);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('is in use: stop the server');
    await server.close();
    // libsql closes a connection when its last prepared statement is collected: the server's process
    // would have exited, this test's goes on, so it collects them before the restore looks for users.
    collectGarbage();

    const restored = await cli('restore.mjs', [join(dir, 'backups', name!)]);
    expect(restored.code, restored.out).toBe(0);
    const aside = readdirSync(join(dir, 'backups')).find((entry) => entry.startsWith('before-restore-'))!;
    expect(restored.out).toContain(`what it replaced is in ${join(env.DATA_DIR, 'backups', aside)}`);
    expect(readdirSync(join(dir, 'backups', aside)).sort()).toEqual(['apks', 'invoices', 'kerstactie.db', 'secret.key', 'series']);
    expect(readdirSync(join(dir, 'backups', aside, 'apks'))).toEqual(expect.arrayContaining([expect.stringMatching(/later\.apk$/)]));

    server = await startNodeServer(env);
    try {
      api = await signIn(`http://127.0.0.1:${server.port}`);
      const afterRestore = await snapshot(server.database);
      // The drill's own sign-ins and their audit entries are the only rows made since.
      for (const table of ['sessions', 'audit_log', 'rate_limits']) {
        afterRestore[table] = afterRestore[table]!.slice(0, atBackup[table]!.length);
      }
      expect(afterRestore).toEqual(atBackup);
      expect([await api.search('visser'), await api.search('achterdeur'), await api.search('harlingen')]).toEqual(searchAtBackup);
      expect(await api.search('bakker')).toEqual([]);
      expect(readFileSync(join(dir, 'secret.key'), 'utf8')).toBe(keyAtBackup);
      expect(readdirSync(join(dir, 'apks'))).toEqual(['kept.apk']);
      expect(existsSync(join(dir, 'apks', 'later.apk'))).toBe(false);
      for (const path of ['kerstactie.db', 'secret.key', 'apks', 'apks/kept.apk']) expect(mode(join(dir, path)), path).toBe(path === 'apks' ? 0o700 : 0o600);

      // docs/decisions/049: the number and PDF issued after the backup are kept, so the next invoice is not F2026-0002 again.
      expect(existsSync(join(dir, klaasPdfKey!.key))).toBe(true);
      expect(readdirSync(join(dir, 'series', 'invoice', '2026')).sort()).toEqual(['0001', '0002']);
      const next = await api.post('/orders/create', { ...ORDER, name: 'Anna Jansen' });
      const anna = await orderId(server.database, next);
      expect(await api.post(`/orders/sendInvoice?id=${anna}`, {})).toMatchObject({ invoice_number: 'F2026-0003' });
      const [annaPdfKey] = await server.database.all<{ key: string }>(sql`SELECT invoice_file_key AS key FROM orders WHERE id = ${anna}`);
      expect(annaPdfKey!.key).not.toBe(klaasPdfKey!.key);
    } finally {
      await server.close();
    }
  }, 120_000);
});

describe('npm run restore of a Worker backup (.json.gz)', () => {
  it('puts its rows into a stopped Node database, or writes them as SQL for wrangler d1 execute', async () => {
    const t = await createTestApp();
    try {
      const admin = await t.cookieFor('admin');
      const order = await t.request('/orders/create', { cookie: admin, body: { ...ORDER, name: "Douwe O'Brien" } });
      expect(order.json.success).toBe(true);
      const atBackup = await snapshot(t.database);
      const exportFile = join(t.dir, 'kerstactie-2026-11-22T10-00-00-000Z.json.gz');
      writeFileSync(exportFile, gzipSync(JSON.stringify(await exportTables(t.database, t.clock.now()))));
      await t.request('/orders/create', { cookie: admin, body: { ...ORDER, name: 'Later Besteld' } });

      const restoreEnv = { ...process.env, DATA_DIR: t.dir, DATABASE_URL: `file:${join(t.dir, 'test.db')}` };
      const sqlFile = join(t.dir, 'restore.sql');
      await run(process.execPath, [join('scripts', 'restore.mjs'), exportFile, '--sql', sqlFile], { env: restoreEnv, timeout: 60_000 });
      const script = readFileSync(sqlFile, 'utf8');
      expect(script).toContain('DELETE FROM "orders";');
      expect(script).toContain("'Douwe O''Brien'");
      expect(script).toContain(`INSERT INTO "orders_fts"("orders_fts") VALUES ('rebuild');`);
      // The kept counts are no data of their own either: counted afresh from the restored orders (docs/decisions/074).
      expect(script).not.toMatch(/INSERT INTO "order_counts" \(.*\) VALUES/);
      expect(script.trimEnd()).toMatch(/INSERT INTO "order_counts" .*\s+SELECT .* FROM "orders" GROUP BY 1, 2, 3, 4, 5;$/);

      const client = (t.database as unknown as { $client: import('@libsql/client').Client }).$client;
      client.close();
      collectGarbage();
      const { stdout } = await run(process.execPath, [join('scripts', 'restore.mjs'), exportFile], { env: restoreEnv, timeout: 60_000 });
      expect(stdout).toContain('the rows it replaced are in');
      client.reconnect();
      expect(await snapshot(t.database)).toEqual(atBackup);
      const found = await t.database.all<{ rowid: number }>(sql`SELECT rowid FROM orders_fts WHERE orders_fts MATCH 'obrien' OR orders_fts MATCH 'brien'`);
      expect(found).toHaveLength(1);
      const kept = await t.database.all(sql`SELECT club_id, paid, invoice_sent, cancelled, delivered, orders FROM order_counts ORDER BY 1, 2, 3, 4, 5`);
      const counted = await t.database.all(
        sql`SELECT club_id, paid, invoice_sent, cancelled, delivered, count(*) AS orders FROM orders GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
      );
      expect(kept).toEqual(counted);
      expect(counted.length).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  }, 120_000);
});
