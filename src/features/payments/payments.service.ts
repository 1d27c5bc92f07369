import { and, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { auditLog, bankEntries, orders, paymentImports, users } from '../../db/schema';
import { AppError } from '../../core/errors';
import { chunked } from '../../core/record-id';
import { auditInsert } from '../audit/audit';
import { requireManagement } from '../auth/permissions';
import { type BankLineRow, bankLineColumns, bankLineView } from './bank-line';
import { parseCamt053, type SkippedEntry, type StatementEntry } from './camt053';
import { orderTotalCents, todaysPricing } from '../invoices/order-pricing';
import { ORDER_NOT_FOUND } from '../orders/orders.service';
import { type BankLineView, findMentions, matchEntries, type CandidateOrder, type EntryStatus } from './payment-matching';

export const IMPORT_NOT_FOUND = 'Deze import van een bankafschrift bestaat niet.';

/** One credit of the preview (docs/architecture.md §5). Money in euros, rounded to cents. */
export interface EntryView extends BankLineView {
  status: EntryStatus;
  /** The order the remittance names (for already_imported: the order the booking paid before). */
  order_id?: number;
  /** That order's KP reference. */
  reference?: string;
  /**
   * The booking is already a follow-up of an import processed before (docs/decisions/057): still `open`, or
   * `dismissed`. Processing this import leaves it there; it never becomes a second follow-up.
   */
  follow_up?: 'open' | 'dismissed';
}

export interface SkippedView {
  entry_ref: string;
  booked_at: string;
  reason: string;
}

export interface ImportResult {
  success: true;
  import_id: number;
  entries: EntryView[];
  /** Credits the preview leaves out, with the reason (another currency, no readable amount or date). */
  skipped: SkippedView[];
}

export interface ConfirmResult {
  success: true;
  marked_paid: number;
  /** Credits this confirm left for the treasurer as open follow-ups (docs/decisions/057). */
  follow_ups: number;
}

// D1 binds at most 100 values per statement.
const LOOKUP_CHUNK = 90;
// Entries go in as one JSON text per statement (json_each), so a statement of any length takes a few
// statements instead of one per row; this keeps each text well under D1's limits.
const INSERT_CHUNK = 200;

type OrderRow = Pick<typeof orders.$inferSelect, 'id' | 'reference' | 'invoiceNumber' | 'cancelled' | 'paid' | 'amount' | 'invoiceTotalCents' | 'paidCents'>;

const orderColumns = {
  id: orders.id,
  reference: orders.reference,
  invoiceNumber: orders.invoiceNumber,
  cancelled: orders.cancelled,
  paid: orders.paid,
  amount: orders.amount,
  invoiceTotalCents: orders.invoiceTotalCents,
  paidCents: orders.paidCents,
};

/** The orders the statement's remittances name, and those of bookings that paid an order before. */
async function lookUpOrders(ctx: RequestCtx, entries: StatementEntry[], appliedOrderIds: number[]): Promise<OrderRow[]> {
  const invoiceNumbers = new Set<string>();
  const references = new Set<string>();
  for (const entry of entries) {
    for (const mention of findMentions(entry.remittance)) (mention.kind === 'invoice_number' ? invoiceNumbers : references).add(mention.value);
  }
  const rows = new Map<number, OrderRow>();
  for (const chunk of chunked([...invoiceNumbers], LOOKUP_CHUNK)) {
    for (const row of await ctx.db.select(orderColumns).from(orders).where(inArray(orders.invoiceNumber, chunk))) rows.set(row.id, row);
  }
  for (const chunk of chunked([...references], LOOKUP_CHUNK)) {
    for (const row of await ctx.db.select(orderColumns).from(orders).where(inArray(orders.reference, chunk))) rows.set(row.id, row);
  }
  for (const chunk of chunked(
    appliedOrderIds.filter((id) => !rows.has(id)),
    LOOKUP_CHUNK,
  )) {
    for (const row of await ctx.db.select(orderColumns).from(orders).where(inArray(orders.id, chunk))) rows.set(row.id, row);
  }
  return [...rows.values()];
}

/**
 * What earlier imports did with these bookings: entry_key → the order of those that were booked on an order
 * (paid it, in part or in full), and entry_key → the state of those left as a follow-up without a booking.
 */
async function earlierBookingsOf(
  ctx: RequestCtx,
  keys: string[],
): Promise<{ applied: Map<string, number | null>; followUps: Map<string, 'open' | 'dismissed'> }> {
  const applied = new Map<string, number | null>();
  const followUps = new Map<string, 'open' | 'dismissed'>();
  for (const chunk of chunked(keys, LOOKUP_CHUNK)) {
    const rows = await ctx.db
      .select({ entryKey: bankEntries.entryKey, orderId: bankEntries.orderId, appliedAt: bankEntries.appliedAt, resolution: bankEntries.resolution })
      .from(bankEntries)
      .where(and(or(isNotNull(bankEntries.appliedAt), isNotNull(bankEntries.followUpAt)), inArray(bankEntries.entryKey, chunk)));
    for (const row of rows) {
      if (row.appliedAt !== null) applied.set(row.entryKey, row.orderId);
      else followUps.set(row.entryKey, row.resolution === 'dismissed' ? 'dismissed' : 'open');
    }
  }
  for (const key of applied.keys()) followUps.delete(key);
  return { applied, followUps };
}

/** The orders among `ids` that a bank booking has paid in full (part-payments alone do not count). */
async function settledByBank(ctx: RequestCtx, ids: number[]): Promise<Set<number>> {
  const settled = new Set<number>();
  for (const chunk of chunked(ids, LOOKUP_CHUNK)) {
    const rows = await ctx.db
      .selectDistinct({ orderId: bankEntries.orderId })
      .from(bankEntries)
      .where(and(isNotNull(bankEntries.appliedAt), eq(bankEntries.settled, true), inArray(bankEntries.orderId, chunk)));
    for (const row of rows) if (row.orderId !== null) settled.add(row.orderId);
  }
  return settled;
}

/** The statement's file name as shown in the list of imports: no folders, no control characters, not endless. */
function cleanFilename(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? '';
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f]+/g, '')
    .trim()
    .slice(0, 200);
  return clean || 'afschrift.xml';
}

