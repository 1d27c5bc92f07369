import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openLibsqlDb } from './libsql';
import { STATEMENT_CACHE_SIZE, statementCacheStats } from './libsql-statement-cache';

const dir = mkdtempSync(join(tmpdir(), 'kerstactie-stmt-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the statement cache of the local libSQL client', () => {
  const { client } = openLibsqlDb(`file:${join(dir, 'cache.db')}`);

  it('prepares a statement once and answers every later run from it, with the right rows each time', async () => {
    await client.execute('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
    await client.batch([{ sql: 'INSERT INTO t (name) VALUES (?)', args: ['Ëlsa'] }, { sql: 'INSERT INTO t (name) VALUES (?)', args: ['Jan'] }]);
    const before = { ...statementCacheStats };
    for (const [id, name] of [[1, 'Ëlsa'], [2, 'Jan'], [1, 'Ëlsa']] as const) {
      const result = await client.execute({ sql: 'SELECT id, name FROM t WHERE id = ?', args: [id] });
      expect(result.columns).toEqual(['id', 'name']);
      expect(result.rows.map((row) => ({ ...row }))).toEqual([{ id, name }]);
    }
    expect(statementCacheStats.prepared - before.prepared).toBe(1);
    expect(statementCacheStats.reused - before.reused).toBe(2);
    // A write through a cached statement still reports what it changed.
    const insert = { sql: 'INSERT INTO t (name) VALUES (?)', args: ['Piet'] };
    expect((await client.execute(insert)).rowsAffected).toBe(1);
    expect(Number((await client.execute(insert)).lastInsertRowid)).toBe(4);
  });

  it('forgets its statements when the schema changes, so SELECT * shows a new column', async () => {
    const all = async () => (await client.execute('SELECT * FROM t WHERE id = 1')).rows.map((row) => ({ ...row }));
    expect(await all()).toEqual([{ id: 1, name: 'Ëlsa' }]);
    await client.execute("ALTER TABLE t ADD COLUMN city TEXT NOT NULL DEFAULT 'Harlingen'");
    expect(await all()).toEqual([{ id: 1, name: 'Ëlsa', city: 'Harlingen' }]);
    await client.executeMultiple('ALTER TABLE t ADD COLUMN notes TEXT; UPDATE t SET notes = \'achterom\'');
    expect(await all()).toEqual([{ id: 1, name: 'Ëlsa', city: 'Harlingen', notes: 'achterom' }]);
  });

  it('keeps at most its size, dropping the statement used longest ago', async () => {
    const before = { ...statementCacheStats };
    for (let i = 0; i <= STATEMENT_CACHE_SIZE; i++) await client.execute(`SELECT ${i} AS n`);
    await client.execute(`SELECT ${STATEMENT_CACHE_SIZE} AS n`);
    expect(statementCacheStats.reused - before.reused).toBe(1);
    await client.execute('SELECT 0 AS n');
    expect(statementCacheStats.prepared - before.prepared).toBe(STATEMENT_CACHE_SIZE + 2);
  });
});
