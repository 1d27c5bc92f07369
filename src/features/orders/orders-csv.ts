import { and, desc, eq, sql } from 'drizzle-orm';
import { formatDateShort } from '../../core/nl-format';
import type { RequestCtx } from '../../context';
import { orders, tablers } from '../../db/schema';
import { writeAudit } from '../audit/audit';
import { requireManagement } from '../auth/permissions';
import { type OrderPricing, orderPricing } from './order-pricing-source';
import { orderColumns, orderListFilter, type OrderFilters, type OrderView } from './orders.service';

/**
 * Orders as CSV for packing and delivery lists (docs/decisions/029), made for Dutch Excel: UTF-8 with a
 * byte-order mark (else Excel reads it as Windows-1252 and mangles accents), ';' between fields (Dutch
 * Excel's list separator, as ',' is the decimal comma), CRLF line ends, and RFC 4180 quoting.
 */

export const CSV_COLUMNS = [
  'Bestelnummer',
  'Tabler',
  'Naam',
  'Email',
  'Telefoon',
  'Adres',
  'Postcode',
  'Plaats',
  'Aantal',
  'Opmerkingen',
  'Betaald',
  'Factuur verstuurd',
  'Factuurnummer',
  'Besteld op',
  // docs/decisions/056: after the columns as they were, so sheets built on them keep working.
  'Bedrag excl. btw',
  'Bedrag incl. btw',
  'Betaald op',
  'Gecrediteerd',
  'Bezorgd',
  // docs/decisions/057 (amendment): what came in, so the column's sum is the totals' amount received.
  'Betaald bedrag',
] as const;

const BOM = '\uFEFF';
const SEPARATOR = ';';
const LINE_END = '\r\n';

/**
 * One field: quoted (with quotes doubled) when it holds a quote, the separator, a comma or a line
 * break. A text a spreadsheet would run as a formula (starting with = + - @, tab or CR; the visitor
 * typed it on the public form) gets a leading apostrophe, except a plain phone number like
 * '+31 6 1234 5678'.
 */