/**
 * docs/architecture.md §5 POST /api/payments/import: reads a CAMT.053 statement, matches each incoming transfer to an
 * order (payment-matching.ts) and keeps the result as a preview (`payment_imports` + `bank_entries`).
 * Nothing is marked paid until the preview is confirmed.
 */
export async function importStatement(ctx: RequestCtx, file: { filename: string; bytes: Uint8Array }): Promise<ImportResult> {
  const user = requireManagement(ctx);
  const statement = await parseCamt053(file.bytes);
  const { entries } = statement;

  const earlier = await earlierBookingsOf(
    ctx,
    entries.map((e) => e.entryKey),
  );
  const appliedKeys = earlier.applied;
  const appliedOrderIds = [...new Set([...appliedKeys.values()].filter((id): id is number => id !== null))];
  const rows = await lookUpOrders(ctx, entries, appliedOrderIds);
  const byBank = await settledByBank(
    ctx,
    rows.map((r) => r.id),
  );
  const pricing = todaysPricing(ctx);
  const candidates: CandidateOrder[] = [];
  for (const row of rows) {
    candidates.push({ ...row, totalCents: await orderTotalCents(row, pricing), settledByBank: byBank.has(row.id) });
  }
  const matches = matchEntries(entries, {
    ordersByInvoiceNumber: new Map(candidates.filter((o) => o.invoiceNumber).map((o) => [o.invoiceNumber!, o])),
    ordersByReference: new Map(candidates.map((o) => [o.reference, o])),
    appliedKeys,
  });
  const referenceOf = new Map(candidates.map((o) => [o.id, o.reference]));

  const filename = cleanFilename(file.filename);
  const now = ctx.clock.now().toISOString();
  const skipped = statement.skipped.map((s: SkippedEntry) => ({ entry_ref: s.entryRef, booked_at: s.bookedAt, reason: s.reason }));
  const [created] = await ctx.db
    .insert(paymentImports)
    .values({
      filename,
      createdBy: user.id,
      createdAt: now,
      statementId: statement.statementIds.join(', ').slice(0, 500) || null,
      periodFrom: statement.periodFrom,
      periodTo: statement.periodTo,
      skipped: JSON.stringify(skipped),
    })
    .returning({ id: paymentImports.id });
  const importId = created!.id;
  const stored = entries.map((entry, i) => ({
    k: entry.entryKey,
    r: entry.entryRef,
    b: entry.bookedAt,
    a: entry.amountCents,
    c: entry.counterparty,
    m: entry.remittance,
    s: matches[i]!.status,
    o: matches[i]!.orderId,
  }));
  const counts = { matched: 0, amount_mismatch: 0, unmatched: 0, already_imported: 0 };
  for (const match of matches) counts[match.status]++;
  try {
    await ctx.db.batch([
      auditInsert(ctx, {
        action: 'payments.imported',
        target: `import:${importId} (${filename})`,
        details: { entries: entries.length, ...counts, skipped: statement.skipped.length },
      }),
      ...chunked(stored, INSERT_CHUNK).map((chunk) =>
        // In the table's column order (the club first); id NULL takes the next id. A preview: applied_at and the follow-up
        // columns stay NULL, settled 0.
        ctx.db.insert(bankEntries).select(sql`
          SELECT ${ctx.db.clubId}, NULL, ${importId}, json_extract(value, '$.k'), json_extract(value, '$.r'), json_extract(value, '$.b'),
            json_extract(value, '$.a'), json_extract(value, '$.c'), json_extract(value, '$.m'), json_extract(value, '$.s'),
            json_extract(value, '$.o'), NULL, 0, NULL, NULL, NULL, NULL, NULL
          FROM json_each(${JSON.stringify(chunk)}) ORDER BY key`),
      ),
    ]);
  } catch (error) {
    // Without its entries the import would be an empty preview: take it away again.
    await ctx.db
      .delete(paymentImports)
      .where(eq(paymentImports.id, importId))
      .catch(() => undefined);
    throw error;
  }

  return {
    success: true,
    import_id: importId,
    entries: entries.map((entry, i) => {
      const { status, orderId } = matches[i]!;
      const followUp = earlier.followUps.get(entry.entryKey);
      return {
        ...bankLineView(entry),
        status,
        ...(orderId !== null ? { order_id: orderId } : {}),
        ...(orderId !== null && referenceOf.has(orderId) ? { reference: referenceOf.get(orderId)! } : {}),
        ...(followUp ? { follow_up: followUp } : {}),
      };
    }),
    skipped,
  };
}

