import { and, eq, isNull, ne } from 'drizzle-orm';
import type { RequestCtx } from '../../context';
import { orders, tablers } from '../../db/schema';
import { fileNamePart } from '../tablers/file-name';
import { AppError } from '../../core/errors';
import { auditIfChanged } from '../audit/audit';
import { requireManagement } from '../auth/permissions';
import { ORDER_NOT_FOUND } from '../orders/orders.service';
import { getStringSetting } from '../settings/settings.service';
import { compareDeliveryAddresses } from './delivery-order';
import type { DeliveryStop } from './delivery-pdf';

export const TABLER_NOT_FOUND = 'Tabler niet gevonden.';
/** The name the dashboard gives the orders without a tabler (docs/product.md §2). */
export const NO_TABLER_NAME = 'Onbekend';

/**
 * docs/architecture.md §5 POST /orders/setDelivered?id=: a package handed over, or the mark taken back. Setting what is
 * already set changes nothing and writes no audit entry.
 */
export async function setOrderDelivered(ctx: RequestCtx, id: number, delivered: boolean): Promise<void> {
  requireManagement(ctx);
  const [existing] = await ctx.db
    .select({ id: orders.id, reference: orders.reference, delivered: orders.delivered })
    .from(orders)
    .where(eq(orders.id, id))
    .limit(1);
  if (!existing) throw new AppError('ORDER_NOT_FOUND', ORDER_NOT_FOUND);
  const now = ctx.clock.now().toISOString();
  await ctx.db.batch([
    ctx.db
      .update(orders)
      .set({ delivered, deliveredAt: delivered ? now : null, updatedAt: now })
      .where(and(eq(orders.id, id), ne(orders.delivered, delivered))),
    auditIfChanged(ctx, { action: 'order.delivered', target: `order:${id} (${existing.reference})`, details: { delivered: [existing.delivered, delivered] } }),
  ]);
}

export interface DeliveryList {
  tablerName: string;
  /** In the order to drive them (compareDeliveryAddresses). */
  stops: DeliveryStop[];
}

/**
 * What a tabler still has to deliver: their orders neither delivered nor cancelled (a credited order is
 * not handed over). `tablerId` null means the orders without a tabler.
 */
export async function deliveryList(ctx: RequestCtx, tablerId: number | null): Promise<DeliveryList> {
  requireManagement(ctx);
  let tablerName = NO_TABLER_NAME;
  if (tablerId !== null) {
    const [tabler] = await ctx.db.select({ name: tablers.name }).from(tablers).where(eq(tablers.id, tablerId)).limit(1);
    if (!tabler) throw new AppError('TABLER_NOT_FOUND', TABLER_NOT_FOUND);
    tablerName = tabler.name;
  }
  const stops = await ctx.db
    .select({
      name: orders.name,
      address: orders.address,
      postalCode: orders.postalCode,
      city: orders.city,
      phone: orders.phone,
      notes: orders.notes,
      amount: orders.amount,
    })
    .from(orders)
    .where(and(tablerId === null ? isNull(orders.tablerId) : eq(orders.tablerId, tablerId), eq(orders.delivered, false), eq(orders.cancelled, false)));
  // A house number sorts as a number (2 before 10), which SQL's text order cannot do; a tabler's list is short.
  return { tablerName, stops: stops.sort(compareDeliveryAddresses) };
}

/** pdf-lib is the largest part of the server; it is evaluated when the first document is made, not at every start. */
function loadDeliveryPdfRenderer() {
  return import('./delivery-pdf');
}

/** docs/architecture.md §5 GET /orders/delivery-list.pdf?tabler_id=: the list to print and tick off by pen. */
export async function deliveryListPdf(ctx: RequestCtx, tablerId: number | null): Promise<{ fileName: string; pdf: Uint8Array }> {
  const list = await deliveryList(ctx, tablerId);
  const { renderDeliveryListPdf } = await loadDeliveryPdfRenderer();
  const pdf = await renderDeliveryListPdf({
    clubName: await getStringSetting(ctx, 'club_name'),
    tablerName: list.tablerName,
    date: ctx.clock.now(),
    stops: list.stops,
  });
  return { fileName: `bezorglijst-${fileNamePart(list.tablerName)}.pdf`, pdf };
}
