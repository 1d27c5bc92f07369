import type { ClubDb } from '../../db/client';
import type { Clock } from '../../platform/clock';
import { deleteExpiredRateLimits } from '../../platform/rate-limit';
import type { SettingsCache } from '../../platform/settings-cache';
import { deleteExpiredPasswordResets } from '../account/password-reset.service';
import { deleteOldAuditEntries } from '../audit/audit.service';
import { deleteExpiredSessions } from '../auth/session';
import { deleteOldIdempotencyKeys } from '../orders/order-idempotency';
import { getIntegerSetting } from '../settings/settings.service';

/**
 * Drops expired sessions, rate-limit windows, password-reset links and idempotency keys, and audit entries past
 * `audit_retention_days`; run on a timer (Node) or by the cron trigger (Worker).
 */
export async function housekeeping(deps: { db: ClubDb; clock: Clock; settingsCache: SettingsCache }): Promise<void> {
  await deleteExpiredSessions(deps.db, deps.clock);
  await deleteExpiredRateLimits(deps.db, deps.clock);
  await deleteExpiredPasswordResets(deps.db, deps.clock);
  await deleteOldIdempotencyKeys(deps.db, deps.clock);
  await deleteOldAuditEntries(deps, await getIntegerSetting(deps, 'audit_retention_days'));
}
