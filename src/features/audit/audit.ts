import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import type { AuditAction } from './audit-actions';

/** What writing an entry needs from a request's context: who is asking, from where, and when. */
export interface AuditCtx {
  db: Db;
  clock: Clock;
  ip: string;
  user: { id: number; username: string } | null;
}

export interface AuditEntryInput {
  action: AuditAction;
  /** What was acted on, e.g. `user:12 (piet)`, `setting:club_name`, or the tried username of a failed sign-in. */
  target?: string;
  /** Old → new values where it fits (`{ paid: [false, true] }`); never a password or a token. */
  details?: Record<string, unknown>;
  /** Defaults to the signed-in user; `null` for an anonymous event (a failed sign-in). */
  actor?: { id: number; username: string } | null;
}

/**
 * The insert of one audit entry, not yet run: put it in the same `db.batch([...])` as the change it
 * records (docs/architecture.md §5), so the change and its entry land together or not at all.
 */
export function auditInsert(ctx: AuditCtx, input: AuditEntryInput) {
  const actor = input.actor === undefined ? ctx.user : input.actor;
  return ctx.db.insert(auditLog).values({
    at: ctx.clock.now().toISOString(),
    actorId: actor?.id ?? null,
    actorUsername: actor?.username ?? null,
    action: input.action,
    target: input.target ?? '',
    details: JSON.stringify(input.details ?? {}),
    ip: ctx.ip,
  });
}

/** Writes an entry on its own, for events that change nothing else (a failed sign-in, an export). */
export async function writeAudit(ctx: AuditCtx, input: AuditEntryInput): Promise<void> {
  await auditInsert(ctx, input);
}

/**
 * Like auditInsert, but the entry is written only when the statement just before it in the same
 * batch changed at least one row (SQLite's `changes()`, which libSQL, Turso and D1 keep per
 * connection through a batch). So a guarded update that the guard refused, or an insert that was a
 * no-op on conflict, leaves no entry, and the change and its entry still land together.
 */
export function auditIfChanged(ctx: AuditCtx, input: AuditEntryInput) {
  const actor = input.actor === undefined ? ctx.user : input.actor;
  // An INSERT … SELECT from the query builder (a raw db.run() cannot join a D1 batch). The values are
  // in the table's column order; id NULL takes the next autoincrement id.
  return ctx.db.insert(auditLog).select(sql`
    SELECT NULL, ${ctx.clock.now().toISOString()}, ${actor?.id ?? null}, ${actor?.username ?? null}, ${input.action},
      ${input.target ?? ''}, ${JSON.stringify(input.details ?? {})}, ${ctx.ip}
    WHERE changes() > 0`);
}
