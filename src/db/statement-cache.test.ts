import { describe, expect, it } from 'vitest';
import type { ClubDb as Db } from './client';
import { statementCache } from './statement-cache';

// The cache only keys by the database object: plain objects stand in for two databases.
const dbA = {} as Db;
const dbB = {} as Db;

describe('statementCache', () => {
  it('builds a shape once per database and hands the same statement back', () => {
    const cache = statementCache<{ shape: string; n: number }>();
    let built = 0;
    const build = (shape: string) => () => ({ shape, n: ++built });
    const first = cache(dbA, 'paid', build('paid'));
    expect(cache(dbA, 'paid', build('paid'))).toBe(first);
    expect(cache(dbA, 'search', build('search'))).toEqual({ shape: 'search', n: 2 });
    // Another database builds its own: a prepared statement belongs to its connection.
    expect(cache(dbB, 'paid', build('paid'))).toEqual({ shape: 'paid', n: 3 });
    expect(built).toBe(3);
  });

  it('keeps at most maxSize shapes, dropping the oldest', () => {
    const cache = statementCache<string>(2);
    const builds: string[] = [];
    const get = (key: string) =>
      cache(dbA, key, () => {
        builds.push(key);
        return key;
      });
    get('a');
    get('b');
    get('c');
    get('b');
    expect(builds).toEqual(['a', 'b', 'c']);
    get('a');
    expect(builds).toEqual(['a', 'b', 'c', 'a']);
  });
});
