import {
  type Client,
  type InArgs,
  type InStatement,
  type InValue,
  LibsqlBatchError,
  LibsqlError,
  type ResultSet,
  type Row,
  type TransactionMode,
} from '@libsql/client';
import { closeSync, openSync } from 'node:fs';
import Database from 'libsql';

/**
 * The Node default's database client (docs/decisions/046): one synchronous libSQL connection to the data
 * folder's file, with its prepared statements kept. It answers Drizzle exactly as `@libsql/client` does
 * (the same `Client` calls, result sets and rows, the same errors), without that client's per-call costs:
 * a `prepare` of every statement (a quarter of a signed-in request's CPU time: the identity statement is
 * long), two `columns()` calls, and a `defineProperty` per value.
 *
 * Why one connection is enough and safe: every call runs to its end synchronously, so no statement of
 * another request can come between the statements of a batch, and no statement is left part-read (`all`
 * steps each one to its end, which releases SQLite's read lock at once; a test holds this). Interactive
 * transactions are refused: D1 has none, so the services write multi-statement changes with `db.batch`
 * (docs/architecture.md §1), and a transaction held across an `await` would hold this connection for
 * every other request.
 */
export function createLocalClient(path: string, options: { cacheSize?: number } = {}): Client {
  return new LocalClient(path, options.cacheSize ?? DEFAULT_CACHE_SIZE);
}

/** The `file:` URLs the local client opens; anything else (remote, or with query options) goes to @libsql/client. */
export function localDatabasePath(url: string): string | null {
  if (url === ':memory:' || url === 'file::memory:') return ':memory:';
  if (!url.startsWith('file:') || url.includes('?') || url.includes('#')) return null;
  const rest = url.slice('file:'.length);
  if (rest.startsWith('//')) {
    // file:///absolute/path or file://localhost/absolute/path; any other host is not a local file.
    const slash = rest.indexOf('/', 2);
    const host = slash === -1 ? rest.slice(2) : rest.slice(2, slash);
    if (host !== '' && host !== 'localhost') return null;
    return slash === -1 ? null : decodeURIComponent(rest.slice(slash));
  }
  return rest === '' ? null : decodeURIComponent(rest);
}

/**
 * How long a statement waits for another connection's lock before it fails with SQLITE_BUSY
 * (docs/decisions/052). In WAL mode only another writer can make it wait, and that is rare: a backup or
 * a query tool only reads.
 */
export const BUSY_TIMEOUT_MS = 5000;

/**
 * SQLite's page cache per connection, in KiB (docs/decisions/075). Its default of 2 MiB holds a few thousand orders'
 * pages: a search matching thousands, or a filter walking half the club, read most pages again from the
 * operating system on every request. 64 MiB holds the hot part of a club of 50,000 orders; it fills only as pages
 * are read.
 */
export const PAGE_CACHE_KIB = 65536;

/**
 * Opens the file as every connection of ours does (docs/decisions/052): a new file is made 0600 before
 * SQLite creates it, so its -wal and -shm files (which SQLite gives the database file's mode) are the
 * owner's alone too; WAL, so readers (a backup, `VACUUM INTO`, a query tool) never stop writers; a
 * busy timeout, so a writer waits for another instead of failing at once; and a page cache that holds a club.
 */
export function openLocalDatabase(path: string): Database.Database {
  if (path !== ':memory:') closeSync(openSync(path, 'a', 0o600));
  const db = new Database(path);
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
  return db;
}

/**
 * Distinct SQL texts kept prepared. The app's statements are a few hundred at most; texts built with a
 * varying number of `?` (IN lists) come and go, and the oldest is dropped when the cache is full.
 */
const DEFAULT_CACHE_SIZE = 500;

interface Prepared {
  statement: Database.Statement;
  /** Whether the statement answers rows (SELECT, or a write with RETURNING). */
  reader: boolean;
  columns: string[];
  columnTypes: string[];
  /** Shared by the statement's rows: their values by position, as @libsql/client's rows give them. */
  rowPrototype: object;
  /** Each column's name, or null where an earlier column has the same name (a join can repeat one; the first wins). */
  firstNames: (string | null)[];
}

const SCHEMA_CHANGE = /^\s*(CREATE|ALTER|DROP)\s/i;

/**
 * A row's values by position (a join can repeat a name, and then only the first has its name): `ROW_VALUES` of
 * row-values.ts, by its registry key, since scripts/bench.mjs loads this file with Node's type stripping, which
 * resolves no import without its extension (a test holds the two together).
 */
const VALUES = Symbol.for('kerstactie.row-values');

class LocalClient implements Client {
  readonly protocol = 'file';
  #db: Database.Database;
  readonly #path: string;
  readonly #cacheSize: number;
  readonly #statements = new Map<string, Prepared>();

  constructor(path: string, cacheSize: number) {
    this.#path = path;
    this.#cacheSize = cacheSize;
    this.#db = openLocalDatabase(path);
  }

