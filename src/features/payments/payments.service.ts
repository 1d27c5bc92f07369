import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { auditLog, bankEntries, orders, paymentImports, users } from '../../db/schema';
import { AppError } from '../../core/errors';
import { chunked } from '../../core/record-id';
import { auditInsert } from '../audit/audit';
import { requireManagement } from '../auth/permissions';
import { parseCamt053, type SkippedEntry, type StatementEntry } from './camt053';
import { orderTotalCents, todaysPricing } from '../invoices/order-pricing';
import { ORDER_NOT_FOUND } from '../orders/orders.service';
import { findMentions, matchEntries, type CandidateOrder, type EntryStatus } from './payment-matching';

export const IMPORT_NOT_FOUND = 'Deze import van een bankafschrift bestaat niet.';

/** One credit of the preview (docs/architecture.md §5). Money in euros, rounded to cents. */
export interface EntryView {
  entry_ref: string;
  booked_at: string;
  amount: number;
  counterparty: string;
  remittance: string;
  status: EntryStatus;
  /** The order the remittance names (for already_imported: the order the booking paid before). */
  order_id?: number;
  /** That order's KP reference. */
  reference?: string;
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
}

const euros = (cents: number) => Math.round(cents) / 100;

// D1 binds at most 100 values per statement.
const LOOKUP_CHUNK = 90;
// Entries go in as one JSON text per statement (json_each), so a statement of any length takes a few
// statements instead of one per row; this keeps each text well under D1's limits.
const INSERT_CHUNK = 200;

type OrderRow = Pick<typeof orders.$inferSelect, 'id' | 'reference' | 'invoiceNumber' | 'cancelled' | 'paid' | 'amount' | 'invoiceTotalCents'>;

