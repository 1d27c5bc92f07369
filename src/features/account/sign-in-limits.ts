import type { RateLimitRule } from '../../platform/rate-limit';

// docs/decisions/004 and 055: the numbers of sign-in throttling live here and nowhere else; the records and
// docs/architecture.md §3 describe the rule and point to this file. Failures are counted per (username, address)
// pair, per address, and per username across all addresses, each in one window; only the first two refuse a
// right password, so a stranger can shut neither an account nor anyone else's address, only their own.

const WINDOW_MS = 15 * 60 * 1000;

export const LOGIN_LIMIT_PER_PAIR: RateLimitRule = { limit: 5, windowMs: WINDOW_MS };
export const LOGIN_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 20, windowMs: WINDOW_MS };
export const LOGIN_LIMIT_PER_USERNAME: RateLimitRule = { limit: 50, windowMs: WINDOW_MS };
/** Over the per-username limit: the attempts an address still gets for that username (docs/decisions/055). */
export const LOCKED_NAME_TRIES_PER_ADDRESS = 3;