  get closed(): boolean {
    return !this.#db.open;
  }

  async execute(stmtOrSql: InStatement | string, args?: InArgs): Promise<ResultSet> {
    return this.#run(typeof stmtOrSql === 'string' ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql);
  }

  async batch(stmts: Array<InStatement | [string, InArgs?]>, mode: TransactionMode = 'deferred'): Promise<ResultSet[]> {
    return this.#inTransaction(mode, stmts);
  }

  async migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    // As @libsql/client: foreign keys off while the migrations rebuild tables, then on again.
    this.#exec('PRAGMA foreign_keys=off');
    try {
      return this.#inTransaction('deferred', stmts);
    } finally {
      this.#exec('PRAGMA foreign_keys=on');
    }
  }

  async transaction(): Promise<never> {
    throw new LibsqlError(
      'Interactive transactions are not used here: write several statements at once with db.batch (D1 has no interactive transactions)',
      'TRANSACTION_NOT_SUPPORTED',
    );
  }

  async executeMultiple(sql: string): Promise<void> {
    this.#checkOpen();
    // Any of these statements may change the schema: the kept statements' column lists may be stale.
    this.#statements.clear();
    try {
      this.#db.exec(sql);
    } catch (error) {
      throw toLibsqlError(error);
    }
  }

  async sync(): Promise<never> {
    throw new LibsqlError('sync() is for embedded replicas; this is a local database file', 'SYNC_NOT_SUPPORTED');
  }

  close(): void {
    this.#statements.clear();
    if (this.#db.open) this.#db.close();
  }

  reconnect(): void {
    this.close();
    this.#db = openLocalDatabase(this.#path);
  }

  #checkOpen(): void {
    if (!this.#db.open) throw new LibsqlError('The client is closed', 'CLIENT_CLOSED');
  }

  #exec(sql: string): void {
    this.#run({ sql, args: [] });
  }

  /**
   * BEGIN, every statement, COMMIT — all before this call returns, so nothing else runs in between. A batch
   * that may write takes the write lock at BEGIN (docs/decisions/052): in WAL a deferred one that read first
   * fails at its first write, without waiting, when another process wrote in between.
   */
  #inTransaction(mode: TransactionMode, stmts: Array<InStatement | [string, InArgs?]>): ResultSet[] {
    this.#checkOpen();
    this.#exec(mode === 'read' ? 'BEGIN' : 'BEGIN IMMEDIATE');
    try {
      const results = stmts.map((stmt, index) => {
        try {
          return this.#run(Array.isArray(stmt) ? { sql: stmt[0], args: stmt[1] ?? [] } : stmt);
        } catch (error) {
          // #run answers SQLite's errors as LibsqlError already; the batch adds which statement failed.
          if (!(error instanceof LibsqlError)) throw error;
          throw new LibsqlBatchError(
            error.message,
            index,
            error.code,
            error.extendedCode,
            error.rawCode,
            error.cause instanceof Error ? error.cause : undefined,
          );
        }
      });
      this.#exec('COMMIT');
      return results;
    } finally {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
    }
  }

  #run(stmt: InStatement): ResultSet {
    this.#checkOpen();
    const { sql, args } = typeof stmt === 'string' ? { sql: stmt, args: [] as InArgs } : stmt;
    const prepared = this.#prepared(sql);
    const bound = toSqlArgs(args ?? []);
    try {
      if (prepared.reader) {
        const rows = prepared.statement.all(bound) as unknown[][];
        return new LocalResultSet(
          prepared.columns,
          prepared.columnTypes,
          rows.map((values) => toRow(prepared, values)),
          0,
          undefined,
        );
      }
      const info = prepared.statement.run(bound);
      // SQLite prepares a statement again by itself after a schema change, but the column names kept
      // beside it would be stale: a schema change forgets every kept statement.
      if (SCHEMA_CHANGE.test(sql)) this.#statements.clear();
      return new LocalResultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
    } catch (error) {
      throw toLibsqlError(error);
    }
  }

  #prepared(sql: string): Prepared {
    const known = this.#statements.get(sql);
    if (known) return known;
    let statement: Database.Statement;
    try {
      statement = this.#db.prepare(sql);
    } catch (error) {
      throw toLibsqlError(error);
    }
    const reader = statement.reader;
    const definitions = reader ? statement.raw(true).columns() : [];
    const columns = definitions.map((column) => column.name);
    const firstNames = columns.map((name, index) => (columns.indexOf(name) === index ? name : null));
    const prepared: Prepared = {
      statement,
      reader,
      columns,
      columnTypes: definitions.map((column) => column.type ?? ''),
      rowPrototype: rowPrototype(columns),
      firstNames,
    };
    if (this.#statements.size >= this.#cacheSize) this.#statements.delete(this.#statements.keys().next().value!);
    this.#statements.set(sql, prepared);
    return prepared;
  }
}

