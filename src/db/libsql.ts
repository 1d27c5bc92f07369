import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { schema, type Db } from './client';

export interface LibsqlHandle {
  db: Db;
  client: Client;
}

/** Opens a libSQL database (file:, :memory:, libsql://, http(s)://) with foreign keys enforced. */
export async function openLibsqlDb(url: string, authToken?: string): Promise<LibsqlHandle> {
  const client = createClient(authToken ? { url, authToken } : { url });
  // SQLite leaves foreign keys off per connection; D1 and Turso enforce them already.
  if (url.startsWith('file:') || url === ':memory:') await client.execute('PRAGMA foreign_keys = ON');
  return { db: drizzle(client, { schema }), client };
}

export async function migrateLibsqlDb(db: Db, migrationsFolder: string): Promise<void> {
  await migrate(db, { migrationsFolder });
}
