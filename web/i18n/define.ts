import type { Locale } from "#src/core/locales";

// docs/decisions/041: the back-office's message catalogue is a small typed module rather than an i18n library:
// two languages, no plural rules beyond what a function can say, and the compiler checks every key.
// Each area of the back-office keeps its texts in one file under messages/, English (the
// specification's texts) beside Dutch, so a text and its translation are edited together.

/** A text, or a function for texts with values in them (counts, names). */
export type Message = string | ((...args: never[]) => string);
export interface MessageTree {
  [key: string]: Message | MessageTree;
}

/** The same keys, texts and function signatures as `T`: what every other language must provide. */
export type Mirror<T> = {
  [K in keyof T]: T[K] extends string ? string : T[K] extends (...args: infer A) => string ? (...args: A) => string : Mirror<T[K]>;
};

/** One area's texts in every language; a missing, extra or differently-typed key does not compile. */
export function defineMessages<T extends MessageTree>(messages: { en: T } & { [L in Exclude<Locale, "en">]: Mirror<NoInfer<T>> }) {
  return messages as unknown as { [L in Locale]: T };
}
