import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import type { ClubDb } from '../db/client';
import { settings } from '../db/schema';
import type { Clock } from './clock';
import { SettingsCache } from './settings-cache';

const TTL = 30_000;

class ManualClock implements Clock {
  private ms = Date.parse('2026-11-22T10:00:00.000Z');
  now() {
    return new Date(this.ms);
  }
  advance(ms: number) {
    this.ms += ms;
  }
}

let t: TestApp;
let db: ClubDb;
let clock: ManualClock;
let cache: SettingsCache;

/** A write by "another process": straight to the database, without telling this cache. */
async function writeBehindItsBack(value: string) {
  await db.update(settings).set({ value }).where(eq(settings.key, 'club_town'));
}

// A migrated database with the seeded settings (the test app's); the cache under test is made per test.
beforeAll(async () => {
  t = await createTestApp();
  db = t.db;
});

afterAll(async () => t.close());

beforeEach(async () => {
  await writeBehindItsBack('Harlingen');
  clock = new ManualClock();
  cache = new SettingsCache(TTL, clock);
});

describe('SettingsCache', () => {
  it('loads every setting row keyed by its key', async () => {
    const rows = await cache.all(db);
    expect(rows.get('club_town')?.value).toBe('Harlingen');
    expect(rows.get('password_min_length')).toMatchObject({ key: 'password_min_length', type: 'integer', minValue: 6, maxValue: 128 });
    expect(rows.size).toBe((await db.select().from(settings)).length);
  });

  it('answers from memory within the TTL, even when the database changed', async () => {
    const first = await cache.all(db);
    await writeBehindItsBack('Franeker');
    clock.advance(TTL - 1);
    const second = await cache.all(db);
    expect(second).toBe(first);
    expect(second.get('club_town')?.value).toBe('Harlingen');
  });

  it('reloads from the database once the TTL has passed', async () => {
    await cache.all(db);
    await writeBehindItsBack('Franeker');
    clock.advance(TTL);
    expect((await cache.all(db)).get('club_town')?.value).toBe('Franeker');
  });

  it('reloads at once after invalidate', async () => {
    await cache.all(db);
    await writeBehindItsBack('Bolsward');
    cache.invalidate();
    expect((await cache.all(db)).get('club_town')?.value).toBe('Bolsward');
  });

  it('shares one load between reads that arrive together', async () => {
    const [a, b] = await Promise.all([cache.all(db), cache.all(db)]);
    expect(a).toBe(b);
  });

  it('shows a write to a read that starts after invalidate, even while an older load is still running', async () => {
    const older = cache.all(db);
    await writeBehindItsBack('Sneek');
    cache.invalidate();
    const fresh = await cache.all(db);
    expect(fresh.get('club_town')?.value).toBe('Sneek');
    await older;
    expect((await cache.all(db)).get('club_town')?.value).toBe('Sneek');
  });

  it('memoises a derived value until the rows are invalidated', async () => {
    let computed = 0;
    const town = () =>
      cache.derive(db, 'town', (rows) => {
        computed++;
        return `Town: ${rows.get('club_town')?.value}`;
      });
    expect(await town()).toBe('Town: Harlingen');
    expect(await town()).toBe('Town: Harlingen');
    expect(computed).toBe(1);

    await writeBehindItsBack('Dokkum');
    cache.invalidate();
    expect(await town()).toBe('Town: Dokkum');
    expect(computed).toBe(2);
  });

  it('recomputes a derived value after the TTL reload', async () => {
    let computed = 0;
    const town = () =>
      cache.derive(db, 'town', (rows) => {
        computed++;
        return rows.get('club_town')?.value;
      });
    expect(await town()).toBe('Harlingen');
    await writeBehindItsBack('Workum');
    clock.advance(TTL - 1);
    expect(await town()).toBe('Harlingen');
    expect(computed).toBe(1);
    clock.advance(1);
    expect(await town()).toBe('Workum');
    expect(computed).toBe(2);
  });

  it('keeps derived values apart by name', async () => {
    const a = await cache.derive(db, 'a', () => ({ name: 'a' }));
    const b = await cache.derive(db, 'b', () => ({ name: 'b' }));
    expect(a).toEqual({ name: 'a' });
    expect(b).toEqual({ name: 'b' });
    expect(await cache.derive(db, 'a', () => ({ name: 'other' }))).toBe(a);
  });
});
