/**
 * Where the local client (libsql-local.ts) keeps a row's values by position. Its rows answer positions through
 * accessors on a shared prototype, and reading those one by one is a slow path in V8; a service that reads whole
 * rows by position takes the array itself (docs/decisions/075).
 */
export const ROW_VALUES = Symbol.for('kerstactie.row-values');

/** A row's values by position: the local client's own array, or the row itself where a driver answers arrays. */
export function rowValues(row: unknown[]): unknown[] {
  return (row as unknown[] & { [ROW_VALUES]?: unknown[] })[ROW_VALUES] ?? row;
}
