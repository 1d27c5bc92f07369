import type { Db } from '../db/client';
import { deleteExpiredPasswordResets } from '../features/account/password-reset.service';
import { deleteOldAuditEntries } from '../features/audit/audit.service';
import { deleteExpiredSessions } from '../features/auth/session';
import type { SettingsCache } from '../features/settings/settings-cache';
import type { Clock } from './clock';
import { deleteExpiredRateLimits } from './rate-limit';

/**
 * Drops expired sessions, rate-limit windows and password-reset links, and audit entries past
 * `audit_retention_days`; run on a timer (Node) or by the cron trigger (Worker).
 */
export async function housekeeping(deps: { db: Db; clock: Clock; settingsCache: SettingsCache }): Promise<void> {
  await deleteExpiredSessions(deps.db, deps.clock);
  await deleteExpiredRateLimits(deps.db, deps.clock);
  await deleteExpiredPasswordResets(deps.db, deps.clock);
  await deleteOldAuditEntries(deps);
}
