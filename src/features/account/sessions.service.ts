import { and, desc, eq, ne } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { sessions } from '../../db/schema';
import { AppError } from '../../core/errors';
import { encodeHexLowerCase } from '@oslojs/encoding';
import { keyedDigest } from '../../platform/crypto';
import { requireUser } from '../auth/permissions';
import { auditInsert } from '../audit/audit';

/** docs/architecture.md §5 GET /api/account/sessions: one signed-in device of the caller. */
export interface SessionView {
  id: string;
  current: boolean;
  user_agent: string;
  ip: string;
  created_at: string;
  last_seen_at: string | null;
}

/**
 * The id the API shows for a session: a keyed digest of the row's key, so the list never hands out
 * what identifies a session in the database (that is the SHA-256 of the cookie token).
 */
async function publicId(secretKey: string, sessionId: string): Promise<string> {
  return encodeHexLowerCase(await keyedDigest(secretKey, 'session-id', sessionId)).slice(0, 32);
}

/** The caller's signed-in sessions (pending two-factor ones left out), most recently used first. */
async function ownSessions(ctx: RequestCtx) {
  const user = requireUser(ctx);
  return ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), eq(sessions.twoFactorPending, false)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** The caller's sessions: this device first (what a user looks for), then the others most recently used first. */
export async function listSessions(ctx: RequestCtx): Promise<SessionView[]> {
  const rows = await ownSessions(ctx);
  const current = rows.filter((row) => row.id === ctx.session?.id);
  return Promise.all(
    [...current, ...rows.filter((row) => row.id !== ctx.session?.id)].map(async (row) => ({
      id: await publicId(ctx.secretKey, row.id),
      current: row.id === ctx.session?.id,
      user_agent: row.userAgent,
      ip: row.ip,
      created_at: row.createdAt,
      last_seen_at: row.lastSeenAt === null ? null : new Date(row.lastSeenAt).toISOString(),
    })),
  );
}

/** Signs one of the caller's own sessions out; any other id (another user's too) is 404. */
export async function revokeSession(ctx: RequestCtx, id: string): Promise<void> {
  const user = requireUser(ctx);
  const rows = await ownSessions(ctx);
  let match: (typeof rows)[number] | undefined;
  for (const row of rows) if ((await publicId(ctx.secretKey, row.id)) === id) match = row;
  if (!match) throw new AppError('SESSION_NOT_FOUND', 'Session not found');
  await ctx.db.batch([
    ctx.db.delete(sessions).where(and(eq(sessions.id, match.id), eq(sessions.userId, user.id))),
    auditInsert(ctx, { action: 'auth.session_revoked', target: `user:${user.id} (${user.username})`, details: { user_agent: match.userAgent, ip: match.ip } }),
  ]);
  if (match.id === ctx.session?.id) {
    ctx.session = null;
    ctx.user = null;
    ctx.cookies.clear();
  }
}

/** Signs out every session of the caller but this one. */
export async function revokeOtherSessions(ctx: RequestCtx): Promise<void> {
  const user = requireUser(ctx);
  const others = ctx.session ? and(eq(sessions.userId, user.id), ne(sessions.id, ctx.session.id)) : eq(sessions.userId, user.id);
  await ctx.db.batch([
    ctx.db.delete(sessions).where(others),
    auditInsert(ctx, { action: 'auth.session_revoked', target: `user:${user.id} (${user.username})`, details: { others: true } }),
  ]);
}
