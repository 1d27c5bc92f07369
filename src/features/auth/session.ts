import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { statementCache } from '../../db/statement-cache';
import type { Clock } from '../../platform/clock';
import { encodeBase64urlNoPadding } from '@oslojs/encoding';
import { randomBytes, sha256Hex } from '../../platform/crypto';
import { profileColumns, profileFromRow, type UserProfile } from './user-profile';

/**
 * docs/architecture.md §3 sessions: a random 256-bit token in an HttpOnly cookie; the database keeps only its
 * SHA-256. 30 days, sliding: a session used in its second half is extended.
 */
export const SESSION_COOKIE = 'kerstactie_session';
/**
 * Over https the cookie carries the `__Host-` prefix (docs/decisions/031): browsers then accept it only
 * with Secure, Path=/ and no Domain, so no other host or a plain-http page can plant or shadow it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
export const sessionCookieName = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/** `last_seen_at` is written when it moved by this much, not on every request. */
const LAST_SEEN_STEP_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A session waiting for its two-factor code lives only this long. */
export const PENDING_SESSION_TTL_MS = 10 * 60 * 1000;
const RENEW_WHEN_LEFT_MS = SESSION_TTL_MS / 2;

export interface Session {
  id: string;
  userId: number;
  twoFactorPending: boolean;
  expiresAt: number;
}

export interface CreatedSession {
  token: string;
  session: Session;
}

export interface SessionOptions {
  twoFactorPending?: boolean;
  /** The browser's User-Agent and address, shown on the account page's session list. */
  userAgent?: string;
  ip?: string;
}

export async function createSession(db: ClubDb, clock: Clock, userId: number, options: SessionOptions = {}): Promise<CreatedSession> {
  const token = encodeBase64urlNoPadding(randomBytes(32));
  const now = clock.now();
  const session: Session = {
    id: sha256Hex(token),
    userId,
    twoFactorPending: options.twoFactorPending ?? false,
    expiresAt: now.getTime() + (options.twoFactorPending ? PENDING_SESSION_TTL_MS : SESSION_TTL_MS),
  };
  await db.insert(sessions).values({
    ...session,
    createdAt: now.toISOString(),
    userAgent: (options.userAgent ?? '').slice(0, 512),
    ip: options.ip ?? '',
    lastSeenAt: now.getTime(),
  });
  return { token, session };
}

export interface ValidatedSession {
  session: Session;
  /** Null while the session waits for its two-factor code: it is not signed in yet. */
  user: UserProfile | null;
  /** True when the expiry moved and the cookie should be sent again. */
  renewed: boolean;
}

/** The session with its user's whole profile, by session id: one statement (docs/decisions/033). */
function buildIdentityQuery(db: ClubDb) {
  return db
    .select({
      ...profileColumns,
      userId: sessions.userId,
      twoFactorPending: sessions.twoFactorPending,
      expiresAt: sessions.expiresAt,
      sessionCreatedAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare();
}

// Built once per database: every signed-in request runs it, and building the SQL of its subqueries anew
// each time cost about as much as running it.
const identityQueries = statementCache<ReturnType<typeof buildIdentityQuery>>();
const identityQuery = (db: ClubDb) => identityQueries(db, 'identity', () => buildIdentityQuery(db));

/**
 * docs/architecture.md §3/§5: a session ends after 30 days unused, and in any case `maxAgeDays` after sign-in
 * (the `session_max_age_days` setting): the sliding renewal never goes past that. Renewal and the
 * last-seen time are written together, and only when one of them moved.
 *
 * docs/decisions/033: the session, its user's status and the whole profile come in one statement, so a signed-in
 * request costs one round trip unless a write is due. `maxAgeDays` is asked for beside that read, so a
 * cold settings cache costs no extra round trip in sequence.
 */
export async function validateSessionToken(db: ClubDb, clock: Clock, token: string, maxAgeDays: () => Promise<number>): Promise<ValidatedSession | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const id = sha256Hex(token);
  const [[row], maxAge] = await Promise.all([identityQuery(db).all({ id }), maxAgeDays()]);
  if (!row) return null;
  const now = clock.now().getTime();
  const absoluteEnd = Date.parse(row.sessionCreatedAt) + maxAge * DAY_MS;
  if (row.expiresAt <= now || absoluteEnd <= now || row.status !== 'active') {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  const session: Session = {
    id,
    userId: row.userId,
    twoFactorPending: row.twoFactorPending,
    expiresAt: Math.min(row.expiresAt, absoluteEnd),
  };
  const renew = !session.twoFactorPending && session.expiresAt - now < RENEW_WHEN_LEFT_MS && session.expiresAt < absoluteEnd;
  if (renew) session.expiresAt = Math.min(now + SESSION_TTL_MS, absoluteEnd);
  const seen = now - (row.lastSeenAt ?? 0) >= LAST_SEEN_STEP_MS;
  if (renew || seen) {
    await db
      .update(sessions)
      .set({ ...(renew ? { expiresAt: session.expiresAt } : {}), ...(seen ? { lastSeenAt: now } : {}) })
      .where(eq(sessions.id, id));
  }
  // A session waiting for its two-factor code is not signed in: its row's profile is not used.
  return { session, user: session.twoFactorPending ? null : profileFromRow(row), renewed: renew };
}

export async function invalidateSession(db: ClubDb, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/**
 * The delete that ends every session of the user but the request's own, for a batch with the change
 * that calls for it (password, e-mail or two-factor change: docs/decisions/007, 005).
 */
export function endOtherSessions(ctx: { db: ClubDb; session: Session | null }, userId: number) {
  const others = ctx.session ? and(eq(sessions.userId, userId), ne(sessions.id, ctx.session.id)) : eq(sessions.userId, userId);
  return ctx.db.delete(sessions).where(others);
}

/** Ends every session of a user, or every other one when `keepSessionId` is given (password change). */
export async function invalidateUserSessions(db: ClubDb, userId: number, keepSessionId?: string): Promise<void> {
  await db.delete(sessions).where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}

export async function deleteExpiredSessions(db: ClubDb, clock: Clock): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, clock.now().getTime()));
}

export function sessionCookieOptions(secure: boolean, expiresAt: number) {
  return {
    httpOnly: true,
    secure,
    sameSite: 'Lax' as const,
    path: '/',
    expires: new Date(expiresAt),
  };
}
