// `npm run db:migrate`: applies drizzle/ to a libSQL or Turso database (TURSO_DATABASE_URL or DATABASE_URL).
// For D1 use `wrangler d1 migrations apply DB --remote` instead.
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';

const url = process.env.TURSO_DATABASE_URL ?? process.env.DATABASE_URL;
const authToken = process.env.TURSO_AUTH_TOKEN ?? process.env.DATABASE_AUTH_TOKEN;
if (!url) {
  console.error('Invalid configuration: set TURSO_DATABASE_URL (or DATABASE_URL) to the database to migrate');
  process.exit(1);
}
const client = createClient(authToken ? { url, authToken } : { url });
await migrate(drizzle(client), { migrationsFolder: 'drizzle' });
client.close();
console.log(`Migrations applied to ${url.replace(/\?.*$/, '')}`);
