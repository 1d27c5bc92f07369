import { refusalText } from '../../core/input-issues';
import { and, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { deliverSoon } from '../mail/mail-delivery';
import type { RequestCtx } from '../../context';
import type { ClubDb } from '../../db/client';
import { mailOutbox, passwordResets, sessions, users } from '../../db/schema';
import { AppError } from '../../core/errors';
import { DEFAULT_LOCALE } from '../../core/locales';
import type { Clock } from '../../platform/clock';
import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { randomBytes, sha256Hex } from '../../platform/crypto';
import { enqueueMailStatement } from '../../platform/mail';
import { enforceRateLimit, hitRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { auditInsert } from '../audit/audit';
import { getStringSetting } from '../settings/settings.service';
import { minimumPasswordLength } from './account.service';
import { passwordResetMail } from './account-mails';
import { voidResetLinks } from './reset-links';

/**
 * docs/architecture.md §5 forgot password: a single-use link valid one hour, mailed to the account's address. The
 * answer is the same whether or not an account exists, has an address, or was mailed already.
 */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
/** An invited user's first link (docs/architecture.md §6 POST /api/users/invite): a week to find the mail. */
export const INVITE_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const FORGOT_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 5, windowMs: 15 * 60 * 1000 };
/** More mails than this an hour for one account are not sent (quietly: the answer stays the same). */
const FORGOT_MAILS_PER_ACCOUNT: RateLimitRule = { limit: 3, windowMs: 60 * 60 * 1000 };
export const INVALID_RESET_LINK = refusalText('RESET_LINK_INVALID', 'This password reset link is invalid or has expired. Request a new one.');

async function findAccount(ctx: RequestCtx, lowered: string) {
  if (lowered === '') return undefined;
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(or(eq(sql`lower(${users.username})`, lowered), eq(sql`lower(${users.email})`, lowered)))
    .limit(1);
  return row;
}

/**
 * The outbox kind of every mail with a password link (a reset, an invitation's first password); once one
 * is delivered its link is blanked in the stored row.
 */
export const PASSWORD_RESET_MAIL_KIND = 'password-reset';

/**
 * A new single-use password link for the user `userId` names (an id, or the SQL that finds a user
 * created in the same batch), valid `ttlMs`: the absolute link for the mail and the row to store, of which
 * only the token's SHA-256 is kept. Used by the reset and by an invitation (docs/decisions/058).
 */
export function newPasswordLink<Id extends number | SQL>(ctx: Pick<RequestCtx, 'clock' | 'siteOrigin'>, userId: Id, ttlMs: number) {
  const token = encodeBase64urlNoPadding(randomBytes(32));
  const now = ctx.clock.now();
  return {
    link: `${ctx.siteOrigin}/reset-password?token=${token}`,
    row: { id: sha256Hex(token), userId, expiresAt: now.getTime() + ttlMs, createdAt: now.toISOString() },
  };
}

/**
 * POST /api/account/forgot. Mails a link when the account exists, is active and has an address;
 * otherwise does nothing, visibly the same. A new link makes the user's older unused links void.
 * docs/decisions/055: both ways take the same round trips before the answer (the address limit, the
 * lookup, a per-login count, one batch with an audit entry), so the answer's timing does not tell
 * whether an account exists.
 */
export async function requestPasswordReset(ctx: RequestCtx, input: { login: string }): Promise<void> {
  await enforceRateLimit(
    ctx.db,
    ctx.clock,
    `forgot:ip:${ctx.rateLimitAddress}`,
    FORGOT_LIMIT_PER_ADDRESS,
    'Too many requests. Please wait 15 minutes and try again.',
  );
  const login = input.login.trim().toLowerCase();
  const user = await findAccount(ctx, login);
  // An inactive account cannot sign in with a new password either, so it gets no link.
  const account = user?.email && user.status === 'active' ? { ...user, email: user.email } : undefined;
  const perLogin = await hitRateLimit(ctx.db, ctx.clock, account ? `forgot:user:${account.id}` : `forgot:login:${login}`, FORGOT_MAILS_PER_ACCOUNT);
  const clubName = await getStringSetting(ctx, 'club_name');
  const target = user ? `user:${user.id} (${user.username})` : login.slice(0, 64);
  const mailTo = perLogin.allowed ? account : undefined;

  // The link and its mail are made either way; without an account to send them to, the batch runs
  // inserts of the same tables that select nothing, so both ways do the same work (docs/decisions/055).
  const { link, row: resetRow } = newPasswordLink(ctx, mailTo?.id ?? -1, RESET_LINK_TTL_MS);
  const mail = {
    kind: PASSWORD_RESET_MAIL_KIND,
    to: mailTo?.email ?? '',
    // The user, not the token: the admin's mail view shows this (docs/decisions/055).
    relatedRef: `user:${mailTo?.id ?? -1}`,
    // In the language the user chose (docs/decisions/058).
    ...passwordResetMail(mailTo?.locale ?? DEFAULT_LOCALE, { username: mailTo?.username ?? login, clubName, link }),
  };
  const audit = auditInsert(ctx, { action: 'auth.password_reset_requested', actor: null, target, details: { mailed: mailTo !== undefined } });
  if (!mailTo) {
    await ctx.db.batch([
      voidResetLinks(ctx, resetRow.userId),
      ctx.db.insert(passwordResets).select(ctx.db.select().from(passwordResets).where(sql`0`)),
      audit,
      ctx.db.insert(mailOutbox).select(ctx.db.select().from(mailOutbox).where(sql`0`)),
    ]);
    return;
  }
  const [, , , queued] = await ctx.db.batch([
    voidResetLinks(ctx, mailTo.id),
    ctx.db.insert(passwordResets).values(resetRow),
    audit,
    enqueueMailStatement(ctx.db, ctx.clock, mail),
  ]);
  deliverSoon(
    ctx,
    queued.map((row) => row.id),
  );
}

const RESET_TOKEN_IN_LINK = /\/reset-password\?token=[A-Za-z0-9_-]+/g;
export const REMOVED_RESET_LINK = '/reset-password?token=(removed after delivery)';

/**
 * What the delivery of a reset mail confirms (wired in app.ts): the message has left, so the stored copy
 * no longer needs the link. Blanked, the sent outbox holds no working token (docs/decisions/055).
 */
export async function forgetDeliveredResetLinks(deps: { db: ClubDb }, relatedRef: string): Promise<void> {
  const sent = await deps.db
    .select({ id: mailOutbox.id, textBody: mailOutbox.textBody })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.kind, PASSWORD_RESET_MAIL_KIND), eq(mailOutbox.relatedRef, relatedRef), eq(mailOutbox.status, 'sent')));
  for (const row of sent) {
    const blanked = row.textBody.replace(RESET_TOKEN_IN_LINK, REMOVED_RESET_LINK);
    if (blanked !== row.textBody) await deps.db.update(mailOutbox).set({ textBody: blanked }).where(eq(mailOutbox.id, row.id));
  }
}