/**
 * What @libsql/client's rows are: the values by column name (own, enumerable: Drizzle's raw `db.all` reads
 * them with Object.keys) and by position with a length (Drizzle's mapped selects slice them). The
 * positions live on one prototype per statement and read the row's own values array (a hidden property, which
 * Object.keys, spreads and JSON leave out), so a read by position is one array access, not a lookup by name.
 */
function rowPrototype(columns: string[]): object {
  const prototype: Record<PropertyKey, unknown> = {};
  columns.forEach((_name, index) => {
    Object.defineProperty(prototype, index, {
      get(this: Record<PropertyKey, unknown>) {
        return (this[VALUES] as unknown[])[index];
      },
    });
  });
  Object.defineProperty(prototype, 'length', { value: columns.length });
  return prototype;
}

function toRow({ rowPrototype: prototype, firstNames }: Prepared, values: unknown[]): Row {
  const row = Object.create(prototype) as Record<PropertyKey, unknown>;
  Object.defineProperty(row, VALUES, { value: values });
  for (let i = 0; i < firstNames.length; i++) {
    const name = firstNames[i];
    if (name != null) row[name] = values[i];
  }
  return row as unknown as Row;
}

class LocalResultSet implements ResultSet {
  // Fields written out rather than as constructor parameters: scripts/bench.mjs imports this file with
  // Node's type stripping, which does not rewrite parameter properties.
  readonly columns: string[];
  readonly columnTypes: string[];
  readonly rows: Row[];
  readonly rowsAffected: number;
  readonly lastInsertRowid: bigint | undefined;

  constructor(columns: string[], columnTypes: string[], rows: Row[], rowsAffected: number, lastInsertRowid: bigint | undefined) {
    this.columns = columns;
    this.columnTypes = columnTypes;
    this.rows = rows;
    this.rowsAffected = rowsAffected;
    this.lastInsertRowid = lastInsertRowid;
  }

  toJSON() {
    return {
      columns: this.columns,
      columnTypes: this.columnTypes,
      rows: this.rows.map((row) => Array.prototype.map.call(row, (value) => (typeof value === 'bigint' ? String(value) : value))),
      rowsAffected: this.rowsAffected,
      lastInsertRowid: this.lastInsertRowid === undefined ? null : String(this.lastInsertRowid),
    };
  }
}

/** The values @libsql/client accepts, turned into what SQLite binds, with its errors for the rest. */
function toSqlArgs(args: InArgs): unknown[] | Record<string, unknown> {
  if (Array.isArray(args)) return args.map(toSqlValue);
  const named: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    named[name[0] === '@' || name[0] === '$' || name[0] === ':' ? name.slice(1) : name] = toSqlValue(value);
  }
  return named;
}

const MIN_INTEGER = -9223372036854775808n;
const MAX_INTEGER = 9223372036854775807n;

function toSqlValue(value: InValue | undefined): unknown {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new RangeError('Only finite numbers (not Infinity or NaN) can be passed as arguments');
      return value;
    case 'boolean':
      return value ? 1 : 0;
    case 'bigint':
      if (value < MIN_INTEGER || value > MAX_INTEGER) throw new RangeError('bigint is too large to be represented as a 64-bit integer and passed as argument');
      return value;
    case 'undefined':
      throw new TypeError('undefined cannot be passed as argument to the database');
    default:
      if (value instanceof ArrayBuffer) return Buffer.from(value);
      if (value instanceof Date) return value.valueOf();
      return value;
  }
}

// SQLite's primary result codes, by number (an extended code carries its primary one in the low byte).
const PRIMARY_CODES = [
  'SQLITE_OK',
  'SQLITE_ERROR',
  'SQLITE_INTERNAL',
  'SQLITE_PERM',
  'SQLITE_ABORT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_NOMEM',
  'SQLITE_READONLY',
  'SQLITE_INTERRUPT',
  'SQLITE_IOERR',
  'SQLITE_CORRUPT',
  'SQLITE_NOTFOUND',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_EMPTY',
  'SQLITE_SCHEMA',
  'SQLITE_TOOBIG',
  'SQLITE_CONSTRAINT',
  'SQLITE_MISMATCH',
  'SQLITE_MISUSE',
  'SQLITE_NOLFS',
  'SQLITE_AUTH',
  'SQLITE_FORMAT',
  'SQLITE_RANGE',
  'SQLITE_NOTADB',
  'SQLITE_NOTICE',
  'SQLITE_WARNING',
];

/** SQLite's errors as @libsql/client reports them: `code` the primary code, `extendedCode` the precise one. */
function toLibsqlError(error: unknown): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const raw = error.rawCode;
  const code = raw === undefined ? 'SQLITE_UNKNOWN' : (PRIMARY_CODES[raw & 0xff] ?? `SQLITE_UNKNOWN_${raw & 0xff}`);
  return new LibsqlError(error.message, code, error.code, raw, error);
}
