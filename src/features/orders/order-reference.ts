/** The campaign year of a moment, in Dutch time (an order at 00:30 on 1 January belongs to the new year). */
export function campaignYear(date: Date): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Amsterdam', year: 'numeric' }).format(date));
}
