/** docs/architecture.md §3: money is integer cents inside and euros rounded to cents in JSON (27225 → 272.25). */
export function euros(cents: number): number {
  return Math.round(cents) / 100;
}
