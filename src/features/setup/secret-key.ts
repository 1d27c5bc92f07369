import { decodeHex, encodeHexLowerCase } from '@oslojs/encoding';
import { and, eq, sql } from 'drizzle-orm';
import type { PlatformDb } from '../../db/client';
import { asClubId, clubDb } from '../../db/club-db';
import { clubs, instanceMeta, recoveryCodes, settings, twoFactorSecrets } from '../../db/schema';
import { decrypt, encrypt, hmacSha256 } from '../../platform/encryption';
import { openSettingPassword, resealPasswordSettings, sealedPasswordSettingsExist } from '../settings/setting-passwords';
import { RECOVERY_CODE_KEY, recoveryCodeKey } from '../two-factor/recovery-code-key';

/**
 * The secret key belongs to the data it encrypted (docs/decisions/050). The database keeps a fingerprint of
 * it, so a start with another key, or without the key file, is refused instead of running on (every 2FA
 * sign-in a 500) or quietly making a new key over data that only the old one opens.
 */
export const KEY_FINGERPRINT = 'secret_key_fingerprint';

/** An HMAC of a fixed label under the key: it tells keys apart and gives nothing of the key away. */
export async function secretKeyFingerprint(secretKey: string): Promise<string> {
  return `v1:${encodeHexLowerCase(await hmacSha256(decodeHex(secretKey), 'kerstactie secret key fingerprint'))}`;
}

/** A start with a key that does not belong to the database. Its message is the one line an operator sees. */
export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

export const WRONG_SECRET_KEY =
  'Invalid configuration: SECRET_KEY (or DATA_DIR/secret.key) is not the key this database was encrypted with; start with the key that belongs to this database (restore the database and its secret.key together)';
export const missingSecretKey = (file: string) =>
  `Invalid configuration: ${file} is missing, but this database was set up with a secret key; put that secret.key back (or set SECRET_KEY to it): a new key is never made for a database that had one`;

/** The stored fingerprint (as SQL, null when none), for reads that ask more at once (prepare.ts). */
export function storedFingerprint(): ReturnType<typeof sql<string | null>> {
  return sql<string | null>`(SELECT ${instanceMeta.value} FROM ${instanceMeta} WHERE ${eq(instanceMeta.name, KEY_FINGERPRINT)})`;
}

interface KeyFacts {
  fingerprint: string | null;
  /** TOTP secrets or encrypted password settings exist. */
  encrypted: boolean;
}

async function readKeyFacts(db: PlatformDb): Promise<KeyFacts> {
  const [row] = await db
    .select({
      fingerprint: storedFingerprint(),
      encrypted: sql<number>`EXISTS (SELECT 1 FROM ${twoFactorSecrets}) OR ${sealedPasswordSettingsExist(db)}`,
    })
    .from(sql`(SELECT 1)`);
  return { fingerprint: row?.fingerprint ?? null, encrypted: row?.encrypted === 1 };
}

/** Node, before it would make a key: whether the database already has one (a fingerprint, or data only a key opens). */
export async function databaseHasAKey(db: PlatformDb): Promise<boolean> {
  const facts = await readKeyFacts(db);
  return facts.fingerprint !== null || facts.encrypted;
}

/** For a database from before fingerprints: whether the key opens a TOTP secret and a password setting it holds. */
async function keyOpensData(db: PlatformDb, secretKey: string): Promise<boolean> {
  const [secret] = await db.select({ value: twoFactorSecrets.secretEncrypted }).from(twoFactorSecrets).limit(1);
  const [setting] = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(and(eq(settings.type, 'password'), sql`${settings.value} LIKE 'enc:v1:%'`))
    .limit(1);
  try {
    if (secret) await decrypt(secretKey, secret.value);
    if (setting) await openSettingPassword(secretKey, setting.key, setting.value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Refuses a key that is not the database's (SecretKeyError). A database without a fingerprint gets this
 * key's, once the key has opened what is encrypted there; of two starts racing with different keys, the
 * fingerprint written first wins and the other start is refused.
 */
export async function verifySecretKey(db: PlatformDb, secretKey: string): Promise<void> {
  const fingerprint = await secretKeyFingerprint(secretKey);
  const facts = await readKeyFacts(db);
  if (facts.fingerprint !== null) {
    if (facts.fingerprint !== fingerprint) throw new SecretKeyError(WRONG_SECRET_KEY);
    return;
  }
  if (facts.encrypted && !(await keyOpensData(db, secretKey))) throw new SecretKeyError(WRONG_SECRET_KEY);
  await db.insert(instanceMeta).values({ name: KEY_FINGERPRINT, value: fingerprint }).onConflictDoNothing();
  const after = await readKeyFacts(db);
  if (after.fingerprint !== fingerprint) throw new SecretKeyError(WRONG_SECRET_KEY);
}

export interface RotationResult {
  twoFactorSecrets: number;
  passwordSettings: number;
  /** Unused keyed recovery codes that stay valid (their hashing key is kept, sealed with the new key). */
  recoveryCodes: number;
}

/**
 * Key rotation (`npm run rotate-key`, docs/decisions/050): every TOTP secret and encrypted password setting
 * opened with the old key and sealed with the new one, the recovery-code key carried over while codes
 * hashed under it are unused, and the new fingerprint, all in one batch: it lands whole or not at all.
 */
export async function rotateSecretKey(db: PlatformDb, oldKey: string, newKey: string): Promise<RotationResult> {
  await verifySecretKey(db, oldKey);
  const upsertMeta = (name: string, value: string) =>
    db.insert(instanceMeta).values({ name, value }).onConflictDoUpdate({ target: instanceMeta.name, set: { value } });

  // Each club's secrets and password settings through its own handle (docs/decisions/071).
  const statements = [];
  let secretCount = 0;
  let resealedCount = 0;
  for (const { id } of await db.select({ id: clubs.id }).from(clubs)) {
    const club = clubDb(db, asClubId(id));
    const secrets = await club.select().from(twoFactorSecrets);
    secretCount += secrets.length;
    for (const row of secrets) {
      const secretEncrypted = await encrypt(newKey, await decrypt(oldKey, row.secretEncrypted));
      statements.push(
        club
          .update(twoFactorSecrets)
          .set({ secretEncrypted })
          .where(and(eq(twoFactorSecrets.userId, row.userId), eq(twoFactorSecrets.secretEncrypted, row.secretEncrypted))),
      );
    }
    const resealed = await resealPasswordSettings(club, oldKey, newKey);
    resealedCount += resealed.length;
    statements.push(...resealed);
  }
  const [keyed] = await db
    .select({ count: sql<number>`count(*)` })
    .from(recoveryCodes)
    .where(and(sql`${recoveryCodes.usedAt} IS NULL`, sql`${recoveryCodes.codeHash} LIKE 'h1:%'`));
  const codes = keyed?.count ?? 0;
  // Without unused keyed codes nothing needs the old derivation: new codes then hash under the new key's.
  const recoveryKey =
    codes > 0
      ? upsertMeta(RECOVERY_CODE_KEY, await encrypt(newKey, await recoveryCodeKey(db, oldKey)))
      : db.delete(instanceMeta).where(eq(instanceMeta.name, RECOVERY_CODE_KEY));
  await db.batch([upsertMeta(KEY_FINGERPRINT, await secretKeyFingerprint(newKey)), recoveryKey, ...statements]);
  return { twoFactorSecrets: secretCount, passwordSettings: resealedCount, recoveryCodes: codes };
}
