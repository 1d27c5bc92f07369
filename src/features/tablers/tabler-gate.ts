/**
 * docs/product.md §5 order password step: the 'password' is a tabler's name. Compared case-insensitively with all
 * whitespace removed, and either may contain the other. An exact match wins; otherwise exactly one
 * tabler must match, so the gate is never ambiguous.
 */
export const GATE_MESSAGES = {
  empty: 'Voer het wachtwoord in.',
  tooShort: 'Wachtwoord moet minimaal 3 karakters bevatten.',
  noLetters: 'Wachtwoord moet letters bevatten.',
  noMatch: 'Onjuist wachtwoord. Probeer opnieuw.',
} as const;

export function normaliseGateText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, '');
}

/** The first rule the input breaks, or null when it may be matched. */
export function gateInputProblem(input: string): string | null {
  if (input.trim() === '') return GATE_MESSAGES.empty;
  if (normaliseGateText(input).length < 3) return GATE_MESSAGES.tooShort;
  if (!/\p{L}/u.test(input)) return GATE_MESSAGES.noLetters;
  return null;
}

export function namesMatch(a: string, b: string): boolean {
  const x = normaliseGateText(a);
  const y = normaliseGateText(b);
  return x.length > 0 && y.length > 0 && (x.includes(y) || y.includes(x));
}

export function findGateMatch<T extends { name: string }>(input: string, tablers: readonly T[]): T | null {
  const wanted = normaliseGateText(input);
  const exact = tablers.find((t) => normaliseGateText(t.name) === wanted);
  if (exact) return exact;
  const candidates = tablers.filter((t) => namesMatch(input, t.name));
  return candidates.length === 1 ? candidates[0]! : null;
}
