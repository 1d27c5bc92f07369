import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { settings } from '../../db/schema';
import { AppError } from '../../core/errors';
import { decrypt, encrypt } from '../../platform/encryption';

/**
 * Values of password-type settings are kept encrypted with SECRET_KEY (AES-256-GCM, like the two-factor
 * secrets), so a copy of the database does not give away the credentials an admin stored there. The
 * stored form is 'enc:v1:' and the base64 of IV, ciphertext and tag; a value without that mark is one
 * written before encryption existed and is read as it stands (start-up seals it, see below).
 */
const SEALED = 'enc:v1:';

function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED);
}

export async function sealSettingPassword(secretKey: string, plain: string): Promise<string> {
  // Nothing stored is nothing to hide: an empty value (no Mollie key yet) stays empty, so a fresh database
  // does not need its SECRET_KEY for a setting nobody filled in.
  if (plain === '') return '';
  return SEALED + (await encrypt(secretKey, new TextEncoder().encode(plain)));
}

export async function openSettingPassword(secretKey: string, key: string, stored: string): Promise<string> {
  if (!isSealed(stored)) return stored;
  try {
    return new TextDecoder().decode(await decrypt(secretKey, stored.slice(SEALED.length)));
  } catch {
    // Only a different SECRET_KEY (or a damaged row) gets here; the admin has to enter the value again.
    throw new AppError('SETTING_UNREADABLE', `Setting ${key} cannot be read with this SECRET_KEY; enter its value again.`, { key });
  }
}

/** True (as SQL) when a password setting is still stored in clear, i.e. `sealClearPasswordSettings` has work. */
export function clearPasswordSettingsExist(db: Pick<ClubDb, 'select'>): SQL {
  const clear = db
    .select({ one: sql`1` })
    .from(settings)
    .where(and(eq(settings.type, 'password'), sql`${settings.value} <> ''`, sql`substr(${settings.value}, 1, ${SEALED.length}) <> ${SEALED}`));
  return sql`EXISTS ${clear}`;
}

/** True (as SQL) when some password setting is stored encrypted, i.e. the data needs its SECRET_KEY. */
export function sealedPasswordSettingsExist(db: Pick<ClubDb, 'select'>): SQL {
  const sealed = db
    .select({ one: sql`1` })
    .from(settings)
    .where(and(eq(settings.type, 'password'), sql`substr(${settings.value}, 1, ${SEALED.length}) = ${SEALED}`));
  return sql`EXISTS ${sealed}`;
}

/**
 * Key rotation (docs/decisions/050): every encrypted password setting opened with the old key and sealed with
 * the new one, as statements for the rotation's one batch. Each applies only to the value it read.
 */
export async function resealPasswordSettings(db: ClubDb, oldKey: string, newKey: string) {
  const rows = await db.select({ key: settings.key, value: settings.value }).from(settings).where(eq(settings.type, 'password'));
  const statements = [];
  for (const row of rows) {
    if (!isSealed(row.value)) continue;
    const value = await sealSettingPassword(newKey, await openSettingPassword(oldKey, row.key, row.value));
    statements.push(
      db
        .update(settings)
        .set({ value })
        .where(and(eq(settings.key, row.key), eq(settings.value, row.value))),
    );
  }
  return statements;
}

/** Start-up: encrypts password settings still stored in clear (databases from before encryption). */
export async function sealClearPasswordSettings(db: ClubDb, secretKey: string): Promise<number> {
  const rows = await db.select({ key: settings.key, value: settings.value }).from(settings).where(eq(settings.type, 'password'));
  let sealed = 0;
  for (const row of rows) {
    if (isSealed(row.value) || row.value === '') continue;
    const value = await sealSettingPassword(secretKey, row.value);
    // Only if nobody changed it meanwhile (another isolate sealing it, an admin editing it).
    const changed = await db
      .update(settings)
      .set({ value })
      .where(and(eq(settings.key, row.key), eq(settings.value, row.value)))
      .returning({ key: settings.key });
    sealed += changed.length;
  }
  return sealed;
}
