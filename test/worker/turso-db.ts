import { env } from 'cloudflare:test';
import type { PlatformDb } from '../../src/db/client';
import { openTursoDb } from '../../src/db/libsql-web';

/**
 * Stands in for src/db/d1 in the shared Worker suites when they run on the worker-turso project
 * (vitest.turso.config.ts points their import here): the Worker then keeps its data in Turso, so the
 * tests' own reads and writes go to the same Turso database instead of the unused D1 binding.
 */
export function openD1Db(_binding: unknown): PlatformDb {
  return openTursoDb((env as unknown as { TURSO_DATABASE_URL: string }).TURSO_DATABASE_URL);
}
