import { sha256 } from '@oslojs/crypto/sha2';
import { decodeHex, encodeHexLowerCase } from '@oslojs/encoding';

/** Small Web Crypto helpers that run alike on Node 22+ and in workerd. */

export function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return bytes;
}

/**
 * SHA-256 of a text, as hex. Synchronous (@oslojs/crypto, plain JavaScript): it runs on every signed-in
 * request to find the session, and for the short texts hashed here it is cheaper than Web Crypto's digest,
 * whose promise costs a trip through Node's thread pool (docs/decisions/033).
 */
export function sha256Hex(input: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(input)));
}

/** Constant-time comparison of two equal-purpose strings (hashes, tokens). */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A random password of letters and digits, for the first admin when none is configured. */
export function randomPassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(length * 2);
  let out = '';
  for (const b of bytes) {
    if (b < alphabet.length * Math.floor(256 / alphabet.length)) out += alphabet[b % alphabet.length];
    if (out.length === length) break;
  }
  return out;
}

const purposeKeys = new Map<string, Promise<CryptoKey>>();

function importHmacKey(raw: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/**
 * HMAC-SHA-256 of `message` under a key derived from the app's SECRET_KEY for one `purpose`
 * (HMAC(secret, purpose)), so recovery codes, gate tokens and anything later never share a key.
 */
export async function keyedDigest(secretKeyHex: string, purpose: string, message: string): Promise<Uint8Array> {
  const cacheKey = `${purpose}\u0000${secretKeyHex}`;
  let key = purposeKeys.get(cacheKey);
  if (!key) {
    key = (async () => {
      const master = await importHmacKey(decodeHex(secretKeyHex));
      return importHmacKey(new Uint8Array(await crypto.subtle.sign('HMAC', master, new TextEncoder().encode(purpose))));
    })();
    purposeKeys.set(cacheKey, key);
  }
  return new Uint8Array(await crypto.subtle.sign('HMAC', await key, new TextEncoder().encode(message)));
}
