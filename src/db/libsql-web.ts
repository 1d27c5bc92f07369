import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import { schema, type Db } from './client';

/** Turso over HTTP for the Worker (no native driver there). */
export function openTursoDb(url: string, authToken?: string): Db {
  const client = createClient(authToken ? { url, authToken } : { url });
  return drizzle(client, { schema }) as unknown as Db;
}