/**
 * An entry of this import that confirming may apply: matched, not applied, no bank entry with its key
 * applied or left as a follow-up (the same booking from another import of the statement), and no booking
 * that paid its order in full applied yet (part-payments do not count: the rest may come in one go).
 * `alias` names the bank_entries row being tested; another club's bookings never count (docs/decisions/071).
 */
function applicable(alias: string, importId: number) {
  const e = sql.raw(alias);
  return sql`${e}.import_id = ${importId} AND ${e}.status = 'matched' AND ${e}.applied_at IS NULL AND ${e}.order_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM bank_entries AS other WHERE other.club_id = ${e}.club_id AND other.entry_key = ${e}.entry_key AND (other.applied_at IS NOT NULL OR other.follow_up_at IS NOT NULL))
    AND NOT EXISTS (SELECT 1 FROM bank_entries AS other WHERE other.club_id = ${e}.club_id AND other.order_id = ${e}.order_id AND other.applied_at IS NOT NULL AND other.settled = 1)`;
}

/**
 * docs/architecture.md §5 POST /api/payments/confirm ('Verwerken'): the import's `matched` entries pay their
 * orders, and what they cannot settle stays as a follow-up, in ONE batch (D1 has no interactive
 * transactions; libSQL and D1 run a batch atomically and one at a time), written so that whatever runs at
 * the same time nothing is paid twice:
 *
 *  0. the import's credits that differ, found no order, or were matched to an order that can no longer take
 *     them (credited, or paid in full by another booking meanwhile) become open follow-ups
 *     (docs/decisions/057), unless their booking is already applied or a follow-up elsewhere: one follow-up
 *     per booking, backed by a partial unique index;
 *  1. the orders of the applicable entries (see `applicable`) that are still unpaid and not credited
 *     become paid, with the booking date as paid_at. An order marked paid by hand keeps its paid date;
 *  2. an `order.paid` audit entry for each order step 1 paid (guarded by `changes()`);
 *  3. one `payments.confirmed` entry with that count and the follow-ups of step 0, on the import's first
 *     confirm only;
 *  4. the same applicable entries get applied_at and settled (for an order paid by hand too: the order then
 *     shows the booking, and a re-import says already_imported). The partial unique index on entry_key
 *     backs this up: one booking can be applied once;
 *  5. the import's confirmed_at, set once.
 *
 * Step 0 sets aside only entries no later step applies, so every step tests the same rows; step 1 runs
 * before step 4 for the same reason: "applied by this batch" never has to be recognised afterwards.
 * Confirming again answers marked_paid 0, not an error: a double click or a retried request must not
 * look like a failure, and the count says truthfully that nothing more was paid.
 */
