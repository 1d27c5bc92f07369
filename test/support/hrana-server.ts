/**
 * A small Hrana-over-HTTP server (the protocol of Turso and sqld) on Node's built-in SQLite, so the
 * Worker's Turso path runs in tests without a Turso account or an sqld binary.
 *
 * It speaks what `@libsql/client`'s HTTP client sends (node_modules/@libsql/hrana-client/lib-esm/http):
 * JSON pipelines at `POST /v2/pipeline` (and `/v3/pipeline`) carrying execute, batch (with conditions),
 * sequence, store_sql/close_sql, get_autocommit and close, with the baton that ties the requests of one
 * stream together. Values are typed as on the wire: null, integer as a decimal string, float, text, blob
 * as base64. `describe` and cursors are not implemented (the client uses neither for execute or batch).
 *
 * `url` serves the main database. `url/<name>/` serves a database of its own, made on its first request
 * as a copy of the main one as it is then: migrate the main database once, and every test file can take
 * a fresh, migrated database by picking a new name.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync, type SQLInputValue, type SQLOutputValue } from 'node:sqlite';

export interface HranaServer {
  /** The main database, e.g. `http://127.0.0.1:41234`. */
  url: string;
  close(): Promise<void>;
}

type Value =
  | { type: 'null' }
  | { type: 'integer'; value: string }
  | { type: 'float'; value: number }
  | { type: 'text'; value: string }
  | { type: 'blob'; base64: string };
interface Stmt {
  sql?: string;
  sql_id?: number;
  args?: Value[];
  named_args?: { name: string; value: Value }[];
  want_rows?: boolean;
}
type Cond = { type: 'ok' | 'error'; step: number } | { type: 'not'; cond: Cond } | { type: 'and' | 'or'; conds: Cond[] } | { type: 'is_autocommit' };
type StreamRequest =
  | { type: 'close' }
  | { type: 'execute'; stmt: Stmt }
  | { type: 'batch'; batch: { steps: { condition?: Cond | null; stmt: Stmt }[] } }
  | { type: 'sequence'; sql?: string; sql_id?: number }
  | { type: 'store_sql'; sql_id: number; sql: string }
  | { type: 'close_sql'; sql_id: number }
  | { type: 'get_autocommit' }
  | { type: 'describe' };
interface StmtResult {
  cols: { name: string; decltype: string | null }[];
  rows: Value[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
}
interface ProtoError {
  message: string;
  code: string;
}

/** One SQLite connection. A stream that ends a pipeline inside a transaction holds it until it leaves. */
interface Database {
  sqlite: DatabaseSync;
  owner: Stream | null;
  waiting: (() => void)[];
}

interface Stream {
  database: Database;
  sqls: Map<number, string>;
  /** An idle stream is dropped (and its transaction rolled back), as sqld does after a while. */
  expiry: NodeJS.Timeout | null;
}

const STREAM_IDLE_MS = 10_000;

/** The primary SQLite result codes by number, for the error's `code` (sqld sends e.g. SQLITE_CONSTRAINT). */
const SQLITE_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  13: 'SQLITE_FULL',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  25: 'SQLITE_RANGE',
};

class RequestError extends Error {}

