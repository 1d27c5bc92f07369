import { AppError } from '../../core/errors';
import { getIntegerSetting, getSetting, type SettingReader } from '../settings/settings.service';
import { computeInvoiceAmounts, INVALID_VAT_SPLIT, type InvoiceAmounts, parseVatSplit } from './invoice-amounts';

/** What an order of so many packages would be billed today, excl. and incl. VAT, in cents. */
export type OrderPricing = (amount: number) => { netCents: number; totalCents: number };

/**
 * What an invoice of so many packages would bill today, in full (per part and rate): the price and VAT split read
 * once, on the first use, so work whose orders are all invoiced never trips over a broken `vat_split`.
 */
export function todaysAmounts(deps: SettingReader): () => Promise<(quantity: number) => InvoiceAmounts> {
  let amounts: Promise<(quantity: number) => InvoiceAmounts> | null = null;
  return () =>
    (amounts ??= (async () => {
      const split = parseVatSplit(await getSetting(deps, 'vat_split'));
      if (!split) throw new AppError('VAT_SPLIT_INVALID', INVALID_VAT_SPLIT);
      // package_price is in whole euros (docs/product.md §9); money is cents from here on.
      const unitPriceCents = (await getIntegerSetting(deps, 'package_price')) * 100;
      return (quantity: number) => computeInvoiceAmounts(quantity, unitPriceCents, split);
    })());
}

/**
 * Today's price excl. and incl. VAT, computed once per package count: the totals and the bank-statement matching
 * price every order not yet invoiced this way.
 */
export function todaysPricing(deps: SettingReader): () => Promise<OrderPricing> {
  const amounts = todaysAmounts(deps);
  let pricing: Promise<OrderPricing> | null = null;
  return () =>
    (pricing ??= (async () => {
      const billed = await amounts();
      const byAmount = new Map<number, { netCents: number; totalCents: number }>();
      return (amount: number) => {
        let sums = byAmount.get(amount);
        if (!sums) {
          const computed = billed(amount);
          sums = { netCents: computed.netCents, totalCents: computed.totalCents };
          byAmount.set(amount, sums);
        }
        return sums;
      };
    })());
}

/**
 * The order's total incl. VAT in cents: what its issued invoice billed (fixed at the first send), else
 * what an invoice would bill today (orders invoiced before the total was kept, or not yet invoiced).
 */
export async function orderTotalCents(order: { amount: number; invoiceTotalCents: number | null }, pricing: () => Promise<OrderPricing>): Promise<number> {
  if (order.invoiceTotalCents !== null) return order.invoiceTotalCents;
  return (await pricing())(order.amount).totalCents;
}