export async function confirmImport(ctx: RequestCtx, importId: number): Promise<ConfirmResult> {
  const actor = requireManagement(ctx);
  const [existing] = await ctx.db.select().from(paymentImports).where(eq(paymentImports.id, importId)).limit(1);
  if (!existing) throw new AppError('IMPORT_NOT_FOUND', IMPORT_NOT_FOUND);
  const now = ctx.clock.now().toISOString();
  const [followUps, paid] = await ctx.db.batch([
    ctx.db
      .update(bankEntries)
      .set({ followUpAt: now })
      .where(
        and(
          eq(bankEntries.importId, importId),
          sql`${bankEntries.status} IN ('matched', 'amount_mismatch', 'unmatched') AND ${bankEntries.appliedAt} IS NULL AND ${bankEntries.followUpAt} IS NULL`,
          sql`NOT (${applicable('bank_entries', importId)} AND EXISTS (SELECT 1 FROM orders AS o WHERE o.id = bank_entries.order_id AND o.cancelled = 0))`,
          sql`NOT EXISTS (SELECT 1 FROM bank_entries AS other WHERE other.club_id = bank_entries.club_id AND other.entry_key = bank_entries.entry_key AND (other.applied_at IS NOT NULL OR other.follow_up_at IS NOT NULL))`,
        ),
      )
      .returning({ id: bankEntries.id }),
    ctx.db
      .update(orders)
      .set({
        paid: true,
        paidAt: sql`(SELECT e.booked_at FROM bank_entries AS e WHERE ${applicable('e', importId)} AND e.order_id = ${orders.id} ORDER BY e.id LIMIT 1)`,
        paymentMethod: 'bank',
        updatedAt: now,
      })
      .where(
        and(
          eq(orders.paid, false),
          eq(orders.cancelled, false),
          sql`${orders.id} IN (SELECT e.order_id FROM bank_entries AS e WHERE ${applicable('e', importId)})`,
        ),
      )
      .returning({ id: orders.id }),
    ctx.db.insert(auditLog).select(sql`
      SELECT ${ctx.db.clubId}, NULL, ${now}, ${actor.id}, ${actor.username}, 'order.paid', 'order:' || o.id || ' (' || o.reference || ')',
        json_object('paid', json('[false,true]'), 'paid_at', e.booked_at, 'bank_entry', e.entry_ref, 'import_id', e.import_id), ${ctx.ip}
      FROM bank_entries AS e JOIN orders AS o ON o.id = e.order_id
      WHERE ${applicable('e', importId)} AND o.paid = 1 AND o.updated_at = ${now} AND o.paid_at = e.booked_at AND changes() > 0
      ORDER BY e.id`),
    // changes() is now the number of order.paid entries just written: the orders this batch paid. Step 0's
    // follow-ups carry this batch's moment, and only the first confirm writes this entry.
    ctx.db.insert(auditLog).select(sql`
      SELECT ${ctx.db.clubId}, NULL, ${now}, ${actor.id}, ${actor.username}, 'payments.confirmed', ${`import:${importId} (${existing.filename})`},
        json_object('import_id', ${importId}, 'marked_paid', changes(),
          'follow_ups', (SELECT count(*) FROM bank_entries WHERE import_id = ${importId} AND follow_up_at = ${now})), ${ctx.ip}
      WHERE NOT EXISTS (SELECT 1 FROM payment_imports WHERE id = ${importId} AND confirmed_at IS NOT NULL)`),
    ctx.db
      .update(bankEntries)
      .set({ appliedAt: now, settled: true })
      .where(and(applicable('bank_entries', importId), sql`EXISTS (SELECT 1 FROM orders AS o WHERE o.id = bank_entries.order_id AND o.cancelled = 0)`)),
    ctx.db
      .update(paymentImports)
      .set({ confirmedAt: now })
      .where(and(eq(paymentImports.id, importId), sql`${paymentImports.confirmedAt} IS NULL`)),
  ]);
  return { success: true, marked_paid: paid.length, follow_ups: followUps.length };
}

