import type { Db } from '../db/client';
import { deleteExpiredSessions } from '../features/auth/session';
import type { Clock } from './clock';
import { deleteExpiredRateLimits } from './rate-limit';

/** Drops expired sessions and rate-limit windows; run on a timer (Node) or by the cron trigger (Worker). */
export async function housekeeping(db: Db, clock: Clock): Promise<void> {
  await deleteExpiredSessions(db, clock);
  await deleteExpiredRateLimits(db, clock);
}
