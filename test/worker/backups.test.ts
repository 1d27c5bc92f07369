import { env, SELF } from 'cloudflare:test';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { PlatformDb as Db } from '../../src/db/client';
import { openD1Db } from '../../src/db/d1';
import { type DatabaseExport, exportedTables, importTables } from '../../src/features/backups/table-export';
import { adminCookie, SITE } from './sign-in';

const bindings = env as unknown as { DB: Parameters<typeof openD1Db>[0]; APKS: { list(options: { prefix: string }): Promise<{ objects: { key: string }[] }> } };

/**
 * docs/architecture.md §6 backups inside workerd (docs/decisions/051): the export to R2 under backups/, its
 * list and download, and the restore drill — back up, change, put the export back: every table row by row
 * and the order search as at the backup. On D1, and on Turso through the worker-turso project.
 */

async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const { name } of exportedTables()) tables[name] = await db.all(sql.raw(`SELECT * FROM "${name}" ORDER BY rowid`));
  return tables;
}

describe('backups inside workerd', () => {
  const headers = (cookie: string) => ({ 'content-type': 'application/json', cookie, 'cf-connecting-ip': '198.51.100.70' });
  const post = async (path: string, body: unknown, cookie: string) => {
    const response = await SELF.fetch(`${SITE}${path}`, { method: 'POST', headers: headers(cookie), body: JSON.stringify(body) });
    const json = (await response.json()) as Record<string, unknown>;
    expect(json, path).toMatchObject({ success: true });
    return json;
  };
  const order = (name: string, cookie: string, extra: Record<string, unknown> = {}) =>
    post(
      '/orders/create',
      { name, email: 'klant@example.nl', phone: '0517 123456', address: 'Voorstraat 1', postal_code: '8861 BJ', city: 'Harlingen', amount: 1, ...extra },
      cookie,
    );
  const search = async (q: string, cookie: string) =>
    ((await (await SELF.fetch(`${SITE}/orders?q=${encodeURIComponent(q)}&sort=name&dir=asc`, { headers: { cookie } })).json()) as { name: string }[]).map(
      (o) => o.name,
    );

  it('exports to R2, lists and downloads it, and a restore brings back every table and the search', async () => {
    const cookie = await adminCookie('198.51.100.71');
    await order('Sjoerd Visser', cookie, { notes: 'achterdeur' });
    const gone = await order('Wytze de Boer', cookie);
    await post('/api/settings/update', { key: 'club_name', value: 'Ronde Tafel Harlingen' }, cookie);
    const db = openD1Db(bindings.DB);
    const atBackup = await snapshot(db);
    const searchAtBackup = [await search('visser', cookie), await search('achterdeur', cookie), await search('harlingen', cookie)];
    expect(searchAtBackup).toEqual([['Sjoerd Visser'], ['Sjoerd Visser'], ['Sjoerd Visser', 'Wytze de Boer']]);

    const made = await post('/api/admin/backups', {}, cookie);
    expect(made).toEqual({
      success: true,
      name: expect.stringMatching(/^kerstactie-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.json\.gz$/),
      bytes: expect.any(Number),
    });
    expect((await bindings.APKS.list({ prefix: 'backups/' })).objects.map((o) => o.key)).toContain(`backups/${made.name as string}`);
    const list = (await (await SELF.fetch(`${SITE}/api/admin/backups`, { headers: { cookie } })).json()) as { backups: { name: string; bytes: number }[] };
    expect(list.backups[0]).toMatchObject({ name: made.name, bytes: made.bytes });
    const download = await SELF.fetch(`${SITE}/api/admin/backups/download?name=${made.name as string}`, { headers: { cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${made.name as string}"`);
    const unzipped = (download.body as unknown as ReadableStream<Uint8Array>).pipeThrough(
      new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>,
    );
    const exported = (await new Response(unzipped as unknown as BodyInit).json()) as DatabaseExport;
    expect(exported.tables.map((t) => t.name).sort()).toEqual(
      exportedTables()
        .map((t) => t.name)
        .sort(),
    );
    expect((await SELF.fetch(`${SITE}/api/admin/backups/download?name=..%2Fapks%2Fx`, { headers: { cookie } })).status).toBe(404);

    // Changes after the backup: orders, a setting.
    await order('Klaas Bakker', cookie);
    const [wytze] = await db.all<{ id: number }>(sql`SELECT id FROM orders WHERE reference = ${gone.order_reference as string}`);
    await post(`/orders/delete?id=${wytze!.id}`, {}, cookie);
    await post('/api/settings/update', { key: 'club_name', value: 'Iets anders' }, cookie);

    await importTables(db, exported);
    const afterRestore = await snapshot(db);
    // The backup's own audit entries (made, downloaded) came after the export, and so did this test's sign-in use.
    expect({ ...afterRestore, audit_log: afterRestore.audit_log!.slice(0, atBackup.audit_log!.length) }).toEqual(atBackup);
    await db.run(sql`INSERT INTO orders_fts(orders_fts, rank) VALUES ('integrity-check', 1)`);
    expect([await search('visser', cookie), await search('achterdeur', cookie), await search('harlingen', cookie)]).toEqual(searchAtBackup);
    expect(await search('bakker', cookie)).toEqual([]);
  });

  it('makes the day’s backup from the cron when there is none yet', async () => {
    const worker = (await import('../../src/worker')).default;
    const before = (await bindings.APKS.list({ prefix: 'backups/' })).objects.length;
    const waits: Promise<unknown>[] = [];
    const ctx = { waitUntil: (work: Promise<unknown>) => waits.push(work), passThroughOnException: () => undefined, props: {} };
    await worker.scheduled({} as never, env as never, ctx as never);
    await Promise.all(waits);
    // The test before made one today already: the cron leaves it at that.
    expect((await bindings.APKS.list({ prefix: 'backups/' })).objects.length).toBe(before);
  });
});
