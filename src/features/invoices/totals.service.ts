import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { RequestCtx } from '../../context';
import { euros } from '../../core/money';
import { bankEntries, orders, tablers } from '../../db/schema';
import { requireManagement } from '../auth/permissions';
import { todaysPricing } from './order-pricing';

/** docs/architecture.md §5 GET /orders/totals; `per_day` feeds the dashboard's charts. Money in euros, rounded to cents. */
export interface OrderTotals {
  orders: number;
  packages: number;
  revenue_excl: number;
  revenue_incl: number;
  /**
   * `orders`: paid in full. `amount_incl`: what came in, as each order's paid-so-far of docs/decisions/057
   * counts it: the total of an order paid in full (more when its part-payments overshot it), and the
   * part-payments booked on the others.
   */
  paid: { orders: number; amount_incl: number };
  /** `orders`: not paid in full (part-paid ones too). `amount_incl`: still open, their totals less their part-payments. */
  open: { orders: number; amount_incl: number };
  /** Of the open orders, those with part-payments booked, and what those brought in (counted in `paid.amount_incl`). */
  part_paid: { orders: number; amount_incl: number };
  invoices_sent: number;
  /**
   * Who sold what (the dashboard's leaderboard): per tabler, most packages first. `amount_incl` as the orders'
   * totals count it, `paid_amount_incl` as `paid.amount_incl` counts what came in; their sums are those two.
   */
  per_tabler: { tabler_id: number | null; tabler_name: string | null; orders: number; packages: number; amount_incl: number; paid_amount_incl: number }[];
  /**
   * Per calendar day (UTC date of the moment): orders and packages ordered, money invoiced and received (a
   * part-payment on its booking day, the rest of an order paid in full on its paid day).
   */
  per_day: { date: string; orders: number; packages: number; invoiced_incl: number; received_incl: number }[];
}

/**
 * The campaign's sums from SQL aggregates (docs/decisions/024): never every order in memory, whatever their
 * number. Issued invoices count with the sums they billed; orders not yet invoiced with today's price
 * and VAT split, computed once per package count (a group), so the totals are exactly the sum of what
 * each order's invoice says or would say. Credited (cancelled) orders are left out.
 *
 * Part-payments (docs/decisions/057) are read from the bank bookings that brought them in, each with its
 * order found by id: only those orders' rows are read, so the sums of all orders still come from the
 * narrow totals index, which has no paid_cents.
 */
