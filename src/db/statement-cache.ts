import type { ClubDb } from './club-db';

/**
 * Statements built once per database and kept prepared (docs/decisions/034, 046). Drizzle's building of a statement's SQL
 * costs about as much as running a short one, so a statement run on every request is built once for each
 * shape its text can take (`key`) and then run with its values as named placeholders. Every value that
 * varies between requests must be a placeholder: a value bound at build time would be kept with the
 * statement. A statement's shapes are a finite set (which filters are set, the sort), but a large one, so
 * at most `maxSize` are kept per database and the oldest goes first.
 */
export function statementCache<T>(maxSize = 200): (db: ClubDb, key: string, build: () => T) => T {
  const byDb = new WeakMap<ClubDb, Map<string, T>>();
  return (db, key, build) => {
    let statements = byDb.get(db);
    if (!statements) {
      statements = new Map();
      byDb.set(db, statements);
    }
    let statement = statements.get(key);
    if (statement === undefined) {
      statement = build();
      if (statements.size >= maxSize) statements.delete(statements.keys().next().value!);
      statements.set(key, statement);
    }
    return statement;
  };
}