const orderColumns = {
  id: orders.id,
  reference: orders.reference,
  invoiceNumber: orders.invoiceNumber,
  cancelled: orders.cancelled,
  paid: orders.paid,
  amount: orders.amount,
  invoiceTotalCents: orders.invoiceTotalCents,
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

/** entry_key → order of the bank entries that paid an order before (confirmed in an earlier import). */
async function appliedKeysOf(ctx: RequestCtx, keys: string[]): Promise<Map<string, number | null>> {
  const applied = new Map<string, number | null>();
  for (const chunk of chunked(keys, LOOKUP_CHUNK)) {
    const rows = await ctx.db
      .select({ entryKey: bankEntries.entryKey, orderId: bankEntries.orderId })
      .from(bankEntries)
      .where(and(isNotNull(bankEntries.appliedAt), inArray(bankEntries.entryKey, chunk)));
    for (const row of rows) applied.set(row.entryKey, row.orderId);
  }
  return applied;
}

/** The orders among `ids` that a bank booking has paid. */
async function paidByBank(ctx: RequestCtx, ids: number[]): Promise<Set<number>> {
  const paid = new Set<number>();
  for (const chunk of chunked(ids, LOOKUP_CHUNK)) {
    const rows = await ctx.db
      .selectDistinct({ orderId: bankEntries.orderId })
      .from(bankEntries)
      .where(and(isNotNull(bankEntries.appliedAt), inArray(bankEntries.orderId, chunk)));
    for (const row of rows) if (row.orderId !== null) paid.add(row.orderId);
  }
  return paid;
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

  const appliedKeys = await appliedKeysOf(
    ctx,
    entries.map((e) => e.entryKey),
  );
  const appliedOrderIds = [...new Set([...appliedKeys.values()].filter((id): id is number => id !== null))];
  const rows = await lookUpOrders(ctx, entries, appliedOrderIds);
  const byBank = await paidByBank(
    ctx,
    rows.map((r) => r.id),
  );
  const pricing = todaysPricing(ctx);
  const candidates: CandidateOrder[] = [];
  for (const row of rows) {
    candidates.push({ ...row, totalCents: await orderTotalCents(row, pricing), paidByBank: byBank.has(row.id) });
  }
  const matches = matchEntries(entries, {
    ordersByInvoiceNumber: new Map(candidates.filter((o) => o.invoiceNumber).map((o) => [o.invoiceNumber!, o])),
    ordersByReference: new Map(candidates.map((o) => [o.reference, o])),
    appliedKeys,
  });
  const referenceOf = new Map(candidates.map((o) => [o.id, o.reference]));

  const filename = cleanFilename(file.filename);
  const now = ctx.clock.now().toISOString();
  const [created] = await ctx.db.insert(paymentImports).values({ filename, createdBy: user.id, createdAt: now }).returning({ id: paymentImports.id });
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
        // In the table's column order; id NULL takes the next id, applied_at stays NULL (a preview).
        ctx.db.insert(bankEntries).select(sql`
          SELECT NULL, ${importId}, json_extract(value, '$.k'), json_extract(value, '$.r'), json_extract(value, '$.b'),
            json_extract(value, '$.a'), json_extract(value, '$.c'), json_extract(value, '$.m'), json_extract(value, '$.s'),
            json_extract(value, '$.o'), NULL
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
      return {
        entry_ref: entry.entryRef,
        booked_at: entry.bookedAt,
        amount: euros(entry.amountCents),
        counterparty: entry.counterparty,
        remittance: entry.remittance,
        status,
        ...(orderId !== null ? { order_id: orderId } : {}),
        ...(orderId !== null && referenceOf.has(orderId) ? { reference: referenceOf.get(orderId)! } : {}),
      };
    }),
    skipped: statement.skipped.map((s: SkippedEntry) => ({ entry_ref: s.entryRef, booked_at: s.bookedAt, reason: s.reason })),
  };
}

/**
 * An entry of this import that confirming may apply: matched, not applied, no bank entry with its key
 * applied (the same booking from another import of the statement) and no booking applied for its order
 * yet. `alias` names the bank_entries row being tested.
 */
function applicable(alias: string, importId: number) {
  const e = sql.raw(alias);
  return sql`${e}.import_id = ${importId} AND ${e}.status = 'matched' AND ${e}.applied_at IS NULL AND ${e}.order_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM bank_entries AS other WHERE other.entry_key = ${e}.entry_key AND other.applied_at IS NOT NULL)
    AND NOT EXISTS (SELECT 1 FROM bank_entries AS other WHERE other.order_id = ${e}.order_id AND other.applied_at IS NOT NULL)`;
}

/**
 * docs/architecture.md §5 POST /api/payments/confirm: the import's `matched` entries pay their orders, in ONE batch
 * (D1 has no interactive transactions; libSQL and D1 run a batch atomically and one at a time), written
 * so that whatever runs at the same time nothing is paid twice:
 *
 *  1. the orders of the applicable entries (see `applicable`) that are still unpaid and not credited
 *     become paid, with the booking date as paid_at. An order marked paid by hand keeps its paid date;
 *  2. an `order.paid` audit entry for each order step 1 paid (guarded by `changes()`);
 *  3. one `payments.confirmed` entry with that count, on the import's first confirm only;
 *  4. the same applicable entries get applied_at (for an order paid by hand too: the order then shows
 *     the booking, and a re-import says already_imported). The partial unique index on entry_key backs
 *     this up: one booking can be applied once;
 *  5. the import's confirmed_at, set once.
 *
 * Step 1 runs before step 4 so that both test the same rows: "applied by this batch" never has to be
 * recognised afterwards (by a timestamp that a second confirm in the same millisecond would share).
 * Confirming again answers marked_paid 0, not an error: a double click or a retried request must not
 * look like a failure, and the count says truthfully that nothing more was paid.
 */
export async function confirmImport(ctx: RequestCtx, importId: number): Promise<ConfirmResult> {
  const actor = requireManagement(ctx);
  const [existing] = await ctx.db.select().from(paymentImports).where(eq(paymentImports.id, importId)).limit(1);
  if (!existing) throw new AppError(404, IMPORT_NOT_FOUND);
  const now = ctx.clock.now().toISOString();
  const [paid] = await ctx.db.batch([
    ctx.db
      .update(orders)
      .set({
        paid: true,
        paidAt: sql`(SELECT e.booked_at FROM bank_entries AS e WHERE ${applicable('e', importId)} AND e.order_id = ${orders.id} ORDER BY e.id LIMIT 1)`,
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
      SELECT NULL, ${now}, ${actor.id}, ${actor.username}, 'order.paid', 'order:' || o.id || ' (' || o.reference || ')',
        json_object('paid', json('[false,true]'), 'paid_at', e.booked_at, 'bank_entry', e.entry_ref, 'import_id', e.import_id), ${ctx.ip}
      FROM bank_entries AS e JOIN orders AS o ON o.id = e.order_id
      WHERE ${applicable('e', importId)} AND o.paid = 1 AND o.updated_at = ${now} AND o.paid_at = e.booked_at AND changes() > 0
      ORDER BY e.id`),
    // changes() is now the number of order.paid entries just written: the orders this batch paid.
    ctx.db.insert(auditLog).select(sql`
      SELECT NULL, ${now}, ${actor.id}, ${actor.username}, 'payments.confirmed', ${`import:${importId} (${existing.filename})`},
        json_object('import_id', ${importId}, 'marked_paid', changes()), ${ctx.ip}
      WHERE NOT EXISTS (SELECT 1 FROM payment_imports WHERE id = ${importId} AND confirmed_at IS NOT NULL)`),
    ctx.db
      .update(bankEntries)
      .set({ appliedAt: now })
      .where(and(applicable('bank_entries', importId), sql`EXISTS (SELECT 1 FROM orders AS o WHERE o.id = bank_entries.order_id AND o.cancelled = 0)`)),
    ctx.db
      .update(paymentImports)
      .set({ confirmedAt: now })
      .where(and(eq(paymentImports.id, importId), sql`${paymentImports.confirmedAt} IS NULL`)),
  ]);
  return { success: true, marked_paid: paid.length };
}

