import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { keyedDigest, timingSafeEqual } from '../../platform/crypto';

/**
 * docs/architecture.md §5 gate_token: proof that this browser passed the order gate for one tabler, so a member
 * taking orders at the door is not held to the per-address limit meant for strangers. The token is
 * `<tablerId>.<expiry ms>.<HMAC>` under a key derived from SECRET_KEY; nothing is stored.
 */
export const GATE_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
const PURPOSE = 'gate-token';

async function signature(secretKey: string, tablerId: number, expiresAt: number): Promise<string> {
  return encodeBase64urlNoPadding(await keyedDigest(secretKey, PURPOSE, `${tablerId}.${expiresAt}`));
}

export async function issueGateToken(secretKey: string, tablerId: number, now: Date): Promise<string> {
  const expiresAt = now.getTime() + GATE_TOKEN_TTL_MS;
  return `${tablerId}.${expiresAt}.${await signature(secretKey, tablerId, expiresAt)}`;
}

/** True for an unexpired token this server signed for exactly this tabler. */
export async function isValidGateToken(secretKey: string, token: string, tablerId: number, now: Date): Promise<boolean> {
  const match = /^([1-9]\d{0,15})\.(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || Number(match[1]) !== tablerId) return false;
  const expiresAt = Number(match[2]);
  if (expiresAt <= now.getTime()) return false;
  return timingSafeEqual(match[3]!, await signature(secretKey, tablerId, expiresAt));
}
