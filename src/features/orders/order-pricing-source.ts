import type { SettingReader } from '../settings/settings.service';

/** What an order of so many packages is billed, excl. and incl. VAT, in cents. */
export type OrderPricing = (amount: number) => { netCents: number; totalCents: number };
type PricingSource = (deps: SettingReader) => () => Promise<OrderPricing>;

let source: PricingSource | null = null;

/**
 * Orders not yet invoiced are priced as their invoice will be (docs/decisions/056): by the invoices'
 * todaysPricing, which app.ts hands in here. invoices/ imports orders/, so orders/ may not import it back
 * (src/import-cycles.test.ts), as mail/ learns of invoices through the hooks app.ts registers.
 */
export function priceOrdersWith(pricing: PricingSource): void {
  source = pricing;
}

/** Today's pricing, read lazily (invoices/order-pricing.ts todaysPricing). */
export function orderPricing(deps: SettingReader): () => Promise<OrderPricing> {
  if (!source) throw new Error('Orders have no pricing: createApp hands it in with priceOrdersWith');
  return source(deps);
}