export interface ImportSummary {
  id: number;
  filename: string;
  created_at: string;
  created_by: string | null;
  confirmed_at: string | null;
  /** The statements' own ids as the file gives them, joined by ', '; null when it has none. */
  statement_id: string | null;
  /** The period the statement covers (YYYY-MM-DD); null when the file does not say. */
  period_from: string | null;
  period_to: string | null;
  entries: number;
  matched: number;
  amount_mismatch: number;
  unmatched: number;
  already_imported: number;
  /** Credits the preview left out (another currency, no readable amount or date). */
  skipped: number;
  /** Entries booked on an order: paid or linked when confirmed, or booked later from a follow-up. */
  applied: number;
  /** Entries confirming left as follow-ups, and how many of them are still open. */
  follow_ups: number;
  open_follow_ups: number;
}

function summarySelect(ctx: RequestCtx) {
  const count = (status: EntryStatus) => sql<number>`coalesce(sum(${bankEntries.status} = ${status}), 0)`;
  return ctx.db
    .select({
      id: paymentImports.id,
      filename: paymentImports.filename,
      created_at: paymentImports.createdAt,
      created_by: users.username,
      confirmed_at: paymentImports.confirmedAt,
      statement_id: paymentImports.statementId,
      period_from: paymentImports.periodFrom,
      period_to: paymentImports.periodTo,
      entries: sql<number>`count(${bankEntries.id})`,
      matched: count('matched'),
      amount_mismatch: count('amount_mismatch'),
      unmatched: count('unmatched'),
      already_imported: count('already_imported'),
      skipped: sql<number>`json_array_length(${paymentImports.skipped})`,
      applied: sql<number>`count(${bankEntries.appliedAt})`,
      follow_ups: sql<number>`count(${bankEntries.followUpAt})`,
      open_follow_ups: sql<number>`coalesce(sum(${bankEntries.followUpAt} IS NOT NULL AND ${bankEntries.resolution} IS NULL), 0)`,
    })
    .from(paymentImports)
    .leftJoin(bankEntries, eq(bankEntries.importId, paymentImports.id))
    .leftJoin(users, eq(users.id, paymentImports.createdBy))
    .groupBy(paymentImports.id);
}

const IMPORTS_SHOWN = 50;

/** GET /api/payments/imports (tRPC payments.imports): the recent imports, newest first, with their counts. */
export async function listImports(ctx: RequestCtx): Promise<{ imports: ImportSummary[] }> {
  requireManagement(ctx);
  const rows = await summarySelect(ctx).orderBy(desc(paymentImports.id)).limit(IMPORTS_SHOWN);
  return { imports: rows.map((row) => ({ ...row, created_by: row.created_by ?? null })) };
}

/**
 * What became of a line of an import (docs/decisions/057):
 * - `paid`: processing booked it on its order (paid it, or linked it to an order marked paid by hand);
 * - `open`: a follow-up still to be resolved; `part_payment`, `full_payment`, `dismissed`: how it was resolved;
 * - `already_imported`: an earlier import had booked it already;
 * - `elsewhere`: processed, but its booking is handled in another import of the same statement;
 * - `not_processed`: the import was read in but never processed ('Verwerken').
 */
export type EntryOutcome = 'paid' | 'open' | 'part_payment' | 'full_payment' | 'dismissed' | 'already_imported' | 'elsewhere' | 'not_processed';

export interface StoredEntryView extends Omit<EntryView, 'follow_up'> {
  id: number;
  /** When it was booked on its order; null while it is a preview or was not booked. */
  applied_at: string | null;
  outcome: EntryOutcome;
  /** The booking paid its order in full (a part-payment only when it completed the total). */
  settled: boolean;
  /** When and by whom a follow-up was resolved, and the reason it was dismissed. */
  resolved_at: string | null;
  resolved_by: string | null;
  reason: string | null;
}

