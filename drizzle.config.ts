import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes migrations from the schema; `npm run db:studio` opens the Node database
// (DATABASE_URL, else the file `npm start` uses under DATA_DIR) in Drizzle Studio.
const dataDir = process.env.DATA_DIR?.trim() || 'data';

export default defineConfig({
  dialect: 'turso',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  dbCredentials: {
    url: process.env.DATABASE_URL?.trim() || `file:${dataDir}/kerstactie.db`,
    ...(process.env.DATABASE_AUTH_TOKEN?.trim() ? { authToken: process.env.DATABASE_AUTH_TOKEN.trim() } : {}),
  },
});
