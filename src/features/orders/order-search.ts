import { and, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { ClubDb } from '../../db/client';
import { orders, tablers } from '../../db/schema';
import { likePattern, orderSearchText, SEARCH_SEPARATOR, tablerSearchName, typedSearchText, type TypedOrderFields } from '../../db/search-text';

/**
 * Order search in SQL (docs/decisions/034): the folded `orders.search_text` holds the text, or the folded name of
 * the order's tabler does. The tabler's name is not copied into the orders' text, so renaming a tabler
 * writes one row, and the tablers matching a search are found once by the subquery, not per order.
 *
 * A text of three or more characters is looked up in `orders_fts`, a trigram index of the search text
 * (drizzle/0004_orders_fts.sql): a phrase of trigrams matches exactly the texts that contain it, as the
 * LIKE would, without reading every order (a search of 50,000 orders: about 30 ms as a LIKE, under
 * 1 ms through the index). Shorter texts have no trigram, so they take the LIKE, which scans.
 *
 * The condition's text depends only on which of the two it is (`kind`); the searched text goes in as the
 * placeholders `search_pattern` and `search_phrase` (db/statement-cache.ts).
 */
export type SearchCondition =
  | { kind: 'like'; condition: SQL; values: Record<string, string> }
  /** `matches` is the list of matching ids (a subquery of one column, `id`) that `condition` tests orders against. */
  | { kind: 'trigram'; condition: SQL; matches: SQL; values: Record<string, string> };

export function searchCondition(db: ClubDb, folded: string): SearchCondition {
  const pattern = sql.placeholder('search_pattern');
  // The club's tablers whose name matches, through the handle: with many clubs, another club's Jansen and his
  // orders are not looked at (docs/decisions/075).
  const matchingTablers = db.select({ id: tablers.id }).from(tablers).where(sql`${tablers.searchName} LIKE ${pattern} ESCAPE '\\'`);
  if (!searchesTrigramIndex(folded)) {
    return {
      kind: 'like',
      condition: sql`(${orders.searchText} LIKE ${pattern} ESCAPE '\\' OR ${inArray(orders.tablerId, matchingTablers)})`,
      values: { search_pattern: likePattern(folded) },
    };
  }
  // One list of ids, the trigram matches and the matching tablers' orders (by orders_club_tabler_idx): an OR of two
  // IN tests would be tested on each of the club's orders, this list only against them (docs/decisions/074).
  const theirs = alias(orders, 'tablers_orders');
  const theirOrders = db.select({ id: theirs.id }).from(theirs).where(inArray(theirs.tablerId, matchingTablers));
  const matches = sql`SELECT rowid AS id FROM orders_fts WHERE orders_fts MATCH ${sql.placeholder('search_phrase')}
      UNION SELECT ${sql.identifier('id')} FROM ${theirOrders}`;
  return {
    kind: 'trigram',
    condition: sql`${orders.id} IN (${matches})`,
    matches,
    values: { search_pattern: likePattern(folded), search_phrase: ftsPhrase(folded) },
  };
}

/** Whether a (folded) search goes through the trigram index: a text of fewer than three characters has no trigram. */
const searchesTrigramIndex = (folded: string) => [...folded].length >= 3;

/** An FTS5 string taken literally: in double quotes, a double quote doubled (no operators, no columns). */
const ftsPhrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** A number drawn in SQL as it goes into the search text: the numbers are ASCII, so lower() folds them exactly. */
const searchTextNumber = (number: SQL) => sql`${SEARCH_SEPARATOR} || lower(${number})`;

/** The search text of a new order, whose reference is drawn in the same statement. */
export function newOrderSearchText(fields: TypedOrderFields, reference: SQL): SQL {
  return sql`${typedSearchText(fields)} || ${searchTextNumber(reference)}`;
}

/**
 * The search text after the typed fields changed, with the numbers the row holds at that moment: an
 * invoice number drawn while the form was open is kept.
 */
export function updatedOrderSearchText(fields: TypedOrderFields): SQL {
  return sql`${typedSearchText(fields)} || ${searchTextNumber(sql`${orders.reference}`)}
    || coalesce(${searchTextNumber(sql`${orders.invoiceNumber}`)}, '') || coalesce(${searchTextNumber(sql`${orders.creditNoteNumber}`)}, '')`;
}

/** The search text with a newly drawn invoice or credit note number added (a row not yet filled stays null). */
export function searchTextWithNumber(number: SQL): SQL {
  return sql`${orders.searchText} || ${searchTextNumber(number)}`;
}

/** True when every order and tabler has its search text; part of the one read of each start. */
export function searchTextIsComplete(): SQL {
  return sql`(NOT EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.searchText} IS NULL) AND NOT EXISTS (SELECT 1 FROM ${tablers} WHERE ${tablers.searchName} IS NULL))`;
}

/** Rows filled per statement: one bound JSON text, so D1's 100 parameters per statement do not limit it. */
const SEARCH_FILL_BATCH = 500;

/**
 * Fills the search text of the orders and tablers that have none: those older than the column, which
 * the migration adding it cannot fold (SQLite has no accent folding, and lower() only knows ASCII).
 * Run at start-up; idempotent, in batches, and each write only where the text is still missing, so a
 * row that a request wrote meanwhile keeps its fresh text and two starts at once do no harm.
 * Answers how many orders it filled.
 */
export async function fillMissingSearchText(db: ClubDb): Promise<number> {
  const unnamed = await db.select({ id: tablers.id, name: tablers.name }).from(tablers).where(isNull(tablers.searchName));
  for (let i = 0; i < unnamed.length; i += SEARCH_FILL_BATCH) {
    const texts = Object.fromEntries(unnamed.slice(i, i + SEARCH_FILL_BATCH).map((t) => [t.id, tablerSearchName(t.name)]));
    await db
      .update(tablers)
      .set({ searchName: byId(texts, tablers.id) })
      .where(and(isNull(tablers.searchName), idIn(texts, tablers.id)));
  }
  let filled = 0;
  for (;;) {
    const rows = await db
      .select({
        id: orders.id,
        name: orders.name,
        email: orders.email,
        phone: orders.phone,
        address: orders.address,
        postalCode: orders.postalCode,
        city: orders.city,
        notes: orders.notes,
        reference: orders.reference,
        invoiceNumber: orders.invoiceNumber,
        creditNoteNumber: orders.creditNoteNumber,
      })
      .from(orders)
      .where(isNull(orders.searchText))
      .limit(SEARCH_FILL_BATCH);
    if (rows.length === 0) return filled;
    const texts = Object.fromEntries(rows.map((row) => [row.id, orderSearchText(row)]));
    await db
      .update(orders)
      .set({ searchText: byId(texts, orders.id) })
      .where(and(isNull(orders.searchText), idIn(texts, orders.id)));
    filled += rows.length;
  }
}

/** The text for the row's id from a JSON object keyed by id, bound as one parameter. */
const byId = (texts: Record<number, string>, id: typeof orders.id | typeof tablers.id) =>
  sql<string>`json_extract(${JSON.stringify(texts)}, '$."' || ${id} || '"')`;
const idIn = (texts: Record<number, string>, id: typeof orders.id | typeof tablers.id) =>
  sql`${id} IN (SELECT CAST(key AS INTEGER) FROM json_each(${JSON.stringify(texts)}))`;
