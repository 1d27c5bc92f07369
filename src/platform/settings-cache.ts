import type { ClubDb } from '../db/client';
import type { ClubId } from '../db/club-db';
import { settings } from '../db/schema';
import type { Clock } from './clock';

export type SettingRow = typeof settings.$inferSelect;

/**
 * Settings are read on nearly every request, so each process (Node) or isolate (Worker) keeps them in
 * memory, each club's apart (docs/decisions/071). A write through this process invalidates at once; writes
 * by another isolate or process are picked up when `ttlMs` has passed.
 */
export class SettingsCache {
  private readonly clubs = new Map<ClubId, ClubSettingsCache>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  private of(db: ClubDb): ClubSettingsCache {
    let cache = this.clubs.get(db.clubId);
    if (!cache) {
      cache = new ClubSettingsCache(this.ttlMs, this.clock);
      this.clubs.set(db.clubId, cache);
    }
    return cache;
  }

  all(db: ClubDb): Promise<Map<string, SettingRow>> {
    return this.of(db).all(db);
  }

  /** Memoises a value computed from the club's current rows until the next invalidation or reload. */
  derive<T>(db: ClubDb, name: string, compute: (rows: Map<string, SettingRow>) => T): Promise<T> {
    return this.of(db).derive(db, name, compute);
  }

  /** After a write of the club's settings through this process; without a club, every club's (a restore). */
  invalidate(db?: ClubDb): void {
    if (db) this.of(db).invalidate();
    else for (const cache of this.clubs.values()) cache.invalidate();
  }
}

class ClubSettingsCache {
  private rows: Map<string, SettingRow> | null = null;
  private loadedAt = 0;
  private loading: Promise<Map<string, SettingRow>> | null = null;
  private generation = 0;
  /** Derived values (e.g. the visibility-filtered JSON answers), dropped with the rows. */
  private derived = new Map<string, unknown>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  async all(db: ClubDb): Promise<Map<string, SettingRow>> {
    if (this.rows && this.clock.now().getTime() - this.loadedAt < this.ttlMs) return this.rows;
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = (async () => {
      const list = await db.select().from(settings);
      const map = new Map(list.map((row) => [row.key, row] as const));
      if (generation === this.generation) {
        this.rows = map;
        this.loadedAt = this.clock.now().getTime();
        this.derived.clear();
      }
      return map;
    })().finally(() => {
      if (this.loading === loading) this.loading = null;
    });
    this.loading = loading;
    return loading;
  }

  /** Memoises a value computed from the current rows until the next invalidation or reload. */
  async derive<T>(db: ClubDb, name: string, compute: (rows: Map<string, SettingRow>) => T): Promise<T> {
    const rows = await this.all(db);
    if (this.derived.has(name) && rows === this.rows) return this.derived.get(name) as T;
    const value = compute(rows);
    if (rows === this.rows) this.derived.set(name, value);
    return value;
  }

  invalidate(): void {
    this.generation++;
    // A load that started before the write may have read old rows: later readers start a new one.
    this.loading = null;
    this.rows = null;
    this.derived.clear();
  }
}