/**
 * POST /api/account/reset. A too-short password is refused before the token is touched, so the link
 * still works for a second try. Claiming the token, the new password and the end of every session of the
 * user land in one batch; the later statements run only if this request's claim took (the token's used_at
 * is exactly this request's stamp), so one link never sets two passwords. The audit entry follows the
 * batch, once the claim is known to have taken.
 */
export async function resetPassword(ctx: RequestCtx, input: { token: string; new_password: string }): Promise<void> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(input.token)) throw new AppError('RESET_LINK_INVALID', INVALID_RESET_LINK);
  const id = sha256Hex(input.token);
  const now = ctx.clock.now();
  const [reset] = await ctx.db
    .select({ userId: passwordResets.userId, username: users.username })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now.getTime())))
    .limit(1);
  if (!reset) throw new AppError('RESET_LINK_INVALID', INVALID_RESET_LINK);
  const min = await minimumPasswordLength(ctx);
  if (input.new_password.length < min) throw new AppError('PASSWORD_TOO_SHORT', `Password must be at least ${min} characters`, { min_length: min });
  const hash = await ctx.passwords.hash(input.new_password);

  const stamp = `${now.toISOString()}#${encodeBase64urlNoPadding(randomBytes(6))}`;
  const claimed = sql`EXISTS ${ctx.db
    .select({ one: sql`1` })
    .from(passwordResets)
    .where(and(eq(passwordResets.id, id), eq(passwordResets.usedAt, stamp)))}`;
  const [claim] = await ctx.db.batch([
    ctx.db
      .update(passwordResets)
      .set({ usedAt: stamp })
      .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id }),
    ctx.db
      .update(users)
      .set({ passwordHash: hash, updatedAt: now.toISOString() })
      .where(and(eq(users.id, reset.userId), claimed)),
    ctx.db.delete(sessions).where(and(eq(sessions.userId, reset.userId), claimed)),
  ]);
  if (claim.length === 0) throw new AppError('RESET_LINK_INVALID', INVALID_RESET_LINK);
  // After the batch, not in it: only a reset that took place may be recorded as one.
  ctx.session = null;
  ctx.user = null;
  await auditInsert(ctx, {
    action: 'auth.password_reset',
    actor: { id: reset.userId, username: reset.username },
    target: `user:${reset.userId} (${reset.username})`,
  });
}

/** Housekeeping: links an hour past their end are of no use to anyone. */
export async function deleteExpiredPasswordResets(db: ClubDb, clock: Clock): Promise<void> {
  await db.delete(passwordResets).where(lt(passwordResets.expiresAt, clock.now().getTime() - RESET_LINK_TTL_MS));
}
