import type { D1Database, D1PreparedStatement } from '@cloudflare/workers-types';
import type { Client, InStatement, Transaction, TransactionMode } from '@libsql/client';

/**
 * Counts the round trips a request costs (docs/decisions/033): every call that reaches the database client is
 * one, and a batch is one however many statements it carries, because that is what the Worker pays
 * for on D1 and Turso. The SQL is kept beside the count so a failing assertion shows what ran.
 */
export interface QueryCounter {
  /** Round trips since the last reset. */
  readonly count: number;
  /** The SQL of each round trip in order; a batch's statements joined with `; `. */
  readonly statements: readonly string[];
  reset(): void;
}

class QueryLog implements QueryCounter {
  statements: string[] = [];
  get count() {
    return this.statements.length;
  }
  reset() {
    this.statements = [];
  }
  record(sql: string) {
    this.statements.push(sql);
  }
}

const libsqlText = (stmt: InStatement | [string, unknown?]) => (typeof stmt === 'string' ? stmt : Array.isArray(stmt) ? stmt[0] : stmt.sql);

/**
 * Counts what a libSQL client sends. Its methods are replaced on the instance itself, because Drizzle
 * (openLibsqlDb) already holds this client: a wrapper object would not see the app's queries.
 */
export function countLibsqlQueries(client: Client): QueryCounter {
  const log = new QueryLog();
  countStatements(client, log);
  const { migrate } = client;
  // The overloads of `transaction` collapse to its last, argument-free one when taken as a value.
  const transaction = client.transaction as (mode?: TransactionMode) => Promise<Transaction>;
  client.migrate = (stmts) => {
    log.record(stmts.map(libsqlText).join('; '));
    return migrate.call(client, stmts);
  };
  client.transaction = (async (mode?: TransactionMode) => {
    // The BEGIN; each statement, commit or rollback of the transaction is another round trip.
    log.record('BEGIN');
    const tx = await transaction.call(client, mode);
    countStatements(tx, log);
    const { commit, rollback } = tx;
    tx.commit = () => {
      log.record('COMMIT');
      return commit.call(tx);
    };
    tx.rollback = () => {
      log.record('ROLLBACK');
      return rollback.call(tx);
    };
    return tx;
  }) as Client['transaction'];
  return log;
}

/** execute, batch and executeMultiple, which a client and a transaction share. */
function countStatements(target: Client | Transaction, log: QueryLog): void {
  const { execute, batch, executeMultiple } = target;
  target.execute = ((stmt: InStatement, args?: unknown) => {
    log.record(libsqlText(stmt));
    return (execute as (stmt: InStatement, args?: unknown) => ReturnType<Client['execute']>).call(target, stmt, args);
  }) as Client['execute'];
  target.batch = ((stmts: InStatement[], mode?: unknown) => {
    log.record(stmts.map(libsqlText).join('; '));
    return (batch as (stmts: InStatement[], mode?: unknown) => ReturnType<Client['batch']>).call(target, stmts, mode);
  }) as Client['batch'];
  target.executeMultiple = (sql: string) => {
    log.record(sql);
    return executeMultiple.call(target, sql);
  };
}

/**
 * A D1 binding that counts what reaches D1, to hand to openD1Db in place of `env.DB`. Statements are
 * wrapped so their runs are counted; a batch unwraps them again, since D1 accepts only its own.
 */
export function countD1Queries(binding: D1Database): { binding: D1Database; queries: QueryCounter } {
  const log = new QueryLog();
  const wrapped = new WeakMap<object, { stmt: D1PreparedStatement; sql: string }>();
  const wrap = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const counted =
      (run: 'first' | 'all' | 'run' | 'raw') =>
      (...args: unknown[]) => {
        log.record(sql);
        return (stmt[run] as (...a: unknown[]) => unknown).apply(stmt, args);
      };
    const wrapper = {
      bind: (...values: unknown[]) => wrap(stmt.bind(...values), sql),
      first: counted('first'),
      all: counted('all'),
      run: counted('run'),
      raw: counted('raw'),
    };
    wrapped.set(wrapper, { stmt, sql });
    return wrapper as unknown as D1PreparedStatement;
  };
  const counting = new Proxy(binding, {
    get(target, property) {
      switch (property) {
        case 'prepare':
          return (sql: string) => wrap(target.prepare(sql), sql);
        case 'batch':
          return (stmts: D1PreparedStatement[]) => {
            const entries = stmts.map((s) => wrapped.get(s) ?? { stmt: s, sql: '?' });
            log.record(entries.map((e) => e.sql).join('; '));
            return target.batch(entries.map((e) => e.stmt));
          };
        case 'exec':
          return (sql: string) => {
            log.record(sql);
            return target.exec(sql);
          };
        default: {
          // workerd's binding methods need the binding itself as `this`, not the proxy.
          const value: unknown = Reflect.get(target, property);
          return typeof value === 'function' ? value.bind(target) : value;
        }
      }
    },
  });
  return { binding: counting, queries: log };
}
