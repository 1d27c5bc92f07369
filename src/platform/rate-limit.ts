import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { ClubDb } from '../db/client';
import { rateLimits } from '../db/schema';
import { AppError } from '../core/errors';
import type { Clock } from './clock';

const TOO_MANY_REQUESTS = 'Too many requests. Please wait a moment and try again.';

/**
 * Fixed-window counters in the database (docs/architecture.md §3), so a limit holds across Worker isolates and
 * Node restarts. One atomic upsert per hit: a window that has ended starts again at 1.
 */
export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterMs: number;
}

export async function hitRateLimit(db: ClubDb, clock: Clock, key: string, rule: RateLimitRule): Promise<RateLimitResult> {
  const now = clock.now().getTime();
  const end = now + rule.windowMs;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: now, windowEnd: end })
    .onConflictDoUpdate({
      target: [rateLimits.clubId, rateLimits.key],
      set: {
        count: sql`CASE WHEN ${rateLimits.windowEnd} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${rateLimits.windowEnd} <= ${now} THEN ${now} ELSE ${rateLimits.windowStart} END`,
        windowEnd: sql`CASE WHEN ${rateLimits.windowEnd} <= ${now} THEN ${end} ELSE ${rateLimits.windowEnd} END`,
      },
    })
    .returning({ count: rateLimits.count, windowEnd: rateLimits.windowEnd });
  const count = row?.count ?? 1;
  return { allowed: count <= rule.limit, count, retryAfterMs: Math.max(0, (row?.windowEnd ?? end) - now) };
}

/** Counts a hit and refuses with 429 once the limit is passed. */
export async function enforceRateLimit(db: ClubDb, clock: Clock, key: string, rule: RateLimitRule, message?: string): Promise<void> {
  const result = await hitRateLimit(db, clock, key, rule);
  if (!result.allowed) throw new AppError('TOO_MANY_REQUESTS', message ?? TOO_MANY_REQUESTS);
}

/** Reads a counter without counting (e.g. login: only failures count, but a blocked name stays blocked). */
export async function isRateLimited(db: ClubDb, clock: Clock, key: string, rule: RateLimitRule): Promise<boolean> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key)).limit(1);
  return !!row && row.windowEnd > clock.now().getTime() && row.count >= rule.limit;
}

/** Takes one counted hit back (an attempt that turned out legitimate). */
export async function refundRateLimit(db: ClubDb, key: string): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(and(eq(rateLimits.key, key), gt(rateLimits.count, 0)));
}

export async function resetRateLimit(db: ClubDb, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

export async function deleteExpiredRateLimits(db: ClubDb, clock: Clock): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowEnd, clock.now().getTime()));
}
