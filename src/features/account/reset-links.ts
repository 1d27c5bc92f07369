import { and, eq, isNull } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { passwordResets } from '../../db/schema';
import type { Clock } from '../../platform/clock';

/**
 * Voids every unused reset link of a user, as a statement for the batch of the change that makes them
 * stale: a new link, a new password, a new e-mail address (docs/decisions/055). Its own module, so the
 * account and user services share it without importing each other.
 */
export function voidResetLinks(ctx: { db: ClubDb; clock: Clock }, userId: number) {
  return ctx.db
    .update(passwordResets)
    .set({ usedAt: ctx.clock.now().toISOString() })
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}
