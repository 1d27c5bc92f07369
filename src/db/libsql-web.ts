import { createClient, type Client, type Config, type InArgs, type InStatement, type TransactionMode } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import { schema, type PlatformDb } from './client';

/**
 * Turso over HTTP for the Worker (no native driver there). One PlatformDb per isolate, but every statement or
 * batch opens its own libSQL HTTP client (see clientPerCall).
 */
export function openTursoDb(url: string, authToken?: string): PlatformDb {
  return drizzle(clientPerCall(authToken ? { url, authToken } : { url }), { schema }) as unknown as PlatformDb;
}

/**
 * A libSQL client whose every call runs on a client of its own, made in the caller's context.
 *
 * One shared `@libsql/client/web` client is not safe in a Worker: it lets 20 calls run at once and queues
 * the rest (its `concurrency` option, a promise-limit), and a queued call is started when an earlier one
 * finishes, so its fetch runs in the I/O context of whichever request that was. workerd forbids I/O on
 * behalf of another request and cancels it when that request ends ("Worker's code had hung"): under 50
 * concurrent orders 23 answered 500. The HTTP client keeps no connection (each execute or batch is one
 * fetch to /v2/pipeline that opens, runs and closes a Hrana stream), so a client per call costs an object,
 * not a round trip, and nothing that does I/O outlives the call. The cron gets the same for free.
 */
function clientPerCall(config: Config): Client {
  const open = () => createClient(config);
  return {
    execute: ((statement: InStatement | string, args?: InArgs) =>
      typeof statement === 'string' ? open().execute(statement, args) : open().execute(statement)) as Client['execute'],
    batch: (statements, mode) => open().batch(statements, mode),
    migrate: (statements) => open().migrate(statements),
    // The transaction keeps its client (and Hrana stream, by baton) until commit or rollback.
    transaction: (mode?: TransactionMode) => open().transaction(mode),
    executeMultiple: (sql) => open().executeMultiple(sql),
    sync: () => open().sync(),
    // Nothing to close or reconnect: each call's client is dropped when the call is done.
    close: () => undefined,
    reconnect: () => undefined,
    closed: false,
    protocol: 'http',
  };
}
