import { decodeBase64, decodeHex, encodeBase64 } from '@oslojs/encoding';

/**
 * AES-256-GCM with the app's SECRET_KEY (docs/architecture.md §3: TOTP secrets encrypted at rest). The stored form
 * is base64 of a fresh 12-byte IV followed by the ciphertext and tag.
 */
const keyCache = new Map<string, Promise<CryptoKey>>();

function importKey(hexKey: string): Promise<CryptoKey> {
  let key = keyCache.get(hexKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', decodeHex(hexKey) as Uint8Array<ArrayBuffer>, 'AES-GCM', false, ['encrypt', 'decrypt']);
    keyCache.set(hexKey, key);
  }
  return key;
}

export async function encrypt(hexKey: string, plain: Uint8Array): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await importKey(hexKey), plain as Uint8Array<ArrayBuffer>);
  const out = new Uint8Array(iv.length + cipher.byteLength);
  out.set(iv, 0);
  out.set(new Uint8Array(cipher), iv.length);
  return encodeBase64(out);
}

export async function decrypt(hexKey: string, stored: string): Promise<Uint8Array> {
  const bytes = decodeBase64(stored);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12) }, await importKey(hexKey), bytes.slice(12));
  return new Uint8Array(plain);
}

/** HMAC-SHA-256 under raw key bytes (a key kept in the database, sealed with `encrypt`; docs/decisions/050). */
export async function hmacSha256(key: Uint8Array, message: string): Promise<Uint8Array> {
  const imported = await crypto.subtle.importKey('raw', key as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', imported, new TextEncoder().encode(message)));
}
