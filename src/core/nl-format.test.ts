import { describe, expect, it } from 'vitest';
import { addDays } from './calendar';
import { formatDateLong, formatDateShort, formatEuro, formatPercent } from './nl-format';

describe('formatEuro', () => {
  it.each([
    [0, '€ 0,00'],
    [5, '€ 0,05'],
    [7500, '€ 75,00'],
    [27225, '€ 272,25'],
    [123456, '€ 1.234,56'],
    [123456789, '€ 1.234.567,89'],
    [-500, '€ -5,00'],
  ])('writes %i cents as %s', (cents, text) => {
    expect(formatEuro(cents)).toBe(text);
  });

  it('refuses money that is not whole cents', () => {
    expect(() => formatEuro(1.5)).toThrow();
  });
});

describe('Dutch dates (in Dutch time)', () => {
  it('writes the long and the short form', () => {
    const date = new Date('2026-11-22T10:00:00.000Z');
    expect(formatDateLong(date)).toBe('22 november 2026');
    expect(formatDateShort(date)).toBe('22-11-2026');
  });

  it('takes the Dutch calendar day, not the UTC one', () => {
    // 00:30 on 1 January in Amsterdam.
    expect(formatDateShort(new Date('2026-12-31T23:30:00.000Z'))).toBe('1-1-2027');
    expect(formatDateLong(new Date('2026-12-31T23:30:00.000Z'))).toBe('1 januari 2027');
  });

  it('adds days for a due date', () => {
    expect(formatDateLong(addDays(new Date('2026-11-22T10:00:00.000Z'), 14))).toBe('6 december 2026');
  });
});

describe('formatPercent', () => {
  it('writes rates the Dutch way', () => {
    expect(formatPercent(21)).toBe('21%');
    expect(formatPercent(5.5)).toBe('5,5%');
  });
});
