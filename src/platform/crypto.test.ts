import { describe, expect, it } from 'vitest';
import { sha256Hex } from './crypto';

describe('sha256Hex', () => {
  it('gives the standard digests, equal to Web Crypto for ASCII, accented and emoji text', async () => {
    // FIPS 180-2 test vectors.
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (const text of ['Ëlsa Visser', 'x'.repeat(1000), 'kerst 🎄 pakket', 'Zp3kK9m_2Vx-8QaTn1LrYb0WcD5fHgJsUeIoPtA7yMq']) {
      const web = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
      expect(sha256Hex(text), text).toBe(Array.from(web, (b) => b.toString(16).padStart(2, '0')).join(''));
    }
  });
});
