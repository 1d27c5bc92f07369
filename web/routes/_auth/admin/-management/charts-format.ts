// nl-NL figures for the Management dashboard (docs/product.md §9: Dutch, nl-NL), shared by the totals, the charts
// and their data tables, so a number reads the same in a stat, on an axis and in a tooltip. Kept free
// of the charting library: the totals import it without pulling the charts' chunk in.

const count = new Intl.NumberFormat("nl-NL");
const euro = new Intl.NumberFormat("nl-NL", { style: "currency", currency: "EUR" });
const euroWhole = new Intl.NumberFormat("nl-NL", { style: "currency", currency: "EUR", maximumFractionDigits: 0 });
const dayShort = new Intl.DateTimeFormat("nl-NL", { day: "numeric", month: "short", timeZone: "UTC" });
const dayLong = new Intl.DateTimeFormat("nl-NL", { weekday: "short", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** 50.000 */
export const formatCount = (value: number): string => count.format(value);

/** € 1.234,56 */
export const formatEuroNl = (value: number): string => euro.format(value);

/** € 1.235, for an axis where cents only crowd the labels. */
export const formatEuroWhole = (value: number): string => euroWhole.format(value);

/**
 * The day of a 'YYYY-MM-DD' key: '2 dec' short (axis), 'wo 2 december 2026' long (tooltip, table).
 * Read as UTC: the server groups by the UTC date, so the label must not shift a day in the browser.
 */
export function formatDay(key: string, style: "short" | "long" = "short"): string {
  const date = new Date(`${key}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return key;
  return (style === "short" ? dayShort : dayLong).format(date);
}

/** A share as a whole percentage, '0 %'–'100 %' (0 when there is nothing to share). */
export function percentOf(part: number, whole: number): number {
  if (!(whole > 0)) return 0;
  return Math.min(100, Math.max(0, Math.round((part / whole) * 100)));
}

const dateMedium = new Intl.DateTimeFormat("nl-NL", { dateStyle: "medium" });
const dateMediumUtc = new Intl.DateTimeFormat("nl-NL", { dateStyle: "medium", timeZone: "UTC" });

/**
 * A bank booking date, '2 dec 2026'. A bare 'YYYY-MM-DD' (CAMT.053 `BookgDt/Dt`) is a calendar day and
 * is shown as such (UTC, so it cannot shift a day); a moment is shown in the browser's time zone.
 */
export function formatBookingDate(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return dateMediumUtc.format(new Date(`${value}T00:00:00Z`));
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateMedium.format(date);
}
