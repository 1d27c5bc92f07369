import * as schema from './schema';

export { schema };

/**
 * libSQL (Node, Turso) and D1 share Drizzle's async SQLite query builder; the services use only that builder
 * plus `batch`, which both drivers implement (D1 has no interactive transactions, so multi-statement writes go
 * through `db.batch`). A runtime entry opens the database as the platform's (PlatformDb); a service receives
 * one club's handle on it (ClubDb, db/club-db.ts, docs/decisions/071).
 */
export type { ClubDb, PlatformDb } from './club-db';
