import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { ClubDb } from '../../db/client';
import { auditLog } from '../../db/schema';
import type { Clock } from '../../platform/clock';
import { requireAdmin, type HasUser } from '../auth/permissions';
import type { AuditQuery } from './audit.schemas';

/** docs/architecture.md §5 GET /api/audit: one entry as the API shows it; `details` parsed back into an object. */
export interface AuditEntryView {
  id: number;
  at: string;
  actor_id: number | null;
  actor_username: string | null;
  action: string;
  target: string;
  details: Record<string, unknown>;
  ip: string;
}

export interface AuditPage {
  entries: AuditEntryView[];
  total: number;
  page: number;
  per_page: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Newest first, filtered on the server: `actor` is a username (any case), `from`/`to` inclusive dates
 * (UTC days, as the entries' times are stored), paged with a total so the screen can say 'page X of Y'.
 */
export async function listAudit(ctx: HasUser & { db: ClubDb }, query: AuditQuery): Promise<AuditPage> {
  requireAdmin(ctx);
  const conditions: SQL[] = [];
  if (query.actor) conditions.push(eq(sql`lower(${auditLog.actorUsername})`, query.actor.toLowerCase()));
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  if (query.from) conditions.push(gte(auditLog.at, `${query.from}T00:00:00.000Z`));
  if (query.to) conditions.push(lt(auditLog.at, new Date(Date.parse(`${query.to}T00:00:00.000Z`) + DAY_MS).toISOString()));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, [totals]] = await Promise.all([
    ctx.db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    ctx.db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return {
    entries: rows.map((row) => ({
      id: row.id,
      at: row.at,
      actor_id: row.actorId,
      actor_username: row.actorUsername,
      action: row.action,
      target: row.target,
      details: parseDetails(row.details),
      ip: row.ip,
    })),
    total: totals?.total ?? 0,
    page: query.page,
    per_page: query.per_page,
  };
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Housekeeping: entries older than `days` (the setting `audit_retention_days`, 400 by default) are removed. */
export async function deleteOldAuditEntries(ctx: { db: ClubDb; clock: Clock }, days: number): Promise<void> {
  await ctx.db.delete(auditLog).where(lt(auditLog.at, new Date(ctx.clock.now().getTime() - days * DAY_MS).toISOString()));
}
