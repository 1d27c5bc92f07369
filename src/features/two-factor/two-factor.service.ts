import { encodeBase64 } from '@oslojs/encoding';
import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { recoveryCodes, twoFactorSecrets } from '../../db/schema';
import { AppError, notLoggedIn } from '../../core/errors';
import { decrypt, encrypt } from '../../platform/encryption';
import { enforceRateLimit, resetRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { requireUser } from '../auth/permissions';
import { createSession, endOtherSessions, invalidateSession } from '../auth/session';
import { auditInsert, writeAudit } from '../audit/audit';
import { createRecoveryCodes, createTotpKey, legacyRecoveryCodeHash, matchTotpStep, normaliseRecoveryCode, totpKeyText, totpUri } from '../auth/totp';
import { loadUserProfile, type UserProfile } from '../auth/user-profile';
import { getStringSetting } from '../settings/settings.service';
import { recoveryCodeHasher } from './recovery-code-key';

/** docs/architecture.md §3: two-factor attempts are limited per pending session (sign-in) and per user (set-up, disable). */
export const TWO_FACTOR_ATTEMPTS: RateLimitRule = { limit: 5, windowMs: 15 * 60 * 1000 };
export const TWO_FACTOR_LOGIN_ATTEMPTS_PER_USER: RateLimitRule = { limit: 10, windowMs: 15 * 60 * 1000 };
const TOO_MANY = 'Too many invalid codes. Please wait 15 minutes and try again.';
const INVALID_CODE = 'Invalid 2FA code';

export interface TwoFactorSetup {
  secret: string;
  otpauth_url: string;
  qr_code: string;
}

async function readSecret(ctx: RequestCtx, userId: number) {
  const [row] = await ctx.db.select().from(twoFactorSecrets).where(eq(twoFactorSecrets.userId, userId)).limit(1);
  return row;
}

/** docs/product.md §4 two-factor: starts (or restarts) set-up with a new secret, shown as text and as a QR code. */
export async function setupTwoFactor(ctx: RequestCtx): Promise<TwoFactorSetup> {
  const user = requireUser(ctx);
  const existing = await readSecret(ctx, user.id);
  if (existing?.enabledAt) throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already enabled');
  const key = createTotpKey();
  const secretEncrypted = await encrypt(ctx.secretKey, key);
  const now = ctx.clock.now().toISOString();
  await ctx.db
    .insert(twoFactorSecrets)
    .values({ userId: user.id, secretEncrypted, enabledAt: null, lastUsedStep: null, createdAt: now })
    .onConflictDoUpdate({ target: twoFactorSecrets.userId, set: { secretEncrypted, enabledAt: null, lastUsedStep: null, createdAt: now } });
  const issuer = await getStringSetting(ctx, 'club_name');
  const url = totpUri(issuer, user.username, key);
  // Imported on first use: a start (a new Worker isolate) need not evaluate the QR library.
  const { toString: qrToString } = await import('qrcode');
  const svg = await qrToString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret: totpKeyText(key), otpauth_url: url, qr_code: `data:image/svg+xml;base64,${encodeBase64(new TextEncoder().encode(svg))}` };
}

/**
 * Accepts a TOTP code for the user's secret once: the matched time step is recorded atomically,
 * so the same code (or an older one) can never be used again.
 */
async function acceptTotp(ctx: RequestCtx, userId: number, code: string, requireEnabled: boolean): Promise<boolean> {
  const row = await readSecret(ctx, userId);
  if (!row || (requireEnabled && !row.enabledAt)) return false;
  const key = await decrypt(ctx.secretKey, row.secretEncrypted);
  const step = matchTotpStep(key, code.trim(), ctx.clock.now());
  if (step === null) return false;
  const claimed = await ctx.db
    .update(twoFactorSecrets)
    .set({ lastUsedStep: step })
    .where(and(eq(twoFactorSecrets.userId, userId), or(isNull(twoFactorSecrets.lastUsedStep), lt(twoFactorSecrets.lastUsedStep, step))))
    .returning({ userId: twoFactorSecrets.userId });
  return claimed.length === 1;
}

