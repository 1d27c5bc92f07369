import { sql } from 'drizzle-orm';
import type { PlatformDb } from '../../db/client';
import { version } from '../../../package.json';

/** What a monitor is told (docs/architecture.md §6 `GET /api/health`). */
export type HealthReport = { ok: true; db: 'ok'; version: string } | { ok: false; db: 'error'; version: string };

/** A database that has not answered by then counts as down: a monitor should hear so, not wait. */
export const HEALTH_DB_TIMEOUT_MS = 3000;

/**
 * One `SELECT 1` against the deployment's database. Any failure (closed client, unreachable server, no answer in
 * time) is an answer, not an error: the report says the database is down and why goes to the log.
 */
export async function checkHealth(db: PlatformDb, log: (error: string) => void): Promise<HealthReport> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${HEALTH_DB_TIMEOUT_MS} ms`)), HEALTH_DB_TIMEOUT_MS);
  });
  try {
    await Promise.race([db.run(sql`SELECT 1`), timeout]);
    return { ok: true, db: 'ok', version };
  } catch (error) {
    log(describe(error));
    return { ok: false, db: 'error', version };
  } finally {
    clearTimeout(timer);
  }
}

/** Drizzle wraps the driver's error ("Failed query: …"): the cause says what went wrong. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