export async function orderTotals(ctx: RequestCtx): Promise<OrderTotals> {
  requireManagement(ctx);
  const unissued = await todaysPricing(ctx)();
  const live = eq(orders.cancelled, false);
  const day = (column: SQLiteColumn) => sql<string>`substr(${column}, 1, 10)`;

  const [groups, orderedPerDay, invoicedPerDay, receivedPerDay, partPayments] = await Promise.all([
    // One pass for the sums and the leaderboard (docs/decisions/072, 075): per tabler and the columns that price an
    // order, in the totals index's order, so SQLite sums while it walks the index; the tabler's name is read once per
    // group.
    ctx.db
      .select({
        tablerId: orders.tablerId,
        tablerName: sql<string | null>`(${ctx.db.select({ name: tablers.name }).from(tablers).where(eq(tablers.id, orders.tablerId))})`,
        amount: orders.amount,
        paid: orders.paid,
        total: orders.invoiceTotalCents,
        net: orders.invoiceNetCents,
        n: sql<number>`count(*)`,
        sent: sql<number>`sum(${orders.invoiceSent})`,
      })
      .from(orders)
      .where(live)
      .groupBy(orders.tablerId, orders.amount, orders.paid, orders.invoiceTotalCents, orders.invoiceNetCents),
    ctx.db
      .select({ date: day(orders.createdAt), orders: sql<number>`count(*)`, packages: sql<number>`sum(${orders.amount})` })
      .from(orders)
      .where(live)
      .groupBy(day(orders.createdAt)),
    ctx.db
      .select({ date: day(orders.invoiceDate), amount: orders.amount, total: orders.invoiceTotalCents, n: sql<number>`count(*)` })
      .from(orders)
      .where(sql`${live} AND ${orders.invoiceDate} IS NOT NULL`)
      .groupBy(day(orders.invoiceDate), orders.amount, orders.invoiceTotalCents),
    ctx.db
      .select({ date: day(orders.paidAt), amount: orders.amount, total: orders.invoiceTotalCents, n: sql<number>`count(*)` })
      .from(orders)
      .where(sql`${live} AND ${orders.paid} = 1 AND ${orders.paidAt} IS NOT NULL`)
      .groupBy(day(orders.paidAt), orders.amount, orders.invoiceTotalCents),
    // Per part-paid order and booking day: what its part-payments brought in, with the order's own columns.
    ctx.db
      .select({
        orderId: orders.id,
        tablerId: orders.tablerId,
        amount: orders.amount,
        paid: orders.paid,
        total: orders.invoiceTotalCents,
        paidCents: orders.paidCents,
        paidDate: day(orders.paidAt),
        date: day(bankEntries.bookedAt),
        cents: sql<number>`sum(${bankEntries.amountCents})`,
      })
      .from(bankEntries)
      .innerJoin(orders, eq(orders.id, bankEntries.orderId))
      .where(and(eq(bankEntries.resolution, 'part_payment'), isNotNull(bankEntries.appliedAt), live))
      .groupBy(orders.id, day(bankEntries.bookedAt)),
  ]);

  const totals: OrderTotals = {
    orders: 0,
    packages: 0,
    revenue_excl: 0,
    revenue_incl: 0,
    paid: { orders: 0, amount_incl: 0 },
    open: { orders: 0, amount_incl: 0 },
    part_paid: { orders: 0, amount_incl: 0 },
    invoices_sent: 0,
    per_tabler: [],
    per_day: [],
  };
  let netCents = 0;
  let totalCents = 0;
  let paidCents = 0;
  let openCents = 0;
  const sellers = new Map<
    number | null,
    { tabler_id: number | null; tabler_name: string | null; orders: number; packages: number; cents: number; paidCents: number }
  >();
  const sellerOf = (id: number | null) => sellers.get(id)!;
  for (const g of groups) {
    const n = Number(g.n);
    const sums = unissued(g.amount);
    const groupNet = (g.net ?? sums.netCents) * n;
    const groupTotal = (g.total ?? sums.totalCents) * n;
    totals.orders += n;
    totals.packages += g.amount * n;
    totals.invoices_sent += Number(g.sent);
    netCents += groupNet;
    totalCents += groupTotal;
    if (g.paid) {
      totals.paid.orders += n;
      paidCents += groupTotal;
    } else {
      totals.open.orders += n;
      openCents += groupTotal;
    }
    let seller = sellers.get(g.tablerId);
    if (!seller) {
      seller = { tabler_id: g.tablerId, tabler_name: g.tablerName, orders: 0, packages: 0, cents: 0, paidCents: 0 };
      sellers.set(g.tablerId, seller);
    }
    seller.orders += n;
    seller.packages += g.amount * n;
    seller.cents += groupTotal;
    if (g.paid) seller.paidCents += groupTotal;
  }

  // The groups counted each order's whole total as paid or open; the part-paid orders move what came in.
  const partPaid = new Map<number, (typeof partPayments)[number]>();
  for (const row of partPayments) partPaid.set(row.orderId, row);
  let partPaidCents = 0;
  const paidDayCorrections: { date: string; cents: number }[] = [];
  for (const order of partPaid.values()) {
    const orderTotal = order.total ?? unissued(order.amount).totalCents;
    if (order.paid) {
      // Counted at its total; part-payments beyond it came in too (docs/decisions/057's paid-so-far).
      paidCents += Math.max(order.paidCents - orderTotal, 0);
      sellerOf(order.tablerId).paidCents += Math.max(order.paidCents - orderTotal, 0);
      // Its part-payments are counted on their own days: its paid day keeps only the rest.
      if (order.paidDate) paidDayCorrections.push({ date: order.paidDate, cents: -Math.min(order.paidCents, orderTotal) });
    } else {
      totals.part_paid.orders += 1;
      partPaidCents += order.paidCents;
      paidCents += order.paidCents;
      sellerOf(order.tablerId).paidCents += order.paidCents;
      openCents -= Math.min(order.paidCents, orderTotal);
    }
  }
  totals.revenue_excl = euros(netCents);
  totals.revenue_incl = euros(totalCents);
  totals.paid.amount_incl = euros(paidCents);
  totals.open.amount_incl = euros(openCents);
  totals.part_paid.amount_incl = euros(partPaidCents);
  totals.per_tabler = [...sellers.values()]
    .sort((a, b) => b.packages - a.packages || (a.tabler_name ?? '').localeCompare(b.tabler_name ?? '', 'nl', { sensitivity: 'base' }))
    .map(({ cents, paidCents: paid, ...seller }) => ({ ...seller, amount_incl: euros(cents), paid_amount_incl: euros(paid) }));

  const days = new Map<string, OrderTotals['per_day'][number]>();
  const dayOf = (date: string) => {
    let entry = days.get(date);
    if (!entry) {
      entry = { date, orders: 0, packages: 0, invoiced_incl: 0, received_incl: 0 };
      days.set(date, entry);
    }
    return entry;
  };
  for (const d of orderedPerDay) Object.assign(dayOf(d.date), { orders: Number(d.orders), packages: Number(d.packages) });
  for (const d of invoicedPerDay) dayOf(d.date).invoiced_incl += (d.total ?? unissued(d.amount).totalCents) * Number(d.n);
  for (const d of receivedPerDay) dayOf(d.date).received_incl += (d.total ?? unissued(d.amount).totalCents) * Number(d.n);
  for (const d of partPayments) dayOf(d.date).received_incl += Number(d.cents);
  for (const d of paidDayCorrections) dayOf(d.date).received_incl += d.cents;
  totals.per_day = [...days.values()]
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((d) => ({ ...d, invoiced_incl: euros(d.invoiced_incl), received_incl: euros(d.received_incl) }));
  return totals;
}
