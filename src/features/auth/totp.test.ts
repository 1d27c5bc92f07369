import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { describe, expect, it } from 'vitest';
import {
  createRecoveryCodes,
  createTotpKey,
  hashRecoveryCode,
  legacyRecoveryCodeHash,
  matchTotpStep,
  normaliseRecoveryCode,
  RECOVERY_CODE_COUNT,
  totpKeyText,
  totpStepAt,
  totpUri,
} from './totp';

/** docs/architecture.md §3 two-factor: RFC 6238 TOTP (6 digits, 30 s, ±1 step) and single-use recovery codes. */

const RECOVERY_CODE_SHAPE = /^[A-Z2-9]{4}-[A-Z2-9]{4}$/;
// RFC 6238 appendix B's SHA-1 key, "12345678901234567890".
const RFC_KEY = new TextEncoder().encode('12345678901234567890');
const NOW = new Date('2026-11-22T10:00:10.000Z');

const codeAt = (key: Uint8Array, step: number) => generateHOTP(key, BigInt(step), 6);

describe('TOTP', () => {
  it('counts 30-second steps from the Unix epoch', () => {
    expect(totpStepAt(new Date(59_000))).toBe(1);
    expect(totpStepAt(new Date(60_000))).toBe(2);
    expect(totpStepAt(NOW)).toBe(Math.floor(NOW.getTime() / 30_000));
  });

  it('gives the RFC 6238 test vector at T = 59 s (last 6 digits of 94287082)', () => {
    expect(matchTotpStep(RFC_KEY, '287082', new Date(59_000))).toBe(1);
  });

  it('accepts the current step and one step either side, answering the step that matched', () => {
    const current = totpStepAt(NOW);
    expect(matchTotpStep(RFC_KEY, codeAt(RFC_KEY, current), NOW)).toBe(current);
    expect(matchTotpStep(RFC_KEY, codeAt(RFC_KEY, current - 1), NOW)).toBe(current - 1);
    expect(matchTotpStep(RFC_KEY, codeAt(RFC_KEY, current + 1), NOW)).toBe(current + 1);
  });

  it('refuses codes two steps away or more', () => {
    const key = createTotpKey();
    const current = totpStepAt(NOW);
    const near = new Set([-1, 0, 1].map((d) => codeAt(key, current + d)));
    for (const d of [-3, -2, 2, 3]) {
      const code = codeAt(key, current + d);
      // A distant code that happens to equal a near one (1 in a million) proves nothing.
      if (near.has(code)) continue;
      expect(matchTotpStep(key, code, NOW), `step ${d}`).toBeNull();
    }
  });

  it('refuses anything that is not exactly six digits, and a wrong code', () => {
    const current = totpStepAt(NOW);
    const good = codeAt(RFC_KEY, current);
    for (const code of [
      '',
      'abcdef',
      `${good.slice(0, 5)}x`,
      good.slice(0, 5),
      `${good}0`,
      ` ${good}`,
      `${good.slice(0, 3)} ${good.slice(3)}`,
      '１２３４５６',
    ]) {
      expect(matchTotpStep(RFC_KEY, code, NOW), JSON.stringify(code)).toBeNull();
    }
    const valid = new Set([-1, 0, 1].map((d) => codeAt(RFC_KEY, current + d)));
    const wrong = ['000000', '111111', '222222'].find((c) => !valid.has(c))!;
    expect(matchTotpStep(RFC_KEY, wrong, NOW)).toBeNull();
  });

  it('makes 160-bit keys, shown as unpadded upper-case base32, in an otpauth URI with issuer and account', () => {
    const key = createTotpKey();
    expect(key).toHaveLength(20);
    expect(createTotpKey()).not.toEqual(key);
    const text = totpKeyText(key);
    expect(text).toMatch(/^[A-Z2-7]{32}$/);
    expect(decodeBase32IgnorePadding(text)).toEqual(key);
    const uri = new URL(totpUri('Ronde Tafel 144 Harlingen', 'jan', key));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe('Ronde Tafel 144 Harlingen');
    expect(uri.searchParams.get('secret')).toBe(text);
    expect(uri.searchParams.get('period')).toBe('30');
    expect(uri.searchParams.get('digits')).toBe('6');
  });
});

describe('recovery codes', () => {
  it('creates 10 distinct codes like K7QD-M3XP', () => {
    const codes = createRecoveryCodes();
    expect(RECOVERY_CODE_COUNT).toBe(10);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(RECOVERY_CODE_SHAPE);
      // Letters and digits that are easy to misread are left out.
      expect(code).not.toMatch(/[01IO]/);
    }
    expect(createRecoveryCodes()).not.toEqual(codes);
  });

  it('normalises what a person types: lower case, spaces, a missing or misplaced dash', () => {
    expect(normaliseRecoveryCode('K7QD-M3XP')).toBe('K7QD-M3XP');
    expect(normaliseRecoveryCode('k7qd-m3xp')).toBe('K7QD-M3XP');
    expect(normaliseRecoveryCode('k7qdm3xp')).toBe('K7QD-M3XP');
    expect(normaliseRecoveryCode('  K7QD M3XP ')).toBe('K7QD-M3XP');
    expect(normaliseRecoveryCode('K7-QD-M3-XP')).toBe('K7QD-M3XP');
    expect(normaliseRecoveryCode('k 7 q d\tm 3 x p')).toBe('K7QD-M3XP');
  });

  it('refuses input of the wrong length or with other characters', () => {
    for (const input of ['', 'K7QD-M3X', 'K7QD-M3XPQ', 'K7QDM3X', 'K7QD_M3XP', 'K7QD-M3X0', 'K7QD-M3X1', 'K7QD-M3X!', '123456', 'ÄBCD-EFGH']) {
      expect(normaliseRecoveryCode(input), JSON.stringify(input)).toBeNull();
    }
  });

  it('stores a code as a keyed digest: stable, different for other codes and for another SECRET_KEY, never the plain SHA-256', async () => {
    const key = 'ab'.repeat(32);
    const hash = await hashRecoveryCode(key, 'K7QD-M3XP');
    expect(hash).toMatch(/^h1:[0-9a-f]{64}$/);
    expect(await hashRecoveryCode(key, 'K7QD-M3XP')).toBe(hash);
    expect(await hashRecoveryCode(key, 'K7QD-M3XQ')).not.toBe(hash);
    expect(await hashRecoveryCode('cd'.repeat(32), 'K7QD-M3XP')).not.toBe(hash);
    expect(hash.slice(3)).not.toBe(await legacyRecoveryCodeHash('K7QD-M3XP'));
    expect(hash).not.toContain('K7QD');
    // What a person types is hashed after normalising, so both spellings meet.
    expect(await hashRecoveryCode(key, normaliseRecoveryCode('k7qdm3xp')!)).toBe(hash);
  });
});