export interface ImportSummary {
  id: number;
  filename: string;
  created_at: string;
  created_by: string | null;
  confirmed_at: string | null;
  entries: number;
  matched: number;
  amount_mismatch: number;
  unmatched: number;
  already_imported: number;
  /** Entries that paid (or were linked to) an order when confirmed. */
  applied: number;
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
      entries: sql<number>`count(${bankEntries.id})`,
      matched: count('matched'),
      amount_mismatch: count('amount_mismatch'),
      unmatched: count('unmatched'),
      already_imported: count('already_imported'),
      applied: sql<number>`count(${bankEntries.appliedAt})`,
    })
    .from(paymentImports)
    .leftJoin(bankEntries, eq(bankEntries.importId, paymentImports.id))
    .leftJoin(users, eq(users.id, paymentImports.createdBy))
    .groupBy(paymentImports.id);
}

/** The recent imports, newest first, with the count of each status (tRPC payments.imports). */
export async function listImports(ctx: RequestCtx): Promise<{ imports: ImportSummary[] }> {
  requireManagement(ctx);
  const rows = await summarySelect(ctx).orderBy(desc(paymentImports.id)).limit(50);
  return { imports: rows.map((row) => ({ ...row, created_by: row.created_by ?? null })) };
}

export interface StoredEntryView extends EntryView {
  id: number;
  /** When confirming applied it to its order; null while it is a preview or was not applied. */
  applied_at: string | null;
}

function entryView(row: {
  id: number;
  entryRef: string;
  bookedAt: string;
  amountCents: number;
  counterparty: string;
  remittance: string;
  status: EntryStatus;
  orderId: number | null;
  reference: string | null;
  appliedAt: string | null;
}): StoredEntryView {
  return {
    id: row.id,
    entry_ref: row.entryRef,
    booked_at: row.bookedAt,
    amount: euros(row.amountCents),
    counterparty: row.counterparty,
    remittance: row.remittance,
    status: row.status,
    ...(row.orderId !== null ? { order_id: row.orderId } : {}),
    ...(row.reference !== null ? { reference: row.reference } : {}),
    applied_at: row.appliedAt,
  };
}

const storedEntryColumns = {
  id: bankEntries.id,
  entryRef: bankEntries.entryRef,
  bookedAt: bankEntries.bookedAt,
  amountCents: bankEntries.amountCents,
  counterparty: bankEntries.counterparty,
  remittance: bankEntries.remittance,
  status: bankEntries.status,
  orderId: bankEntries.orderId,
  reference: orders.reference,
  appliedAt: bankEntries.appliedAt,
  importId: bankEntries.importId,
};

/** One import with its entries as the preview showed them, and which were applied (tRPC payments.entries). */
export async function importEntries(ctx: RequestCtx, importId: number): Promise<{ import: ImportSummary; entries: StoredEntryView[] }> {
  requireManagement(ctx);
  const [summary] = await summarySelect(ctx).where(eq(paymentImports.id, importId));
  if (!summary) throw new AppError(404, IMPORT_NOT_FOUND);
  const rows = await ctx.db
    .select(storedEntryColumns)
    .from(bankEntries)
    .leftJoin(orders, eq(orders.id, bankEntries.orderId))
    .where(eq(bankEntries.importId, importId))
    .orderBy(bankEntries.id);
  return { import: { ...summary, created_by: summary.created_by ?? null }, entries: rows.map(entryView) };
}

export interface OrderPaymentView {
  entry_ref: string;
  booked_at: string;
  amount: number;
  counterparty: string;
  remittance: string;
  import_id: number;
  applied_at: string;
}

/** The bank booking that paid an order (or was linked to it when it had been marked paid by hand); null when none. */
export async function paymentForOrder(ctx: RequestCtx, orderId: number): Promise<{ payment: OrderPaymentView | null }> {
  requireManagement(ctx);
  const [order] = await ctx.db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).limit(1);
  if (!order) throw new AppError(404, ORDER_NOT_FOUND);
  const [row] = await ctx.db
    .select(storedEntryColumns)
    .from(bankEntries)
    .leftJoin(orders, eq(orders.id, bankEntries.orderId))
    .where(and(eq(bankEntries.orderId, orderId), isNotNull(bankEntries.appliedAt)))
    .orderBy(desc(bankEntries.appliedAt))
    .limit(1);
  if (!row) return { payment: null };
  return {
    payment: {
      entry_ref: row.entryRef,
      booked_at: row.bookedAt,
      amount: euros(row.amountCents),
      counterparty: row.counterparty,
      remittance: row.remittance,
      import_id: row.importId,
      applied_at: row.appliedAt!,
    },
  };
}