export async function startHranaServer(): Promise<HranaServer> {
  const main = openDatabase(new DatabaseSync(':memory:'));
  const namespaces = new Map<string, Database>();
  const streams = new Map<string, Stream>();

  const databaseAt = (name: string | undefined): Database => {
    if (name === undefined) return main;
    let database = namespaces.get(name);
    if (!database) {
      const sqlite = new DatabaseSync(':memory:');
      sqlite.deserialize(main.sqlite.serialize());
      database = openDatabase(sqlite);
      namespaces.set(name, database);
    }
    return database;
  };

  const dropStream = (baton: string, stream: Stream) => {
    if (stream.expiry) clearTimeout(stream.expiry);
    streams.delete(baton);
    release(stream, true);
  };

  async function pipeline(namespace: string | undefined, body: { baton?: string | null; requests?: StreamRequest[] }) {
    if (!Array.isArray(body.requests)) throw new RequestError('The pipeline request has no requests');
    const database = databaseAt(namespace);
    let stream: Stream;
    if (body.baton) {
      const known = streams.get(body.baton);
      if (!known || known.database !== database) throw new RequestError('Unknown or expired baton');
      streams.delete(body.baton);
      if (known.expiry) clearTimeout(known.expiry);
      stream = known;
    } else {
      stream = { database, sqls: new Map(), expiry: null };
    }
    // Another stream's open transaction owns the connection: wait until it commits, rolls back or expires.
    while (database.owner && database.owner !== stream) await new Promise<void>((resolve) => database.waiting.push(resolve));

    let open = true;
    const results = body.requests.map((request) => {
      try {
        if (!open) throw new RequestError('The stream is closed');
        if (request.type === 'close') open = false;
        return { type: 'ok', response: { type: request.type, ...handle(stream, request) } };
      } catch (error) {
        return { type: 'error', error: protoError(error) };
      }
    });
    if (!open) {
      release(stream, true);
      return { baton: null, base_url: null, results };
    }
    // A new baton for every answer, so a replayed or stale one is refused.
    const baton = randomUUID();
    streams.set(baton, stream);
    stream.expiry = setTimeout(() => dropStream(baton, stream), STREAM_IDLE_MS);
    stream.expiry.unref();
    release(stream, false);
    return { baton, base_url: null, results };
  }

  const server = createServer((req, res) => {
    void answer(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = /^(?:\/([A-Za-z0-9_-]+))?\/(v2|v3)(\/pipeline)?\/?$/.exec(new URL(req.url ?? '/', 'http://localhost').pathname);
    if (!path) return send(res, 404, { message: 'Not found' });
    const [, namespace, , isPipeline] = path;
    // The version probe: this server speaks Hrana 2 and 3 over JSON (not the v3-protobuf encoding).
    if (!isPipeline) return req.method === 'GET' ? send(res, 200, {}) : send(res, 405, { message: 'Method not allowed' });
    if (req.method !== 'POST') return send(res, 405, { message: 'Method not allowed' });
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return send(res, 400, { message: 'The body is not JSON' });
    }
    try {
      send(res, 200, await pipeline(namespace, body as Parameters<typeof pipeline>[1]));
    } catch (error) {
      if (error instanceof RequestError) return send(res, 400, { message: error.message });
      throw error;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const [baton, stream] of streams) dropStream(baton, stream);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const database of [main, ...namespaces.values()]) database.sqlite.close();
    },
  };
}

function openDatabase(sqlite: DatabaseSync): Database {
  // libSQL and Turso enforce foreign keys on every connection; node:sqlite does too by default.
  sqlite.exec('PRAGMA foreign_keys = ON');
  return { sqlite, owner: null, waiting: [] };
}

/**
 * After a pipeline: a stream left inside a transaction keeps the connection; a closing one rolls its
 * transaction back; otherwise the next stream may go.
 */
function release(stream: Stream, closing: boolean): void {
  const database = stream.database;
  // With no owner, an open transaction can only be this stream's (streams wait while another owns it).
  if (database.owner !== stream && database.owner !== null) return;
  if (database.sqlite.isTransaction) {
    if (!closing) {
      database.owner = stream;
      return;
    }
    database.sqlite.exec('ROLLBACK');
  }
  database.owner = null;
  for (const wake of database.waiting.splice(0)) wake();
}

