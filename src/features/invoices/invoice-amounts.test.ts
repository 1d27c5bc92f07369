import { describe, expect, it } from 'vitest';
import { DEFAULT_VAT_SPLIT } from '../settings/settings.defaults';
import { computeInvoiceAmounts, parseVatSplit } from './invoice-amounts';

describe('parseVatSplit (the vat_split setting of docs/architecture.md §3)', () => {
  it('reads the default: the whole package at 21 %', () => {
    expect(parseVatSplit(DEFAULT_VAT_SPLIT)).toEqual([{ label: 'Kerstpakket', share_percent: 100, vat_rate: 21 }]);
  });

  it('reads a food / non-food split and trims labels', () => {
    expect(parseVatSplit('[{"label":" Levensmiddelen ","share_percent":60,"vat_rate":9},{"label":"Non-food","share_percent":40,"vat_rate":21}]')).toEqual([
      { label: 'Levensmiddelen', share_percent: 60, vat_rate: 9 },
      { label: 'Non-food', share_percent: 40, vat_rate: 21 },
    ]);
  });

  it.each([
    ['not JSON', 'nope'],
    ['an empty list', '[]'],
    ['an object instead of a list', '{"label":"x","share_percent":100,"vat_rate":21}'],
    ['shares short of 100', '[{"label":"x","share_percent":50,"vat_rate":21}]'],
    ['shares over 100', '[{"label":"a","share_percent":60,"vat_rate":9},{"label":"b","share_percent":60,"vat_rate":21}]'],
    ['a missing label', '[{"share_percent":100,"vat_rate":21}]'],
    ['a rate as text', '[{"label":"x","share_percent":100,"vat_rate":"21"}]'],
    ['a negative rate', '[{"label":"x","share_percent":100,"vat_rate":-1}]'],
    ['a zero share', '[{"label":"a","share_percent":0,"vat_rate":9},{"label":"b","share_percent":100,"vat_rate":21}]'],
  ])('refuses %s', (_, raw) => {
    expect(parseVatSplit(raw)).toBeNull();
  });

  it('accepts thirds that add up to 100 within rounding', () => {
    const third = 100 / 3;
    expect(parseVatSplit(JSON.stringify([0, 1, 2].map((i) => ({ label: `p${i}`, share_percent: third, vat_rate: 21 }))))).toHaveLength(3);
  });
});

describe('computeInvoiceAmounts', () => {
  it('gives 3 × € 75,00 = € 225,00 excl., 21 % btw € 47,25, € 272,25 incl. with the default split', () => {
    const amounts = computeInvoiceAmounts(3, 7500, parseVatSplit(DEFAULT_VAT_SPLIT)!);
    expect(amounts).toMatchObject({
      quantity: 3,
      unitPriceCents: 7500,
      netCents: 22500,
      vat: [{ rate: 21, baseCents: 22500, vatCents: 4725 }],
      vatTotalCents: 4725,
      totalCents: 27225,
    });
  });

  it('shows both rates for a 50 % at 9 % and 50 % at 21 % split, rounding half away from zero', () => {
    const split = [
      { label: 'Levensmiddelen', share_percent: 50, vat_rate: 9 },
      { label: 'Non-food', share_percent: 50, vat_rate: 21 },
    ];
    const amounts = computeInvoiceAmounts(3, 7500, split);
    // 9 % of 112,50 = 10,125 → 10,13; 21 % of 112,50 = 23,625 → 23,63.
    expect(amounts.vat).toEqual([
      { rate: 9, baseCents: 11250, vatCents: 1013 },
      { rate: 21, baseCents: 11250, vatCents: 2363 },
    ]);
    expect(amounts.parts.map((p) => p.baseCents)).toEqual([11250, 11250]);
    expect(amounts.totalCents).toBe(22500 + 1013 + 2363);
  });

  it('lets the bases add up to the amount excl. VAT exactly when a share does not divide it', () => {
    const third = 100 / 3;
    const split = [
      { label: 'a', share_percent: third, vat_rate: 9 },
      { label: 'b', share_percent: third, vat_rate: 21 },
      { label: 'c', share_percent: third, vat_rate: 21 },
    ];
    const amounts = computeInvoiceAmounts(1, 7501, split);
    expect(amounts.parts.reduce((sum, p) => sum + p.baseCents, 0)).toBe(7501);
    // Parts with the same rate share one VAT line, computed on their joint base.
    expect(amounts.vat.map((v) => v.rate)).toEqual([9, 21]);
    expect(amounts.vat.reduce((sum, v) => sum + v.baseCents, 0)).toBe(7501);
  });

  it('handles a 0 % part and a rate with a decimal', () => {
    const amounts = computeInvoiceAmounts(2, 1000, [
      { label: 'vrijgesteld', share_percent: 50, vat_rate: 0 },
      { label: 'laag', share_percent: 50, vat_rate: 5.5 },
    ]);
    expect(amounts.vat).toEqual([
      { rate: 0, baseCents: 1000, vatCents: 0 },
      { rate: 5.5, baseCents: 1000, vatCents: 55 },
    ]);
  });

  it('refuses a quantity below 1 and a price that is not whole cents', () => {
    const split = parseVatSplit(DEFAULT_VAT_SPLIT)!;
    expect(() => computeInvoiceAmounts(0, 7500, split)).toThrow();
    expect(() => computeInvoiceAmounts(1, 75.5, split)).toThrow();
  });
});
