import type { Locale } from "../../src/core/locales";

// issue 16: the server answers in the REST contract's English (its texts are exact, and outside clients
// test against them). A Dutch back-office shows them in Dutch: each known text, or pattern for texts
// with values in them, maps to its translation. A text not listed shows as the server sent it.

type Translation = readonly [pattern: string | RegExp, dutch: string | ((...groups: string[]) => string)];

const DUTCH: readonly Translation[] = [];

const exact = new Map(DUTCH.filter((entry): entry is readonly [string, string] => typeof entry[0] === "string" && typeof entry[1] === "string"));
const patterns = DUTCH.filter((entry) => entry[0] instanceof RegExp) as readonly (readonly [RegExp, string | ((...groups: string[]) => string)])[];

/** The server's text in `locale`. */
export function translateServerText(text: string, locale: Locale): string {
  if (locale === "en") return text;
  const known = exact.get(text);
  if (known !== undefined) return known;
  for (const [pattern, dutch] of patterns) {
    const match = pattern.exec(text);
    if (match && match[0] === text) return typeof dutch === "string" ? dutch : dutch(...match.slice(1));
  }
  return text;
}
