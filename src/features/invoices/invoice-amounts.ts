/**
 * The sums of an invoice (docs/architecture.md §3 VAT): the package price excl. VAT is split over VAT rates by the
 * `vat_split` setting (a Christmas package mixes 9 % food and 21 % non-food), and the invoice shows the
 * base and the VAT per rate. Everything is integer cents.
 */

export interface VatPart {
  label: string;
  share_percent: number;
  vat_rate: number;
}

export const INVALID_VAT_SPLIT =
  'De btw-verdeling (instelling vat_split) is ongeldig: geef een lijst van {label, share_percent, vat_rate} waarvan de aandelen samen 100 zijn.';

/** Reads the `vat_split` setting; null when it is not a usable split (the caller names the problem). */
export function parseVatSplit(raw: unknown): VatPart[] | null {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > 20) return null;
  const parts: VatPart[] = [];
  for (const item of value) {
    if (typeof item !== 'object' || item === null) return null;
    const { label, share_percent, vat_rate } = item as Record<string, unknown>;
    if (typeof label !== 'string' || label.trim() === '' || label.length > 100) return null;
    if (typeof share_percent !== 'number' || !Number.isFinite(share_percent) || share_percent <= 0 || share_percent > 100) return null;
    if (typeof vat_rate !== 'number' || !Number.isFinite(vat_rate) || vat_rate < 0 || vat_rate > 100) return null;
    parts.push({ label: label.trim(), share_percent, vat_rate });
  }
  const total = parts.reduce((sum, p) => sum + p.share_percent, 0);
  if (Math.abs(total - 100) > 1e-6) return null;
  return parts;
}

export interface InvoicePartLine extends VatPart {
  /** This part's share of the amount excl. VAT. */
  baseCents: number;
}

export interface VatLine {
  rate: number;
  baseCents: number;
  vatCents: number;
}

export interface InvoiceAmounts {
  quantity: number;
  unitPriceCents: number;
  /** quantity × unit price, excl. VAT. */
  netCents: number;
  parts: InvoicePartLine[];
  /** One line per VAT rate, lowest rate first. */
  vat: VatLine[];
  vatTotalCents: number;
  totalCents: number;
}

/** Half away from zero, on integers only: base × rate% with the rate in hundredths of a percent. */
function vatOf(baseCents: number, rate: number): number {
  const hundredths = Math.round(rate * 100);
  return Math.floor((baseCents * hundredths + 5000) / 10000);
}

/**
 * quantity × unit price, split over the parts (the last part takes the rounding rest so the bases add
 * up to the net amount exactly), VAT per rate computed once on that rate's whole base.
 */
export function computeInvoiceAmounts(quantity: number, unitPriceCents: number, split: VatPart[]): InvoiceAmounts {
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw new Error('Quantity must be a positive integer');
  if (!Number.isSafeInteger(unitPriceCents) || unitPriceCents < 0) throw new Error('Price must be whole cents');
  const netCents = quantity * unitPriceCents;
  let assigned = 0;
  const parts = split.map((part, i) => {
    const baseCents = i === split.length - 1 ? netCents - assigned : Math.round((netCents * part.share_percent) / 100);
    assigned += baseCents;
    return { ...part, baseCents };
  });
  const byRate = new Map<number, number>();
  for (const part of parts) byRate.set(part.vat_rate, (byRate.get(part.vat_rate) ?? 0) + part.baseCents);
  const vat = [...byRate.entries()].sort(([a], [b]) => a - b).map(([rate, baseCents]) => ({ rate, baseCents, vatCents: vatOf(baseCents, rate) }));
  const vatTotalCents = vat.reduce((sum, line) => sum + line.vatCents, 0);
  return { quantity, unitPriceCents, netCents, parts, vat, vatTotalCents, totalCents: netCents + vatTotalCents };
}

/**
 * The amounts of a credit note for an invoice: every sum negated (quantity, bases, VAT, totals), the unit
 * price kept positive, so '-3 × € 75,00 = € -225,00' reads as the invoice taken back line by line.
 * `0 - x` rather than `-x`, so a zero stays 0 and never becomes -0.
 */
export function negateAmounts(amounts: InvoiceAmounts): InvoiceAmounts {
  return {
    quantity: 0 - amounts.quantity,
    unitPriceCents: amounts.unitPriceCents,
    netCents: 0 - amounts.netCents,
    parts: amounts.parts.map((part) => ({ ...part, baseCents: 0 - part.baseCents })),
    vat: amounts.vat.map((line) => ({ rate: line.rate, baseCents: 0 - line.baseCents, vatCents: 0 - line.vatCents })),
    vatTotalCents: 0 - amounts.vatTotalCents,
    totalCents: 0 - amounts.totalCents,
  };
}