function handle(stream: Stream, request: StreamRequest): Record<string, unknown> {
  const sqlite = stream.database.sqlite;
  switch (request.type) {
    case 'close':
      return {};
    case 'execute':
      return { result: execute(stream, request.stmt) };
    case 'batch': {
      const stepResults: (StmtResult | null)[] = [];
      const stepErrors: (ProtoError | null)[] = [];
      const holds = (cond: Cond): boolean => {
        switch (cond.type) {
          case 'ok':
            return stepResults[cond.step] != null;
          case 'error':
            return stepErrors[cond.step] != null;
          case 'not':
            return !holds(cond.cond);
          case 'and':
            return cond.conds.every(holds);
          case 'or':
            return cond.conds.some(holds);
          case 'is_autocommit':
            return !sqlite.isTransaction;
        }
      };
      for (const step of request.batch.steps) {
        let result: StmtResult | null = null;
        let error: ProtoError | null = null;
        if (!step.condition || holds(step.condition)) {
          try {
            result = execute(stream, step.stmt);
          } catch (failure) {
            error = protoError(failure);
          }
        }
        stepResults.push(result);
        stepErrors.push(error);
      }
      return { result: { step_results: stepResults, step_errors: stepErrors } };
    }
    case 'sequence':
      sqlite.exec(sqlText(stream, request));
      return {};
    case 'store_sql':
      if (stream.sqls.has(request.sql_id)) throw new RequestError(`SQL text ${request.sql_id} is already stored`);
      stream.sqls.set(request.sql_id, request.sql);
      return {};
    case 'close_sql':
      stream.sqls.delete(request.sql_id);
      return {};
    case 'get_autocommit':
      return { is_autocommit: !sqlite.isTransaction };
    default:
      throw new RequestError(`This test server does not implement ${JSON.stringify((request as { type: string }).type)}`);
  }
}

function sqlText(stream: Stream, source: { sql?: string; sql_id?: number }): string {
  if (source.sql !== undefined) return source.sql;
  const stored = source.sql_id === undefined ? undefined : stream.sqls.get(source.sql_id);
  if (stored === undefined) throw new RequestError(`No SQL text stored as ${source.sql_id}`);
  return stored;
}

function execute(stream: Stream, stmt: Stmt): StmtResult {
  const sqlite = stream.database.sqlite;
  const statement = sqlite.prepare(sqlText(stream, stmt));
  statement.setReadBigInts(true);
  statement.setReturnArrays(true);
  const named: Record<string, SQLInputValue> = {};
  for (const arg of stmt.named_args ?? []) named[arg.name] = fromValue(arg.value);
  const positional = (stmt.args ?? []).map(fromValue);
  const columns = statement.columns();
  const [before] = counters(sqlite);
  let rows: SQLOutputValue[][] = [];
  if (columns.length > 0) rows = statement.all(named, ...positional) as unknown as SQLOutputValue[][];
  else statement.run(named, ...positional);
  const [after, changes, lastInsertRowid] = counters(sqlite);
  return {
    cols: columns.map((column) => ({ name: column.name, decltype: column.type })),
    rows: stmt.want_rows === false ? [] : rows.map((row) => row.map(toValue)),
    // Like sqld: only a statement that changed rows reports them (changes() still holds the last write's count).
    affected_row_count: after !== before ? Number(changes) : 0,
    last_insert_rowid: String(lastInsertRowid),
  };
}

function counters(sqlite: DatabaseSync): [bigint, bigint, bigint] {
  const statement = sqlite.prepare('SELECT total_changes(), changes(), last_insert_rowid()');
  statement.setReadBigInts(true);
  statement.setReturnArrays(true);
  return (statement.all() as unknown as [bigint, bigint, bigint][])[0]!;
}

function fromValue(value: Value): SQLInputValue {
  switch (value.type) {
    case 'null':
      return null;
    case 'integer':
      return BigInt(value.value);
    case 'float':
      return value.value;
    case 'text':
      return value.value;
    case 'blob':
      return new Uint8Array(Buffer.from(value.base64, 'base64'));
  }
}

function toValue(value: SQLOutputValue): Value {
  if (value === null) return { type: 'null' };
  if (typeof value === 'bigint') return { type: 'integer', value: String(value) };
  if (typeof value === 'number') return { type: 'float', value };
  if (typeof value === 'string') return { type: 'text', value };
  return { type: 'blob', base64: Buffer.from(value).toString('base64') };
}

function protoError(error: unknown): ProtoError {
  const failure = error as { message?: string; errcode?: number };
  const code = failure.errcode === undefined ? 'UNKNOWN' : (SQLITE_CODES[failure.errcode & 0xff] ?? `SQLITE_${failure.errcode}`);
  return { message: `SQLite error: ${failure.message ?? String(error)}`, code };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
