/**
 * Dutch formatting for invoices, mails and exports (docs/product.md §9 'Dates for tablers and orders: nl-NL';
 * docs/architecture.md §3 'money as integer cents'). Money is formatted by hand rather than through Intl so the
 * output is the same on every runtime and ICU version, with a plain space after the euro sign.
 */
import { DUTCH_TIME } from './calendar';

/** 123456 → '€ 1.234,56'; -500 → '€ -5,00'. */
export function formatEuro(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new Error(`Money must be whole cents, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const euros = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `€ ${sign}${euros},${String(abs % 100).padStart(2, '0')}`;
}

/** A VAT rate as Dutch invoices write it: 21 → '21%', 9 → '9%', 5.5 → '5,5%'. */
export function formatPercent(rate: number): string {
  return `${String(rate).replace('.', ',')}%`;
}

/**
 * A date formatter is slow to make (it loads locale data) and fast to use: each is made once, on first use,
 * not at start-up, where the first request of a new Worker isolate would wait for it.
 */
function lazyFormatter(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let formatter: Intl.DateTimeFormat | null = null;
  return () => (formatter ??= new Intl.DateTimeFormat('nl-NL', { timeZone: DUTCH_TIME, ...options }));
}
const longDate = lazyFormatter({ day: 'numeric', month: 'long', year: 'numeric' });
const shortDate = lazyFormatter({ day: 'numeric', month: 'numeric', year: 'numeric' });

/** '22 november 2026' (the date in Dutch time). */
export function formatDateLong(date: Date): string {
  return longDate().format(date);
}

/** '22-11-2026' (the date in Dutch time), as nl-NL's toLocaleDateString writes it. */
export function formatDateShort(date: Date): string {
  const parts = shortDate().formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}-${part('month')}-${part('year')}`;
}
