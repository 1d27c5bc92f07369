import type { Db } from '../db/client';
import { deleteExpiredPasswordResets } from '../features/account/password-reset.service';
import { deleteExpiredSessions } from '../features/auth/session';
import type { Clock } from './clock';
import { deleteExpiredRateLimits } from './rate-limit';

/** Drops expired sessions, rate-limit windows and password-reset links; run on a timer (Node) or by the cron trigger (Worker). */
export async function housekeeping(db: Db, clock: Clock): Promise<void> {
  await deleteExpiredSessions(db, clock);
  await deleteExpiredRateLimits(db, clock);
  await deleteExpiredPasswordResets(db, clock);
}
