import { createClient, type Client } from '@libsql/client/web';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql/web';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHranaServer, type HranaServer } from './hrana-server';

/** The test server against @libsql/client's HTTP client (the one the Worker uses), so its answers are what Turso's would be. */
describe('the Hrana-over-HTTP test server', () => {
  let server: HranaServer;
  let client: Client;

  beforeAll(async () => {
    server = await startHranaServer();
    client = createClient({ url: server.url, intMode: 'bigint' });
    await client.execute('CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, price REAL, data BLOB, note TEXT)');
  });
  afterAll(async () => {
    client.close();
    await server.close();
  });

  it('executes statements and returns typed values, affected rows and the last insert rowid', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    const inserted = await client.execute({
      sql: 'INSERT INTO things (id, name, price, data, note) VALUES (?, ?, ?, ?, ?)',
      args: [9007199254740993n, 'kerstpakket', 72.5, bytes, null],
    });
    expect(inserted.rowsAffected).toBe(1);
    expect(inserted.lastInsertRowid).toBe(9007199254740993n);
    expect(inserted.columns).toEqual([]);

    const selected = await client.execute({
      sql: 'SELECT id, name, price, data, note, 2.0 AS two FROM things WHERE name = :name',
      args: { name: 'kerstpakket' },
    });
    expect(selected.columns).toEqual(['id', 'name', 'price', 'data', 'note', 'two']);
    expect(selected.columnTypes).toEqual(['INTEGER', 'TEXT', 'REAL', 'BLOB', 'TEXT', '']);
    expect(selected.rowsAffected).toBe(0);
    const [row] = selected.rows;
    expect(row!.id).toBe(9007199254740993n);
    expect(row!.name).toBe('kerstpakket');
    expect(row!.price).toBe(72.5);
    expect(new Uint8Array(row!.data as ArrayBuffer)).toEqual(bytes);
    expect(row!.note).toBeNull();
    expect(row!.two).toBe(2);

    const updated = await client.execute({ sql: 'UPDATE things SET price = price + 1 WHERE id > ?', args: [0] });
    expect(updated.rowsAffected).toBe(1);
  });

  it('reports a failing statement with SQLite’s message and code', async () => {
    await expect(client.execute({ sql: 'INSERT INTO things (name) VALUES (?)', args: ['kerstpakket'] })).rejects.toMatchObject({
      code: 'SQLITE_CONSTRAINT',
      message: expect.stringContaining('UNIQUE constraint failed: things.name'),
    });
    await expect(client.execute('SELEC 1')).rejects.toMatchObject({ code: 'SQLITE_ERROR', message: expect.stringContaining('syntax error') });
  });

  it('runs a batch in one transaction and rolls it back when a statement fails', async () => {
    const results = await client.batch([
      { sql: 'INSERT INTO things (name) VALUES (?)', args: ['a'] },
      { sql: 'INSERT INTO things (name) VALUES (?)', args: ['b'] },
      'SELECT count(*) AS n FROM things',
    ]);
    expect(results.map((r) => r.rowsAffected)).toEqual([1, 1, 0]);
    expect(results[2]!.rows[0]!.n).toBe(3n);

    await expect(
      client.batch([
        { sql: 'INSERT INTO things (name) VALUES (?)', args: ['c'] },
        { sql: 'INSERT INTO things (name) VALUES (?)', args: ['a'] },
      ]),
    ).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT' });
    const names = await client.execute('SELECT name FROM things ORDER BY name');
    expect(names.rows.map((r) => r.name)).toEqual(['a', 'b', 'kerstpakket']);
  });

  it('serves drizzle’s queries and db.batch, and executeMultiple as a sequence', async () => {
    await client.executeMultiple("CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO counters VALUES ('order', 0);");
    const counters = sqliteTable('counters', { name: text('name').primaryKey(), value: integer('value').notNull() });
    const db = drizzle(createClient({ url: server.url }));
    const bump = () =>
      db
        .update(counters)
        .set({ value: sql`${counters.value} + 1` })
        .where(eq(counters.name, 'order'))
        .returning({ value: counters.value });
    // Twenty batches at once: each is one atomic pipeline, so no two see the same value.
    const values = await Promise.all(Array.from({ length: 20 }, async () => (await db.batch([bump(), db.select().from(counters)]))[0][0]!.value));
    expect(new Set(values).size).toBe(20);
    expect(await db.select().from(counters)).toEqual([{ name: 'order', value: 20 }]);
  });

  it('keeps an interactive transaction on its stream by baton, and other streams wait for it', async () => {
    const transaction = await client.transaction('write');
    await transaction.execute({ sql: 'INSERT INTO things (name) VALUES (?)', args: ['in-transaction'] });
    const outside = client.execute("SELECT count(*) AS n FROM things WHERE name = 'in-transaction'");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await transaction.rollback();
    expect((await outside).rows[0]!.n).toBe(0n);

    const committed = await client.transaction('write');
    await committed.execute({ sql: 'INSERT INTO things (name) VALUES (?)', args: ['committed'] });
    await committed.commit();
    expect((await client.execute("SELECT count(*) AS n FROM things WHERE name = 'committed'")).rows[0]!.n).toBe(1n);
  });

  it('gives a named database a copy of the main one, kept apart from it', async () => {
    const copy = createClient({ url: `${server.url}/copy-1/`, intMode: 'bigint' });
    await copy.execute({ sql: 'INSERT INTO things (name) VALUES (?)', args: ['only-in-copy'] });
    expect((await copy.execute('SELECT count(*) AS n FROM things')).rows[0]!.n).toBe(5n);
    expect((await client.execute("SELECT count(*) AS n FROM things WHERE name = 'only-in-copy'")).rows[0]!.n).toBe(0n);
  });

  it('rolls back the transaction of a stream that closes inside it', async () => {
    const execute = (sql: string) => ({ type: 'execute', stmt: { sql } });
    const response = await fetch(`${server.url}/v2/pipeline`, {
      method: 'POST',
      body: JSON.stringify({ baton: null, requests: [execute('BEGIN'), execute("INSERT INTO things (name) VALUES ('left-open')"), { type: 'close' }] }),
    });
    const body = (await response.json()) as { baton: string | null; results: { type: string }[] };
    expect(body).toMatchObject({ baton: null, results: [{ type: 'ok' }, { type: 'ok' }, { type: 'ok' }] });
    expect((await client.execute("SELECT count(*) AS n FROM things WHERE name = 'left-open'")).rows[0]!.n).toBe(0n);
    // The connection is free again: a write of another stream goes through.
    expect((await client.execute("INSERT INTO things (name) VALUES ('after')")).rowsAffected).toBe(1);
  });

  it('refuses an unknown baton with HTTP 400', async () => {
    const response = await fetch(`${server.url}/v2/pipeline`, { method: 'POST', body: JSON.stringify({ baton: 'made-up', requests: [{ type: 'close' }] }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Unknown or expired baton' });
  });
});
