import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startNodeServer } from '../../src/node';

/** docs/decisions/032: what `npm start` writes under DATA_DIR is readable by its owner only. */

const parent = mkdtempSync(join(tmpdir(), 'kerstactie-datadir-'));

afterAll(() => rmSync(parent, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the Node server’s data folder', () => {
  it('is created 0700, with the database and the generated secret key 0600', async () => {
    const dataDir = join(parent, 'fresh');
    const server = await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'data-dir-admin' });
    await server.close();
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'kerstactie.db'))).toBe(0o600);
    expect(mode(join(dataDir, 'secret.key'))).toBe(0o600);
  });

  it('tightens a folder that was made world-readable before', async () => {
    const dataDir = join(parent, 'older');
    mkdirSync(dataDir, { mode: 0o755 });
    const server = await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'data-dir-admin' });
    await server.close();
    expect(mode(dataDir)).toBe(0o700);
  });

  it('keeps the database’s -wal and -shm files 0600 while it runs, also for a database file made world-readable before', async () => {
    const dataDir = join(parent, 'wal');
    mkdirSync(dataDir, { mode: 0o700 });
    writeFileSync(join(dataDir, 'kerstactie.db'), '', { mode: 0o644 });
    const server = await startNodeServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'data-dir-admin' });
    try {
      for (const name of ['kerstactie.db', 'kerstactie.db-wal', 'kerstactie.db-shm']) expect(mode(join(dataDir, name)), name).toBe(0o600);
    } finally {
      await server.close();
    }
  });
});
