import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type Client, LibsqlBatchError, LibsqlError } from '@libsql/client';
import Database from 'libsql';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rowValues } from './row-values';
import { BUSY_TIMEOUT_MS, createLocalClient, PAGE_CACHE_KIB, localDatabasePath } from './libsql-local';

let dir: string;
let file: string;
let client: Client;
/** A second connection to the same file: another process (a seed, db:studio) or a pool connection. */
let other: Database.Database;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kerstactie-local-client-'));
  file = join(dir, 'test.db');
  client = createLocalClient(file);
  await client.executeMultiple(`
    CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, price REAL, data TEXT);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250)
    INSERT INTO things (name, price, data) SELECT 'thing ' || i, i * 1.5, '{"i":' || i || '}' FROM n;
  `);
  other = new Database(file);
});

afterEach(() => {
  other.close();
  client.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether the other connection can write now: it cannot while this client holds a read lock. */
function otherCanWrite(): boolean {
  try {
    other.exec("BEGIN IMMEDIATE; INSERT INTO things (name) VALUES ('from the other connection ' || random()); COMMIT");
    return true;
  } catch (error) {
    if (other.inTransaction) other.exec('ROLLBACK');
    if (error instanceof Database.SqliteError && error.code === 'SQLITE_BUSY') return false;
    throw error;
  }
}

describe('the local libSQL client (docs/decisions/046)', () => {
  it('opens file: URLs and :memory:, and leaves remote URLs and URLs with options to @libsql/client', () => {
    expect(localDatabasePath('file:/data/kerstactie.db')).toBe('/data/kerstactie.db');
    expect(localDatabasePath('file:///data/kerstactie.db')).toBe('/data/kerstactie.db');
    expect(localDatabasePath('file://localhost/data/kerstactie.db')).toBe('/data/kerstactie.db');
    expect(localDatabasePath('file:data/my%20db.db')).toBe('data/my db.db');
    expect(localDatabasePath(':memory:')).toBe(':memory:');
    expect(localDatabasePath('file::memory:')).toBe(':memory:');
    expect(localDatabasePath('file://example.com/data.db')).toBeNull();
    expect(localDatabasePath('file:/data/kerstactie.db?mode=ro')).toBeNull();
    expect(localDatabasePath('libsql://club.turso.io')).toBeNull();
    expect(localDatabasePath('https://club.turso.io')).toBeNull();
    expect(localDatabasePath('file:')).toBeNull();
  });

  it('answers rows by column name (own, enumerable) and by position, as @libsql/client does', async () => {
    const result = await client.execute({ sql: 'SELECT id, name, price FROM things WHERE id = ?', args: [2] });
    expect(result.columns).toEqual(['id', 'name', 'price']);
    expect(result.rowsAffected).toBe(0);
    const [row] = result.rows;
    expect(Object.keys(row!)).toEqual(['id', 'name', 'price']);
    expect({ ...row }).toEqual({ id: 2, name: 'thing 2', price: 3 });
    expect(Array.prototype.slice.call(row)).toEqual([2, 'thing 2', 3]);
    // The array itself for whole-row reads by position (docs/decisions/075), not a copy of it.
    expect(rowValues(row as unknown as unknown[])).toEqual([2, 'thing 2', 3]);
    expect(rowValues(row as unknown as unknown[])).toBe(rowValues(row as unknown as unknown[]));
    expect(rowValues(row as unknown as unknown[])).not.toBe(row);
    expect(row!.length).toBe(3);
    expect(result.toJSON()).toEqual({
      columns: ['id', 'name', 'price'],
      columnTypes: ['INTEGER', 'TEXT', 'REAL'],
      rows: [[2, 'thing 2', 3]],
      rowsAffected: 0,
      lastInsertRowid: null,
    });
  });

  it('keeps every position when a name repeats (a join), the first column owning the name', async () => {
    const { rows } = await client.execute('SELECT a.id, a.name, b.id, b.name FROM things a JOIN things b ON b.id = a.id + 1 WHERE a.id = 1');
    expect(Array.prototype.slice.call(rows[0])).toEqual([1, 'thing 1', 2, 'thing 2']);
    expect({ ...rows[0] }).toEqual({ id: 1, name: 'thing 1' });
  });

  it('reports writes: rows affected and the last row id', async () => {
    const inserted = await client.execute({ sql: 'INSERT INTO things (name, price) VALUES (?, ?)', args: ['new', 2] });
    expect(inserted.rowsAffected).toBe(1);
    expect(inserted.lastInsertRowid).toBe(251n);
    const updated = await client.execute({ sql: 'UPDATE things SET price = price + 1 WHERE id > ?', args: [248] });
    expect(updated.rowsAffected).toBe(3);
    const returned = await client.execute({ sql: 'DELETE FROM things WHERE id = ? RETURNING name', args: [251] });
    expect(returned.rows.map((row) => row.name)).toEqual(['new']);
  });

  it('binds values as @libsql/client does, and refuses what it refuses', async () => {
    const { rows } = await client.execute({
      sql: 'SELECT :flag AS flag, @when AS at, $plain AS plain',
      args: { ':flag': true, '@when': new Date(5), $plain: 'x' },
    });
    expect({ ...rows[0] }).toEqual({ flag: 1, at: 5, plain: 'x' });
    await expect(client.execute({ sql: 'SELECT ?', args: [undefined as never] })).rejects.toThrow('undefined cannot be passed as argument to the database');
    await expect(client.execute({ sql: 'SELECT ?', args: [Number.NaN] })).rejects.toThrow(RangeError);
  });

  it('releases the read lock after every read, so another connection can write and this one sees it', async () => {
    const count = 'SELECT count(*) AS n FROM things';
    const all = 'SELECT id, name FROM things ORDER BY id'; // more rows than libsql reads in one go (100)
    expect((await client.execute(all)).rows).toHaveLength(250);
    expect(otherCanWrite()).toBe(true);
    expect((await client.execute(count)).rows[0]!.n).toBe(251);
    expect(otherCanWrite()).toBe(true);
    // The same kept statements again: no old snapshot.
    expect((await client.execute(count)).rows[0]!.n).toBe(252);
    expect((await client.execute(all)).rows).toHaveLength(252);
    expect(otherCanWrite()).toBe(true);
  });

  it('releases the read lock when a read fails half-way, and keeps working', async () => {
    await client.execute("UPDATE things SET data = 'not json' WHERE id = 200");
    const read = client.execute("SELECT json_extract(data, '$.i') AS i FROM things ORDER BY id");
    await expect(read).rejects.toMatchObject({ code: 'SQLITE_ERROR', message: expect.stringContaining('malformed JSON') });
    await expect(read).rejects.toBeInstanceOf(LibsqlError);
    expect(otherCanWrite()).toBe(true);
    expect((await client.execute('SELECT count(*) AS n FROM things')).rows[0]!.n).toBe(251);
  });

  it('runs a batch as one transaction: all of it or none of it, the failing statement named', async () => {
    const failing = client.batch([
      { sql: 'INSERT INTO things (name) VALUES (?)', args: ['batch one'] },
      { sql: 'INSERT INTO things (name) VALUES (?)', args: ['thing 1'] },
    ]);
    await expect(failing).rejects.toBeInstanceOf(LibsqlBatchError);
    await expect(failing).rejects.toMatchObject({ statementIndex: 1, code: 'SQLITE_CONSTRAINT', extendedCode: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect((await client.execute("SELECT count(*) AS n FROM things WHERE name = 'batch one'")).rows[0]!.n).toBe(0);
    expect(otherCanWrite()).toBe(true);

    const results = await client.batch([
      { sql: 'INSERT INTO things (name) VALUES (?)', args: ['batch two'] },
      ['SELECT count(*) AS n FROM things WHERE name = ?', ['batch two']],
    ]);
    expect(results[0]!.rowsAffected).toBe(1);
    expect(results[1]!.rows[0]!.n).toBe(1);
  });

  it('forgets its kept statements after a schema change, so their columns are current', async () => {
    const star = 'SELECT * FROM things WHERE id = 1';
    expect((await client.execute(star)).columns).toEqual(['id', 'name', 'price', 'data']);
    await client.execute('ALTER TABLE things ADD COLUMN colour TEXT');
    expect((await client.execute(star)).columns).toEqual(['id', 'name', 'price', 'data', 'colour']);
    await client.migrate([{ sql: 'ALTER TABLE things ADD COLUMN size TEXT', args: [] }]);
    expect(Object.keys((await client.execute(star)).rows[0]!)).toEqual(['id', 'name', 'price', 'data', 'colour', 'size']);
  });

  it('answers correctly when it keeps fewer statements than it runs', async () => {
    const small = createLocalClient(file, { cacheSize: 2 });
    try {
      for (let round = 0; round < 3; round++) {
        for (const id of [1, 2, 3]) {
          const { rows } = await small.execute({ sql: `SELECT name FROM things WHERE id = ${id}`, args: [] });
          expect(rows[0]!.name).toBe(`thing ${id}`);
        }
      }
    } finally {
      small.close();
    }
  });

  it('turns foreign keys back on after a migration', async () => {
    await client.migrate([{ sql: 'CREATE TABLE parts (id INTEGER PRIMARY KEY, thing_id INTEGER NOT NULL REFERENCES things(id) ON DELETE CASCADE)', args: [] }]);
    await client.execute('INSERT INTO parts (thing_id) VALUES (1)');
    await client.execute('DELETE FROM things WHERE id = 1');
    expect((await client.execute('SELECT count(*) AS n FROM parts')).rows[0]!.n).toBe(0);
    await expect(client.execute('INSERT INTO parts (thing_id) VALUES (9999)')).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT' });
  });

  it('refuses interactive transactions with the reason, and refuses calls once closed', async () => {
    await expect(client.transaction('write')).rejects.toMatchObject({
      code: 'TRANSACTION_NOT_SUPPORTED',
      message:
        'TRANSACTION_NOT_SUPPORTED: Interactive transactions are not used here: write several statements at once with db.batch (D1 has no interactive transactions)',
    });
    client.close();
    expect(client.closed).toBe(true);
    await expect(client.execute('SELECT 1')).rejects.toMatchObject({ code: 'CLIENT_CLOSED' });
  });

  it('writes the file in WAL mode, its -wal and -shm files the owner’s alone, waits 5 s for a lock (docs/decisions/052) and caches 64 MiB (075)', async () => {
    const pragma = async (name: string) => Object.values((await client.execute(`PRAGMA ${name}`)).rows[0]!)[0];
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(1);
    expect(await pragma('busy_timeout')).toBe(BUSY_TIMEOUT_MS);
    expect(await pragma('cache_size')).toBe(-PAGE_CACHE_KIB);
    expect(PAGE_CACHE_KIB).toBe(65536);
    await client.execute("INSERT INTO things (name) VALUES ('in the log')");
    for (const name of ['test.db', 'test.db-wal', 'test.db-shm']) expect(statSync(join(dir, name)).mode & 0o777, name).toBe(0o600);
  });

  it('lets a reader hold its snapshot while it writes', async () => {
    other.exec('BEGIN');
    expect(other.prepare('SELECT count(*) AS n FROM things').get()).toMatchObject({ n: 250 });
    await client.execute("INSERT INTO things (name) VALUES ('while read')");
    expect(other.prepare('SELECT count(*) AS n FROM things').get()).toMatchObject({ n: 250 });
    other.exec('COMMIT');
    expect(other.prepare('SELECT count(*) AS n FROM things').get()).toMatchObject({ n: 251 });
  });

  it('waits for another process’s write lock instead of failing at once', async () => {
    // Another thread (standing in for another process) holds the write lock for 300 ms.
    const holder = new Worker(
      `const Database = require('libsql');
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new Database(workerData);
       db.exec("BEGIN IMMEDIATE; INSERT INTO things (name) VALUES ('held')");
       parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.exec('COMMIT');
       db.close();`,
      { eval: true, workerData: file },
    );
    await new Promise((locked) => holder.once('message', locked));
    const started = Date.now();
    await client.batch([{ sql: "INSERT INTO things (name) VALUES ('after the wait')", args: [] }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    await new Promise((exited) => holder.once('exit', exited));
    const { rows } = await client.execute("SELECT name FROM things WHERE name IN ('held', 'after the wait') ORDER BY id");
    expect(rows.map((row) => row.name)).toEqual(['held', 'after the wait']);
  });
});