export function csvField(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^\+[\d ()-]+$/.test(text)) text = `'${text}`;
  return /[";,\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const yesNo = (flag: boolean) => (flag ? 'Ja' : 'Nee');

/** Cents as Dutch Excel reads a number: a decimal comma and no thousands separator ('1234,50'). */
export function csvMoney(cents: number): string {
  return `${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}

/** What a CSV line shows of an order. */
export type CsvOrder = Pick<
  OrderView,
  | 'reference'
  | 'tabler_name'
  | 'name'
  | 'email'
  | 'phone'
  | 'address'
  | 'postal_code'
  | 'city'
  | 'amount'
  | 'notes'
  | 'paid'
  | 'invoice_sent'
  | 'invoice_number'
  | 'created_at'
  | 'paid_at'
  | 'cancelled'
  | 'delivered'
> & {
  /** What the issued invoice billed excl. and incl. VAT (null before an invoice, or from before they were kept). */
  invoice_net_cents: number | null;
  invoice_total_cents: number | null;
  /** The part-payments booked on the order (orders.paid_cents). */
  paid_cents: number;
};

/**
 * An order's amounts as GET /orders/totals counts them (invoices/totals.service.ts): what its invoice billed,
 * else today's price; a credited order counts 0, as its credit note cancels the invoice, so a column's sum
 * in a spreadsheet is the totals' revenue (docs/decisions/056).
 */
function csvAmounts(order: CsvOrder, pricing: OrderPricing): { netCents: number; totalCents: number } {
  if (order.cancelled) return { netCents: 0, totalCents: 0 };
  const { invoice_net_cents: net, invoice_total_cents: total } = order;
  if (net !== null && total !== null) return { netCents: net, totalCents: total };
  const today = pricing(order.amount);
  return { netCents: net ?? today.netCents, totalCents: total ?? today.totalCents };
}

/**
 * What an order has been paid, as GET /orders/totals counts it into what came in: its total once paid in
 * full (more when part-payments overshot it), else its part-payments; a credited order 0, as it is left
 * out of the totals (docs/decisions/057).
 */
function csvPaidCents(order: CsvOrder, totalCents: number): number {
  if (order.cancelled) return 0;
  return order.paid ? Math.max(totalCents, order.paid_cents) : order.paid_cents;
}

/** The fields of an order's line, its dates already written the Dutch way. */
function orderCsvRow(order: CsvOrder, dates: { ordered: string; paid: string }, pricing: OrderPricing): (string | number)[] {
  const amounts = csvAmounts(order, pricing);
  return [
    order.reference,
    // docs/product.md §2: an order whose tabler is gone shows 'Onbekend'.
    order.tabler_name ?? 'Onbekend',
    order.name,
    order.email,
    order.phone,
    order.address,
    order.postal_code,
    order.city,
    order.amount,
    order.notes ?? '',
    yesNo(order.paid),
    yesNo(order.invoice_sent),
    order.invoice_number ?? '',
    dates.ordered,
    csvMoney(amounts.netCents),
    csvMoney(amounts.totalCents),
    dates.paid,
    yesNo(order.cancelled),
    yesNo(order.delivered),
    csvMoney(csvPaidCents(order, amounts.totalCents)),
  ];
}

/** The file's start: the byte-order mark and the column names. */
export const CSV_HEADER = BOM + CSV_COLUMNS.map(csvField).join(SEPARATOR) + LINE_END;

/**
 * Writes orders' lines, each with its line end (the last line of the file ends in CRLF too), the amounts of
 * orders not yet invoiced at `pricing`. A Dutch date is worked out once per hour of moments (formatting it
 * was most of an export's time): within one UTC hour the date in Amsterdam cannot change, its offset from
 * UTC being whole hours.
 */
export function csvLineWriter(pricing: OrderPricing): (order: CsvOrder) => string {
  const datesByHour = new Map<string, string>();
  const dutchDay = (moment: string) => {
    const hour = moment.slice(0, 13);
    let date = datesByHour.get(hour);
    if (date === undefined) {
      date = formatDateShort(new Date(moment));
      datesByHour.set(hour, date);
    }
    return date;
  };
  return (order) => {
    const dates = { ordered: dutchDay(order.created_at), paid: order.paid && order.paid_at ? dutchDay(order.paid_at) : '' };
    return orderCsvRow(order, dates, pricing).map(csvField).join(SEPARATOR) + LINE_END;
  };
}

/** 'bestellingen-2026-11-22.csv' (the date in Dutch time). */
export function csvFileName(now: Date): string {
  const [day, month, year] = formatDateShort(now).split('-');
  return `bestellingen-${year}-${month!.padStart(2, '0')}-${day!.padStart(2, '0')}.csv`;
}

/** Orders read per query while the file streams out: a few hundred kB of text each. */
export const EXPORT_CHUNK_ROWS = 1000;

/** The columns the CSV prints, and the id its cursor needs: a part of GET /orders' columns. */
const CSV_FIELDS = [
  'id',
  'reference',
  'tabler_name',
  'name',
  'email',
  'phone',
  'address',
  'postal_code',
  'city',
  'amount',
  'notes',
  'paid',
  'invoice_sent',
  'invoice_number',
  'created_at',
  'paid_at',
  'cancelled',
  'delivered',
] as const;
const csvColumns = {
  ...(Object.fromEntries(CSV_FIELDS.map((field) => [field, orderColumns[field]])) as Pick<typeof orderColumns, (typeof CSV_FIELDS)[number]>),
  // The issued sums' net amount as the triggers keep it beside them (docs/decisions/075).
  invoice_net_cents: orders.invoiceNetCents,
  invoice_total_cents: orders.invoiceTotalCents,
  paid_cents: orders.paidCents,
};

/**
 * GET /orders/export.csv: the orders of GET /orders with the same filters and order (newest first), as
 * CSV; audited (docs/decisions/009). The file streams (docs/decisions/029), so 50,000 orders are never in memory at once and
 * the first bytes leave before the last order is read. The orders are read EXPORT_CHUNK_ROWS at a
 * time, each query going on after the last (created_at, id) sent (keyset paging on the created_at
 * index, so every query costs the same however far the export is), and only when the reader wants more.
 * The audit entry is written before the first byte, with the number of orders the filters match then.
 */
export async function exportOrdersCsv(ctx: RequestCtx, filters: OrderFilters): Promise<ReadableStream<Uint8Array>> {
  requireManagement(ctx);
  const { where, values } = await orderListFilter(ctx, filters);
  const [count] = await ctx.db.select({ n: sql<number>`count(*)` }).from(orders).where(where).all(values);
  await writeAudit(ctx, { action: 'orders.exported', details: { filters, rows: Number(count?.n ?? 0) } });

  const encoder = new TextEncoder();
  // Read before the first byte: a broken VAT split is a 400, as the totals answer it, not a file broken off.
  const line = csvLineWriter(await orderPricing(ctx)());
  let after: { createdAt: string; id: number } | null = null;
  const nextChunk = () =>
    ctx.db
      .select(csvColumns)
      .from(orders)
      .leftJoin(tablers, eq(tablers.id, orders.tablerId))
      // After the cursor in (created_at, id) order: the `<=` bound is the range SQLite starts the index scan at, the OR settles ties.
      .where(
        and(
          where,
          after ? sql`${orders.createdAt} <= ${after.createdAt} AND (${orders.createdAt} < ${after.createdAt} OR ${orders.id} < ${after.id})` : undefined,
        ),
      )
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(EXPORT_CHUNK_ROWS)
      .all(values);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_HEADER));
    },
    async pull(controller) {
      try {
        const rows = await nextChunk();
        if (rows.length > 0) controller.enqueue(encoder.encode(rows.map(line).join('')));
        const last = rows.at(-1);
        if (!last || rows.length < EXPORT_CHUNK_ROWS) controller.close();
        else after = { createdAt: last.created_at, id: last.id };
      } catch (error) {
        // The status line is long gone: the download breaks off, and the log says why.
        ctx.log.error('CSV export failed', { requestId: ctx.requestId, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        controller.error(error);
      }
    },
  });
}
