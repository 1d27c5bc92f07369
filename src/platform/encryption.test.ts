import { describe, expect, it } from 'vitest';
import { decrypt, encrypt } from './encryption';

/** docs/architecture.md §3: TOTP secrets are encrypted at rest with SECRET_KEY (AES-256-GCM, fresh IV each time). */

const KEY = '0123456789abcdef'.repeat(4);
const OTHER_KEY = 'fedcba9876543210'.repeat(4);
const PLAIN = new TextEncoder().encode('twenty-byte-secret!!');

function bytesOf(stored: string): Buffer {
  return Buffer.from(stored, 'base64');
}

function withByteFlipped(stored: string, index: number): string {
  const bytes = bytesOf(stored);
  bytes[index] = bytes[index]! ^ 0x01;
  return bytes.toString('base64');
}

describe('encrypt and decrypt', () => {
  it('round-trips bytes, including empty input', async () => {
    const stored = await encrypt(KEY, PLAIN);
    expect(await decrypt(KEY, stored)).toEqual(PLAIN);
    const random = crypto.getRandomValues(new Uint8Array(20));
    expect(await decrypt(KEY, await encrypt(KEY, random))).toEqual(random);
    expect(await decrypt(KEY, await encrypt(KEY, new Uint8Array(0)))).toEqual(new Uint8Array(0));
  });

  it('stores base64 of a 12-byte IV, the ciphertext and a 16-byte tag, without the plain bytes', async () => {
    const stored = await encrypt(KEY, PLAIN);
    expect(stored).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const bytes = bytesOf(stored);
    expect(bytes).toHaveLength(12 + PLAIN.length + 16);
    expect(bytes.includes(Buffer.from(PLAIN))).toBe(false);
    expect(stored).not.toContain(Buffer.from(PLAIN).toString('base64'));
  });

  it('uses a different IV every time, so the same input never encrypts the same twice', async () => {
    const a = await encrypt(KEY, PLAIN);
    const b = await encrypt(KEY, PLAIN);
    expect(a).not.toBe(b);
    expect(bytesOf(a).subarray(0, 12).equals(bytesOf(b).subarray(0, 12))).toBe(false);
    expect(await decrypt(KEY, a)).toEqual(PLAIN);
    expect(await decrypt(KEY, b)).toEqual(PLAIN);
  });

  it('fails with a wrong key', async () => {
    const stored = await encrypt(KEY, PLAIN);
    await expect(decrypt(OTHER_KEY, stored)).rejects.toThrow();
  });

  it('fails on a tampered IV, ciphertext or tag, and on a truncated value', async () => {
    const stored = await encrypt(KEY, PLAIN);
    const length = bytesOf(stored).length;
    for (const index of [0, 11, 12, 12 + PLAIN.length - 1, length - 16, length - 1]) {
      await expect(decrypt(KEY, withByteFlipped(stored, index)), `byte ${index}`).rejects.toThrow();
    }
    await expect(
      decrypt(
        KEY,
        bytesOf(stored)
          .subarray(0, length - 1)
          .toString('base64'),
      ),
    ).rejects.toThrow();
    await expect(decrypt(KEY, bytesOf(stored).subarray(0, 12).toString('base64'))).rejects.toThrow();
  });
});
