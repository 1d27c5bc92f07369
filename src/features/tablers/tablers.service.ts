import { asc } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { tablers } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { enforceRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { requireAdmin } from '../auth/permissions';
import { findGateMatch, GATE_MESSAGES, gateInputProblem } from './tabler-gate';

export const MATCH_LIMIT_PER_ADDRESS: RateLimitRule = { limit: 10, windowMs: 15 * 60 * 1000 };

export interface TablerView {
  id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

type TablerRow = typeof tablers.$inferSelect;

export function toTablerView(row: TablerRow): TablerView {
  return { id: row.id, name: row.name, created_at: row.createdAt, updated_at: row.updatedAt };
}

/** DESIGN §4 GET /tablers: the names are the order form's gate, so only admins see them. */
export async function listTablers(ctx: RequestCtx): Promise<TablerView[]> {
  requireAdmin(ctx);
  const rows = await ctx.db.select().from(tablers).orderBy(asc(tablers.name));
  return rows.map(toTablerView);
}

/** DESIGN §3 POST /tablers/match: the gate, checked on the server and rate-limited per address. */
export async function matchTabler(ctx: RequestCtx, password: string): Promise<{ id: number; name: string }> {
  const problem = gateInputProblem(password);
  if (problem) throw badRequest(problem);
  await enforceRateLimit(ctx.db, ctx.clock, `tabler-match:ip:${ctx.ip}`, MATCH_LIMIT_PER_ADDRESS, 'Te veel pogingen. Probeer het over een kwartier opnieuw.');
  const rows = await ctx.db.select({ id: tablers.id, name: tablers.name }).from(tablers);
  const match = findGateMatch(password, rows);
  if (!match) throw badRequest(GATE_MESSAGES.noMatch);
  return { id: match.id, name: match.name };
}
