import Database from 'libsql';

/**
 * Prepared statements kept per connection, for the Node home (issue 15). @libsql/client's local client
 * prepares every statement anew on each call and asks it twice for its columns; for the statements a
 * request runs (the identity query with its JSON subqueries, an orders page) preparing costs several times
 * what running them does (180 µs against 35 µs for the identity query). The client reaches SQLite only
 * through `Database#prepare` of the `libsql` package, so a prepare that hands back the connection's
 * earlier statement for the same SQL gives every query of the app a statement cache, without forking the
 * client. A statement is reusable: the client sets its modes (raw, safe integers) before each use and runs
 * it to the end synchronously, so two requests never interleave on one.
 *
 * Columns are remembered with the statement. A schema change (CREATE, ALTER, DROP, or a script through
 * `exec`, which is how migrations run) can change what a cached statement returns, so it empties that
 * connection's cache.
 */

/** Statements kept per connection; the app's SQL is a few hundred texts at most, so this rarely evicts. */
export const STATEMENT_CACHE_SIZE = 500;

type Connection = Database.Database;
type Statement = Database.Statement;
type Column = Database.ColumnDefinition;

const caches = new WeakMap<Connection, Map<string, Statement>>();
const SCHEMA_CHANGE = /^\s*(?:CREATE|ALTER|DROP|VACUUM)\b/i;
let installed = false;

/** Counts kept for the tests: how many statements were prepared by SQLite and how many came from the cache. */
export const statementCacheStats = { prepared: 0, reused: 0 };

function cacheOf(db: Connection): Map<string, Statement> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  return cache;
}

function rememberColumns(statement: Statement): Statement {
  const columns = statement.columns.bind(statement);
  let known: Column[] | undefined;
  statement.columns = () => (known ??= columns());
  return statement;
}

/** Installs the cache on the `libsql` module once per process; idempotent. */
export function installStatementCache(): void {
  if (installed) return;
  installed = true;
  const { prepare, exec } = Database.prototype;
  // The library types prepare generically over its bind parameters; the client binds arrays or objects alike.
  Database.prototype.prepare = function cachedPrepare(this: Connection, sql: string): Statement {
    if (SCHEMA_CHANGE.test(sql)) {
      caches.delete(this);
      return prepare.call(this, sql);
    }
    const cache = cacheOf(this);
    const hit = cache.get(sql);
    if (hit) {
      statementCacheStats.reused++;
      // Most recently used last, so the first entry is the one to evict.
      cache.delete(sql);
      cache.set(sql, hit);
      return hit;
    }
    const statement = rememberColumns(prepare.call(this, sql));
    statementCacheStats.prepared++;
    cache.set(sql, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return statement;
  } as Connection['prepare'];
  Database.prototype.exec = function execClearingCache(this: Connection, sql: string) {
    caches.delete(this);
    return exec.call(this, sql);
  };
}
