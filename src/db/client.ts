import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import * as schema from './schema';

export { schema };

/**
 * The one database type the services use. libSQL (Node, Turso) and D1 share Drizzle's async SQLite
 * query builder; the services use only that builder plus `batch`, which both drivers implement
 * (D1 has no interactive transactions, so multi-statement writes go through `db.batch`).
 */
export type Db = LibSQLDatabase<typeof schema>;
