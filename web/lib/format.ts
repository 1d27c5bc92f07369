// Dates travel as ISO 8601 strings (DESIGN §3); the account screens are in English.
const dateTimeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** '3 Dec 2025, 14:05' in the browser's time zone; the raw text when it is not a date. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return "–";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : dateTimeFormat.format(date);
}
