import type { PlatformDb } from '../../db/client';
import { clubDb, FIRST_CLUB_ID } from '../../db/club-db';
import type { Clock } from '../../platform/clock';
import type { PasswordHasher } from '../../platform/password';
import type { Logger } from '../../core/logger';
import { sql } from 'drizzle-orm';
import { fillMissingSearchText, searchTextIsComplete } from '../orders/order-search';
import { clearPasswordSettingsExist, sealClearPasswordSettings } from '../settings/setting-passwords';
import { anyAdminExists, ensureFirstAdmin } from './first-admin';
import { secretKeyFingerprint, storedFingerprint, verifySecretKey } from './secret-key';
import { seedDatabase, seedIsComplete } from './seed';

/**
 * One read answering whether `prepareDatabase` would change anything. Nearly every start (each new Worker
 * isolate) finds a prepared database: then it costs this one statement instead of the seeding batch and
 * three reads, which the first request of an isolate waits for (docs/decisions/035: at most 60 ms).
 */
export async function isDatabasePrepared(db: PlatformDb): Promise<boolean> {
  return (await startState(db)).prepared;
}

/** Whether the database is prepared, and the fingerprint of its secret key, in the one read of a start. */
async function startState(platform: PlatformDb): Promise<{ prepared: boolean; fingerprint: string | null }> {
  const db = clubDb(platform, FIRST_CLUB_ID);
  const [row] = await db
    .select({
      prepared: sql<number>`${seedIsComplete(db, { platform: true })} AND NOT ${clearPasswordSettingsExist(db)} AND ${anyAdminExists(db)} AND ${searchTextIsComplete()}`,
      fingerprint: storedFingerprint(),
    })
    .from(sql`(SELECT 1)`);
  return { prepared: row?.prepared === 1, fingerprint: row?.fingerprint ?? null };
}

/**
 * Refuses a secret key that is not the database's (SecretKeyError, docs/decisions/050), then seeds the first club's defaults,
 * encrypts password settings still stored in clear, and makes sure an admin exists; prints a generated admin
 * password once.
 */
export async function prepareDatabase(
  platform: { db: PlatformDb; clock: Clock; passwords: PasswordHasher; log: Logger; secretKey: string },
  admin: { username: string; password?: string | undefined },
): Promise<void> {
  const state = await startState(platform.db);
  if (state.prepared && state.fingerprint === (await secretKeyFingerprint(platform.secretKey))) return;
  // Before anything is encrypted with the key.
  await verifySecretKey(platform.db, platform.secretKey);
  // What a fresh install and a deployment from before there were clubs need: the first club's (docs/decisions/071).
  const deps = { ...platform, db: clubDb(platform.db, FIRST_CLUB_ID) };
  await seedDatabase(deps.db, deps.clock, { platform: true });
  const sealed = await sealClearPasswordSettings(deps.db, deps.secretKey);
  if (sealed > 0) deps.log.info(`Encrypted ${sealed} password setting(s) that were stored in clear.`);
  // docs/decisions/034: orders older than the search column get their folded text once (features/orders/order-search.ts).
  const folded = await fillMissingSearchText(deps.db);
  if (folded > 0) deps.log.info(`Filled the search text of ${folded} order(s).`);
  const result = await ensureFirstAdmin(deps, admin);
  if (!result.created) return;
  if (result.generatedPassword) {
    deps.log.info(
      `\n  First admin created: username "${result.username}", password "${result.generatedPassword}"\n  This password is shown only once. Sign in and change it, or set ADMIN_PASSWORD before the first start.\n`,
    );
  } else {
    deps.log.info(`First admin created: username "${result.username}" with the password from ADMIN_PASSWORD.`);
  }
}