/** Accepts an unused recovery code once, in its keyed form or (codes issued before it) the legacy one. */
async function acceptRecoveryCode(ctx: RequestCtx, userId: number, input: string): Promise<boolean> {
  const code = normaliseRecoveryCode(input);
  if (!code) return false;
  const hash = await recoveryCodeHasher(ctx.db, ctx.secretKey);
  const digests = [await hash(code), legacyRecoveryCodeHash(code)];
  const used = await ctx.db
    .update(recoveryCodes)
    .set({ usedAt: ctx.clock.now().toISOString() })
    .where(and(eq(recoveryCodes.userId, userId), inArray(recoveryCodes.codeHash, digests), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

async function acceptCodeOrRecovery(ctx: RequestCtx, userId: number, code: string): Promise<boolean> {
  return /^\s*\d{6}\s*$/.test(code) ? acceptTotp(ctx, userId, code, true) : acceptRecoveryCode(ctx, userId, code);
}

/** docs/product.md §4: a verified code enables 2FA; the answer carries 10 recovery codes, shown once. */
export async function verifyTwoFactor(ctx: RequestCtx, code: string): Promise<{ message: string; recovery_codes: string[] }> {
  const user = requireUser(ctx);
  const row = await readSecret(ctx, user.id);
  if (!row) throw new AppError('TWO_FACTOR_NOT_STARTED', 'Start the two-factor set-up first');
  if (row.enabledAt) throw new AppError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor authentication is already enabled');
  const limitKey = `2fa:user:${user.id}`;
  await enforceRateLimit(ctx.db, ctx.clock, limitKey, TWO_FACTOR_ATTEMPTS, TOO_MANY);
  if (!(await acceptTotp(ctx, user.id, code, false))) throw new AppError('TWO_FACTOR_CODE_INVALID', INVALID_CODE);
  await resetRateLimit(ctx.db, limitKey);
  const codes = createRecoveryCodes();
  const hash = await recoveryCodeHasher(ctx.db, ctx.secretKey);
  const hashes = await Promise.all(codes.map(hash));
  // docs/decisions/005: turning two-factor on signs out every other device of the user.
  await ctx.db.batch([
    ctx.db.update(twoFactorSecrets).set({ enabledAt: ctx.clock.now().toISOString() }).where(eq(twoFactorSecrets.userId, user.id)),
    ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    ctx.db.insert(recoveryCodes).values(hashes.map((codeHash) => ({ userId: user.id, codeHash }))),
    endOtherSessions(ctx, user.id),
    auditInsert(ctx, { action: 'auth.2fa_enabled', target: `user:${user.id} (${user.username})` }),
  ]);
  ctx.user = await loadUserProfile(ctx.db, user.id);
  return { message: '2FA enabled successfully', recovery_codes: codes };
}

/** docs/architecture.md §3: upgrades the pending session of a 2FA sign-in with a code or an unused recovery code. */
export async function completeTwoFactorLogin(ctx: RequestCtx, code: string): Promise<void> {
  const session = ctx.session;
  if (!session?.twoFactorPending) throw notLoggedIn();
  // Counted per pending session and per user: a new password login must not bring fresh guesses.
  const sessionKey = `2fa:session:${session.id}`;
  const userKey = `2fa:login:${session.userId}`;
  await enforceRateLimit(ctx.db, ctx.clock, sessionKey, TWO_FACTOR_ATTEMPTS, TOO_MANY);
  await enforceRateLimit(ctx.db, ctx.clock, userKey, TWO_FACTOR_LOGIN_ATTEMPTS_PER_USER, TOO_MANY);
  if (!(await acceptCodeOrRecovery(ctx, session.userId, code))) throw new AppError('TWO_FACTOR_CODE_INVALID', INVALID_CODE);
  await resetRateLimit(ctx.db, sessionKey);
  await resetRateLimit(ctx.db, userKey);
  // A new session with a new token replaces the pending one (no session fixation), full lifetime.
  await invalidateSession(ctx.db, session.id);
  const { token, session: full } = await createSession(ctx.db, ctx.clock, session.userId, { userAgent: ctx.userAgent, ip: ctx.ip });
  ctx.cookies.set(token, full.expiresAt);
  ctx.session = full;
  ctx.user = await loadUserProfile(ctx.db, session.userId);
  await writeAudit(ctx, { action: 'auth.login', details: { two_factor: true } });
}

/**
 * The signed-in user with two-factor on, once `code` (a current code or an unused recovery code) shows it is them:
 * tries are counted per user, and a right code forgives the count.
 */
async function requireOwnCode(ctx: RequestCtx, code: string): Promise<UserProfile> {
  const user = requireUser(ctx);
  if (!user.two_factor_enabled) throw new AppError('TWO_FACTOR_NOT_ENABLED', 'Two-factor authentication is not enabled');
  const limitKey = `2fa:user:${user.id}`;
  await enforceRateLimit(ctx.db, ctx.clock, limitKey, TWO_FACTOR_ATTEMPTS, TOO_MANY);
  if (!(await acceptCodeOrRecovery(ctx, user.id, code))) throw new AppError('TWO_FACTOR_CODE_INVALID', INVALID_CODE);
  await resetRateLimit(ctx.db, limitKey);
  return user;
}

/**
 * Checks a code: for a pending sign-in it completes it (as completelogin); for a signed-in user with
 * 2FA it confirms the code is valid.
 */
export async function checkTwoFactor(ctx: RequestCtx, code: string): Promise<{ message: string }> {
  if (ctx.session?.twoFactorPending) {
    await completeTwoFactorLogin(ctx, code);
    return { message: 'Two-factor authentication completed' };
  }
  await requireOwnCode(ctx, code);
  return { message: '2FA code is valid' };
}

/** docs/product.md §4: disabling needs a valid current code. */
export async function disableTwoFactor(ctx: RequestCtx, code: string): Promise<{ message: string }> {
  const user = await requireOwnCode(ctx, code);
  await ctx.db.batch([
    ctx.db.delete(twoFactorSecrets).where(eq(twoFactorSecrets.userId, user.id)),
    ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id)),
    endOtherSessions(ctx, user.id),
    auditInsert(ctx, { action: 'auth.2fa_disabled', target: `user:${user.id} (${user.username})` }),
  ]);
  ctx.user = await loadUserProfile(ctx.db, user.id);
  return { message: '2FA disabled' };
}
