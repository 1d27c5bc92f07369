import { encodeBase32UpperCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp';
import { keyedDigest, randomBytes, sha256Hex, timingSafeEqual } from '../../platform/crypto';

/** docs/architecture.md §3: RFC 6238 TOTP, 6 digits, 30-second steps, one step of drift either way. */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
const DRIFT_STEPS = 1;

export function createTotpKey(): Uint8Array {
  return randomBytes(20);
}

export function totpKeyText(key: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(key);
}

export function totpUri(issuer: string, accountName: string, key: Uint8Array): string {
  return createTOTPKeyURI(issuer, accountName, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

export function totpStepAt(time: Date): number {
  return Math.floor(time.getTime() / 1000 / TOTP_PERIOD_SECONDS);
}

/**
 * The time step whose code matches, checking the current step and one either side; null when none.
 * The caller refuses a step that was already used (no replay).
 */
export function matchTotpStep(key: Uint8Array, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const current = totpStepAt(now);
  let matched: number | null = null;
  // Compare every candidate so the timing does not tell which step matched.
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    if (timingSafeEqual(generateHOTP(key, BigInt(step), TOTP_DIGITS), code) && matched === null) matched = step;
  }
  return matched;
}

/**
 * Recovery codes: 10 single-use codes like 'K7QD-M3XP' (40 bits each). Stored as an HMAC under a key
 * derived from SECRET_KEY (docs/decisions/005): 40 bits would fall to a brute force of a leaked plain
 * digest, not of a keyed one whose key is not in the database.
 */
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function createRecoveryCodes(): string[] {
  const codes: string[] = [];
  for (let i = 0; i < RECOVERY_CODE_COUNT; i++) {
    const bytes = randomBytes(8);
    let code = '';
    for (const b of bytes) code += RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length];
    codes.push(`${code.slice(0, 4)}-${code.slice(4)}`);
  }
  return codes;
}

/** Normalises what a person types (spaces, lower case, missing dash) before hashing. */
export function normaliseRecoveryCode(input: string): string | null {
  const plain = input.toUpperCase().replace(/[\s-]/g, '');
  if (!/^[A-Z2-9]{8}$/.test(plain)) return null;
  return `${plain.slice(0, 4)}-${plain.slice(4)}`;
}

/** The stored form of a code: `h1:` and the keyed digest in hex. */
export async function hashRecoveryCode(secretKey: string, code: string): Promise<string> {
  return `h1:${encodeHexLowerCase(await keyedDigest(secretKey, 'recovery-codes', code))}`;
}

/**
 * The form codes issued before the keyed digest were stored in (plain SHA-256). They keep working
 * until used or replaced, so nobody is locked out by the upgrade; new codes never take this form.
 */
export function legacyRecoveryCodeHash(code: string): string {
  return sha256Hex(`recovery:${code}`);
}
