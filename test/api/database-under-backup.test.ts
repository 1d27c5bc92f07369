import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodeServer } from '../../src/node';

/**
 * docs/decisions/052: the Node server's database under a backup. While another connection holds a read
 * transaction and backups run (`VACUUM INTO` from a second connection in this process, and from another
 * process), 20 writers place orders over HTTP: none is answered 5xx and each is stored exactly once.
 */

const WRITERS = 20;
const ORDERS_EACH = 5;
const ADMIN_PASSWORD = 'backup-load-admin';

let dir: string;
let server: Awaited<ReturnType<typeof startNodeServer>>;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kerstactie-under-backup-'));
  server = await startNodeServer({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD });
  base = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `VACUUM INTO` from a process of its own, as `npm run backup` or a query tool would be. */
function backupFromAnotherProcess(target: string) {
  const script = `const Database = require('libsql'); const db = new Database(process.argv[1]); db.prepare('VACUUM INTO ?').run(process.argv[2]); db.close();`;
  return promisify(execFile)(process.execPath, ['-e', script, join(dir, 'kerstactie.db'), target], { cwd: process.cwd(), timeout: 20_000 });
}

describe('the Node database while it is backed up and read (docs/decisions/052)', () => {
  it('answers 20 concurrent writers without a 5xx and stores every order exactly once', async () => {
    const login = await fetch(`${base}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;

    const reader = new Database(join(dir, 'kerstactie.db'));
    reader.exec('BEGIN');
    expect(reader.prepare('SELECT count(*) AS n FROM orders').get()).toMatchObject({ n: 0 });

    const statuses: number[] = [];
    const writer = async (w: number) => {
      for (let i = 0; i < ORDERS_EACH; i++) {
        const response = await fetch(`${base}/orders/create`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({
            name: `Schrijver ${w}-${i}`,
            email: `schrijver${w}@example.nl`,
            phone: '0517 123456',
            address: 'Voorstraat 1',
            postal_code: '8861 BJ',
            city: 'Harlingen',
            amount: 1,
          }),
          signal: AbortSignal.timeout(20_000),
        });
        statuses.push(response.status);
        await response.text();
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    const backups = (async () => {
      // Let the writers start, then back up while they write: from a second connection here, and from another process.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const second = new Database(join(dir, 'kerstactie.db'));
      second.prepare('VACUUM INTO ?').run(join(dir, 'second-connection.db'));
      second.close();
      await backupFromAnotherProcess(join(dir, 'other-process-1.db'));
      await backupFromAnotherProcess(join(dir, 'other-process-2.db'));
    })();
    await Promise.all([...writers, backups]);

    // The reader kept its snapshot all along.
    expect(reader.prepare('SELECT count(*) AS n FROM orders').get()).toMatchObject({ n: 0 });
    reader.exec('COMMIT');
    reader.close();

    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const rows = (await server.database.all<{ name: string; n: number }>(sql`SELECT name, count(*) AS n FROM orders GROUP BY name ORDER BY name`)).map(
      (row) => [row.name, row.n] as const,
    );
    expect(rows).toHaveLength(WRITERS * ORDERS_EACH);
    expect(rows.every(([, n]) => n === 1)).toBe(true);
    for (const copy of ['second-connection.db', 'other-process-1.db', 'other-process-2.db']) {
      const backup = new Database(join(dir, copy));
      expect(backup.prepare('PRAGMA integrity_check').get(), copy).toMatchObject({ integrity_check: 'ok' });
      backup.close();
    }
  });
});
