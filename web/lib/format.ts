import type { Locale } from "#src/core/locales";

// Dates travel as ISO 8601 strings (docs/architecture.md §3); the back-office shows them in the user's language
// (docs/decisions/011): '3 Dec 2025, 14:05' or '3 dec 2025, 14:05'. Made once each: a formatter is slow to make.
const dateTimeFormats: Record<Locale, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" }),
  nl: new Intl.DateTimeFormat("nl-NL", { dateStyle: "medium", timeStyle: "short" }),
};

/** The date and time in the browser's time zone; the raw text when it is not a date. */
export function formatDateTime(value: string | null | undefined, locale: Locale = "en"): string {
  if (!value) return "–";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTimeFormats[locale].format(date);
}
