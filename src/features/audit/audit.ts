import { sql, type SQL } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { auditLog } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import type { AuditAction } from './audit-actions';

/** What writing an entry needs from a request's context: who is asking, from where, and when. */
export interface AuditCtx {
  db: ClubDb;
  clock: Clock;
  ip: string;
  user: { id: number; username: string } | null;
}

export interface AuditEntryInput {
  action: AuditAction;
  /**
   * What was acted on, e.g. `user:12 (piet)`, `setting:club_name`, or the tried username of a failed sign-in.
   * SQL when the batch works it out (the id of a user it creates); what goes into that SQL is the caller's to make safe.
   */
  target?: string | SQL;
  /** Old → new values where it fits (`{ paid: [false, true] }`); never a password or a token. */
  details?: Record<string, unknown>;
  /** Defaults to the signed-in user; `null` for an anonymous event (a failed sign-in). */
  actor?: { id: number; username: string } | null;
}

// C0 and C1 controls and DEL, and the marks that reorder text on screen (bidirectional overrides and isolates).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * docs/decisions/055: what a stranger typed (a tried username, a name) is written with its control
 * characters spelt out as `\u001b`, so the log cannot move a terminal's cursor, colour it, or hide text.
 */
export function auditText(text: string): string {
  return text.replace(UNSAFE_CHARACTERS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The details with every string in them (keys too) passed through auditText. */
function auditDetails(value: unknown): unknown {
  if (typeof value === 'string') return auditText(value);
  if (Array.isArray(value)) return value.map(auditDetails);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [auditText(k), auditDetails(v)]));
  return value;
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
    target: typeof input.target === 'object' ? input.target : auditText(input.target ?? ''),
    details: JSON.stringify(auditDetails(input.details ?? {})),
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
  // in the table's column order (the club first); id NULL takes the next autoincrement id.
  return ctx.db.insert(auditLog).select(sql`
    SELECT ${ctx.db.clubId}, NULL, ${ctx.clock.now().toISOString()}, ${actor?.id ?? null}, ${actor?.username ?? null}, ${input.action},
      ${typeof input.target === 'object' ? input.target : auditText(input.target ?? '')}, ${JSON.stringify(auditDetails(input.details ?? {}))}, ${ctx.ip}
    WHERE changes() > 0`);
}
