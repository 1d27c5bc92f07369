/**
 * What `orders.search_text` and `tablers.search_name` hold (docs/decisions/034): the folded text that order search
 * runs on (features/orders/order-search.ts). SQLite's lower() knows only ASCII, so the accent- and
 * case-free form of what was typed is made here, on every write; a search then is one LIKE on a column.
 *
 * This module imports nothing, so `scripts/seed-demo.mjs` loads it as it is (Node strips the types).
 */

/**
 * Lower case without accents, for search: 'Ëlsa' and 'ELSA' both become 'elsa'. toLowerCase, not
 * toLocaleLowerCase('nl-NL'): Unicode has no Dutch casing rules (only Turkish, Azeri and Lithuanian
 * have their own), so both give the same text, and the locale form is twenty times slower in V8.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * Between two fields, so a search never matches across a field boundary (today a text has to lie
 * within one field, as before the column); the ASCII unit separator is nothing anyone types.
 */
export const SEARCH_SEPARATOR = '\u001f';

/** The fields of an order that people type. */
export interface TypedOrderFields {
  name: string;
  email: string;
  phone: string;
  address: string;
  postalCode: string;
  city: string;
  notes: string | null;
}

/** The numbers the server gives an order: reference, then invoice and credit note number once drawn. */
export interface OrderNumbers {
  reference: string;
  invoiceNumber: string | null;
  creditNoteNumber: string | null;
}

/** The typed part of the search text, the part a write of the order form changes. */
export function typedSearchText(order: TypedOrderFields): string {
  return [order.name, order.email, order.phone, order.address, order.postalCode, order.city, order.notes ?? ''].map(foldForSearch).join(SEARCH_SEPARATOR);
}

/**
 * An order's whole search text: the typed part, then its numbers. The numbers are drawn in SQL
 * (features/orders/order-search.ts appends them there with lower(), exact for their ASCII), so this
 * order of parts is what every writer produces.
 */
export function orderSearchText(order: TypedOrderFields & OrderNumbers): string {
  const numbers = [order.reference, order.invoiceNumber, order.creditNoteNumber].filter((n): n is string => n !== null);
  return [typedSearchText(order), ...numbers.map(foldForSearch)].join(SEARCH_SEPARATOR);
}

/** A tabler's name as order search compares it. */
export const tablerSearchName = (name: string): string => foldForSearch(name);

/** The LIKE pattern of a folded search text, with `\`, `%` and `_` taken literally (ESCAPE '\'). */
export function likePattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
