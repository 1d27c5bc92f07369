import { type Client, createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { type PlatformDb, schema } from './client';
import { platformDb } from './club-db';
import { BUSY_TIMEOUT_MS, createLocalClient, localDatabasePath } from './libsql-local';

export interface LibsqlHandle {
  db: PlatformDb;
  client: Client;
}

/**
 * Opens a libSQL database: a local file (file:, :memory:) through our one-connection client with kept
 * statements (src/db/libsql-local.ts), a remote one (libsql://, http(s)://) or a file URL with options
 * through @libsql/client. libSQL, like D1 and Turso, enforces foreign keys on every connection by default
 * (a test checks the cascades). Every local connection waits BUSY_TIMEOUT_MS for another's lock
 * (docs/decisions/052); a remote server keeps its own.
 */
export function openLibsqlDb(url: string, authToken?: string): LibsqlHandle {
  const localPath = authToken ? null : localDatabasePath(url);
  const client = localPath === null ? createClient({ url, timeout: BUSY_TIMEOUT_MS, ...(authToken ? { authToken } : {}) }) : createLocalClient(localPath);
  return { db: platformDb(drizzle(client, { schema })), client };
}

export async function migrateLibsqlDb(db: PlatformDb, migrationsFolder: string): Promise<void> {
  await migrate(db, { migrationsFolder });
}
