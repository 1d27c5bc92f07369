import { badRequest } from '../../http/errors';
import { computeInvoiceAmounts, INVALID_VAT_SPLIT, parseVatSplit } from '../invoices/invoice-amounts';
import { getIntegerSetting, getSetting, type SettingReader } from '../settings/settings.service';

/** What an order costs incl. VAT, for an order that has no issued invoice yet. */
export type OrderPricing = (amount: number) => number;

/**
 * Today's price and VAT split (read once, then computed per package count). Settings are read only on
 * the first use, so an import whose orders are all invoiced never trips over a broken `vat_split`.
 */
export function orderPricing(deps: SettingReader): () => Promise<OrderPricing> {
  let pricing: Promise<OrderPricing> | null = null;
  return () =>
    (pricing ??= (async () => {
      const split = parseVatSplit(await getSetting(deps, 'vat_split'));
      if (!split) throw badRequest(INVALID_VAT_SPLIT);
      // package_price is in whole euros (spec §9); money is cents from here on.
      const unitPriceCents = (await getIntegerSetting(deps, 'package_price')) * 100;
      return (amount: number) => computeInvoiceAmounts(amount, unitPriceCents, split).totalCents;
    })());
}

/**
 * The order's total incl. VAT in cents: what its issued invoice billed (fixed at the first send), else
 * what an invoice would bill today (orders invoiced before the total was kept, or not yet invoiced).
 */
export async function orderTotalCents(order: { amount: number; invoiceTotalCents: number | null }, pricing: () => Promise<OrderPricing>): Promise<number> {
  if (order.invoiceTotalCents !== null) return order.invoiceTotalCents;
  return (await pricing())(order.amount);
}

/** One order's total incl. VAT, for a caller that needs just one. */
export async function orderTotalInclVat(deps: SettingReader, order: { amount: number; invoiceTotalCents: number | null }): Promise<number> {
  return orderTotalCents(order, orderPricing(deps));
}
