import { decodeHex, encodeHexLowerCase } from '@oslojs/encoding';
import { eq } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { instanceMeta } from '../../db/schema';
import { decrypt, hmacSha256 } from '../../platform/encryption';

/**
 * The key recovery codes are hashed under (docs/decisions/050). At first it is derived from SECRET_KEY, as
 * HMAC(SECRET_KEY, 'recovery-codes'), the derivation of `keyedDigest` that `hashRecoveryCode` uses. A key
 * rotation cannot re-hash codes it never saw, so it keeps this key, sealed with the new SECRET_KEY, in
 * instance_meta: the codes users wrote down keep working.
 */
export const RECOVERY_CODE_KEY = 'recovery_code_key';
const PURPOSE = 'recovery-codes';

export async function recoveryCodeKey(db: Pick<ClubDb, 'select'>, secretKey: string): Promise<Uint8Array> {
  const [kept] = await db.select({ value: instanceMeta.value }).from(instanceMeta).where(eq(instanceMeta.name, RECOVERY_CODE_KEY)).limit(1);
  return kept ? decrypt(secretKey, kept.value) : hmacSha256(decodeHex(secretKey), PURPOSE);
}

/** Hashes codes in their stored form (`h1:` and the digest in hex), reading the key once for all of them. */
export async function recoveryCodeHasher(db: ClubDb, secretKey: string): Promise<(code: string) => Promise<string>> {
  const key = await recoveryCodeKey(db, secretKey);
  return async (code) => `h1:${encodeHexLowerCase(await hmacSha256(key, code))}`;
}
