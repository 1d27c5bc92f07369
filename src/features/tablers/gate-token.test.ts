import { describe, expect, it } from 'vitest';
import { GATE_TOKEN_TTL_MS, isValidGateToken, issueGateToken } from './gate-token';

const KEY = '1f'.repeat(32);
const NOW = new Date('2026-12-01T10:00:00.000Z');

describe('gate tokens', () => {
  it('are valid for the tabler they were issued for until 12 hours have passed', async () => {
    const token = await issueGateToken(KEY, 7, NOW);
    expect(await isValidGateToken(KEY, token, 7, NOW)).toBe(true);
    expect(await isValidGateToken(KEY, token, 7, new Date(NOW.getTime() + GATE_TOKEN_TTL_MS - 1))).toBe(true);
    expect(await isValidGateToken(KEY, token, 7, new Date(NOW.getTime() + GATE_TOKEN_TTL_MS))).toBe(false);
  });

  it('are refused for another tabler, under another key, or when any part was changed', async () => {
    const token = await issueGateToken(KEY, 7, NOW);
    expect(await isValidGateToken(KEY, token, 8, NOW)).toBe(false);
    expect(await isValidGateToken('2e'.repeat(32), token, 7, NOW)).toBe(false);
    const [id, expiry, mac] = token.split('.') as [string, string, string];
    expect(await isValidGateToken(KEY, `8.${expiry}.${mac}`, 8, NOW)).toBe(false);
    expect(await isValidGateToken(KEY, `${id}.${Number(expiry) + 3_600_000}.${mac}`, 7, NOW)).toBe(false);
    expect(await isValidGateToken(KEY, `${id}.${expiry}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, 7, NOW)).toBe(false);
    for (const junk of ['', 'x', '7..', `${token}.extra`]) expect(await isValidGateToken(KEY, junk, 7, NOW)).toBe(false);
  });
});
