import { asc, eq, ne, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { tablers } from '../../db/schema';
import { tablerSearchName } from '../../db/search-text';
import { AppError } from '../../core/errors';
import { enforceRateLimit, type RateLimitRule } from '../../platform/rate-limit';
import { issueGateToken } from './gate-token';
import { auditIfChanged } from '../audit/audit';
import { requireManagement } from '../auth/permissions';
import { findGateMatch, GATE_MESSAGES, gateInputProblem, namesMatch } from './tabler-gate';

/** Wrong names one address may try in 15 minutes; the next wrong one is refused (right names are never counted). */
export const WRONG_NAMES_PER_ADDRESS: RateLimitRule = { limit: 9, windowMs: 15 * 60 * 1000 };
const GATE_TOO_MANY = 'Te veel pogingen. Probeer het over een kwartier opnieuw.';

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

/** docs/architecture.md §4 GET /tablers: the names are the order form's gate, so only admins see them. */
export async function listTablers(ctx: RequestCtx): Promise<TablerView[]> {
  requireManagement(ctx);
  const rows = await ctx.db.select().from(tablers).orderBy(sql`lower(${tablers.name})`, asc(tablers.id));
  return rows.map(toTablerView);
}

export interface GateMatch {
  tabler: { id: number; name: string };
  /** docs/architecture.md §5: lets the order form of this browser order for this tabler at the member's limit. */
  gate_token: string;
}

/**
 * docs/architecture.md §3/§5 POST /tablers/match: the gate, checked on the server. A matching name always passes,
 * whatever failed before from the address: the names are public (GET /tablers), so limiting them guards
 * nothing, and members on one shared network (a market stall, a carrier's address) must not lock each other
 * out (docs/decisions/014). Only wrong names are counted, each atomically: after 9 in 15 minutes the next answer 429.
 */
export async function matchTabler(ctx: RequestCtx, password: string): Promise<GateMatch> {
  const problem = gateInputProblem(password);
  if (problem) throw new AppError('GATE_INPUT_INVALID', problem);
  const rows = await ctx.db.select({ id: tablers.id, name: tablers.name }).from(tablers);
  const match = findGateMatch(password, rows);
  if (!match) {
    await enforceRateLimit(ctx.db, ctx.clock, `tabler-match:ip:${ctx.rateLimitAddress}`, WRONG_NAMES_PER_ADDRESS, GATE_TOO_MANY);
    throw new AppError('GATE_NO_MATCH', GATE_MESSAGES.noMatch);
  }
  return { tabler: { id: match.id, name: match.name }, gate_token: await issueGateToken(ctx.secretKey, match.id, ctx.clock.now()) };
}

/**
 * docs/decisions/017: a tabler's name is trimmed and required, can pass the gate (3+ characters with letters), and
 * may not match another tabler's name under the gate's rule, so the order form is never ambiguous.
 */
async function checkTablerName(ctx: RequestCtx, name: string, exceptId?: number): Promise<void> {
  if (name === '') throw new AppError('TABLER_NAME_REQUIRED', 'Naam is verplicht.');
  if (gateInputProblem(name)) throw new AppError('TABLER_NAME_INVALID', 'Een tablernaam heeft minimaal 3 tekens en bevat letters.');
  const others = await ctx.db
    .select({ id: tablers.id, name: tablers.name })
    .from(tablers)
    .where(exceptId === undefined ? undefined : ne(tablers.id, exceptId));
  const clash = others.find((other) => namesMatch(name, other.name));
  if (clash)
    throw new AppError('TABLER_NAME_TOO_SIMILAR', `Deze naam lijkt te veel op die van ${clash.name}: het bestelformulier kan ze dan niet uit elkaar houden.`);
}

export async function createTabler(ctx: RequestCtx, name: string): Promise<TablerView> {
  requireManagement(ctx);
  await checkTablerName(ctx, name);
  const now = ctx.clock.now().toISOString();
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(tablers)
      .values({ name, searchName: tablerSearchName(name), createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning(),
    auditIfChanged(ctx, { action: 'tabler.created', target: `tabler (${name})` }),
  ]);
  if (!row) throw new AppError('TABLER_NAME_TAKEN', 'Er bestaat al een tabler met deze naam.');
  return toTablerView(row);
}

export async function renameTabler(ctx: RequestCtx, id: number, name: string): Promise<TablerView> {
  requireManagement(ctx);
  const [existing] = await ctx.db.select({ id: tablers.id, name: tablers.name }).from(tablers).where(eq(tablers.id, id)).limit(1);
  if (!existing) throw new AppError('TABLER_NOT_FOUND', 'Tabler niet gevonden.');
  await checkTablerName(ctx, name, id);
  const [[row]] = await ctx.db.batch([
    // Order search compares the folded name (orders/order-search.ts), so a rename is found at once.
    ctx.db
      .update(tablers)
      .set({ name, searchName: tablerSearchName(name), updatedAt: ctx.clock.now().toISOString() })
      .where(eq(tablers.id, id))
      .returning(),
    auditIfChanged(ctx, { action: 'tabler.updated', target: `tabler:${id} (${existing.name})`, details: { name: [existing.name, name] } }),
  ]);
  return toTablerView(row!);
}

/** The tabler's orders stay; their tabler_id becomes null and the dashboard shows 'Onbekend'. */
export async function deleteTabler(ctx: RequestCtx, id: number): Promise<void> {
  requireManagement(ctx);
  const [existing] = await ctx.db.select({ name: tablers.name }).from(tablers).where(eq(tablers.id, id)).limit(1);
  if (!existing) throw new AppError('TABLER_NOT_FOUND', 'Tabler niet gevonden.');
  const [[row]] = await ctx.db.batch([
    ctx.db.delete(tablers).where(eq(tablers.id, id)).returning({ id: tablers.id }),
    auditIfChanged(ctx, { action: 'tabler.deleted', target: `tabler:${id} (${existing.name})` }),
  ]);
  if (!row) throw new AppError('TABLER_NOT_FOUND', 'Tabler niet gevonden.');
}
