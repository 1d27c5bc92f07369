import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { schema, type Db } from './client';

export interface LibsqlHandle {
  db: Db;
  client: Client;
}

/**
 * Opens a libSQL database (file:, :memory:, libsql://, http(s)://). libSQL, like D1 and Turso,
 * enforces foreign keys on every connection by default (a test checks the cascades).
 */
export function openLibsqlDb(url: string, authToken?: string): LibsqlHandle {
  const client = createClient(authToken ? { url, authToken } : { url });
  return { db: drizzle(client, { schema }), client };
}

export async function migrateLibsqlDb(db: Db, migrationsFolder: string): Promise<void> {
  await migrate(db, { migrationsFolder });
}