interface StoredEntryRow extends BankLineRow {
  id: number;
  status: EntryStatus;
  orderId: number | null;
  reference: string | null;
  appliedAt: string | null;
  settled: boolean;
  followUpAt: string | null;
  resolution: 'part_payment' | 'full_payment' | 'dismissed' | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
  resolutionNote: string | null;
}

function outcomeOf(row: StoredEntryRow, confirmed: boolean): EntryOutcome {
  if (row.resolution !== null) return row.resolution;
  if (row.followUpAt !== null) return 'open';
  if (row.appliedAt !== null) return 'paid';
  if (row.status === 'already_imported') return 'already_imported';
  return confirmed ? 'elsewhere' : 'not_processed';
}

function entryView(row: StoredEntryRow, confirmed: boolean): StoredEntryView {
  return {
    id: row.id,
    ...bankLineView(row),
    status: row.status,
    ...(row.orderId !== null ? { order_id: row.orderId } : {}),
    ...(row.reference !== null ? { reference: row.reference } : {}),
    applied_at: row.appliedAt,
    outcome: outcomeOf(row, confirmed),
    settled: row.settled,
    resolved_at: row.resolvedAt,
    resolved_by: row.resolvedBy,
    reason: row.resolutionNote,
  };
}

const storedEntryColumns = {
  id: bankEntries.id,
  ...bankLineColumns,
  status: bankEntries.status,
  orderId: bankEntries.orderId,
  reference: orders.reference,
  appliedAt: bankEntries.appliedAt,
  settled: bankEntries.settled,
  followUpAt: bankEntries.followUpAt,
  resolution: bankEntries.resolution,
  resolvedAt: bankEntries.resolvedAt,
  resolvedBy: users.username,
  resolutionNote: bankEntries.resolutionNote,
  importId: bankEntries.importId,
};

/** The credits an import left out, as stored with it; a damaged text gives none rather than a failure. */
function skippedOf(text: string): SkippedView[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? (parsed as SkippedView[]) : [];
  } catch {
    return [];
  }
}

/**
 * GET /api/payments/imports?id= (tRPC payments.entries): one import with its lines as the preview showed them,
 * what became of each, and the credits it left out.
 */
export async function importEntries(ctx: RequestCtx, importId: number): Promise<{ import: ImportSummary; entries: StoredEntryView[]; skipped: SkippedView[] }> {
  requireManagement(ctx);
  const [summary] = await summarySelect(ctx).where(eq(paymentImports.id, importId));
  if (!summary) throw new AppError('IMPORT_NOT_FOUND', IMPORT_NOT_FOUND);
  const [stored] = await ctx.db.select({ skipped: paymentImports.skipped }).from(paymentImports).where(eq(paymentImports.id, importId));
  const rows = await ctx.db
    .select(storedEntryColumns)
    .from(bankEntries)
    .leftJoin(orders, eq(orders.id, bankEntries.orderId))
    .leftJoin(users, eq(users.id, bankEntries.resolvedBy))
    .where(eq(bankEntries.importId, importId))
    .orderBy(bankEntries.id);
  const confirmed = summary.confirmed_at !== null;
  return {
    import: { ...summary, created_by: summary.created_by ?? null },
    entries: rows.map((row) => entryView(row, confirmed)),
    skipped: skippedOf(stored?.skipped ?? '[]'),
  };
}

export interface OrderPaymentView extends BankLineView {
  import_id: number;
  applied_at: string;
}

/** The bank booking that paid an order (or was linked to it when it had been marked paid by hand); null when none. */
export async function paymentForOrder(ctx: RequestCtx, orderId: number): Promise<{ payment: OrderPaymentView | null }> {
  requireManagement(ctx);
  const [order] = await ctx.db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) throw new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND);
  const [row] = await ctx.db
    .select(storedEntryColumns)
    .from(bankEntries)
    .leftJoin(orders, eq(orders.id, bankEntries.orderId))
    .leftJoin(users, eq(users.id, bankEntries.resolvedBy))
    .where(and(eq(bankEntries.orderId, orderId), isNotNull(bankEntries.appliedAt)))
    .orderBy(desc(bankEntries.appliedAt))
    .limit(1);
  if (!row) return { payment: null };
  return {
    payment: {
      ...bankLineView(row),
      import_id: row.importId,
      applied_at: row.appliedAt!,
    },
  };
}
