import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { is, sql } from 'drizzle-orm';
import { type PlatformDb, schema } from '../../db/client';

/**
 * The club's database as rows (docs/decisions/051): what the Worker's backup holds, since D1 cannot
 * `VACUUM INTO` and `wrangler d1 export` refuses the FTS5 order index. Every table of the schema
 * (src/db/schema) is in it but the kept order counts; the search index and those counts are not, they are rebuilt
 * from the orders on restore (docs/decisions/074), and neither are the migration tables, which the target database
 * has of its own.
 */
export interface DatabaseExport {
  format: 'kerstactie-export';
  version: 1;
  created_at: string;
  tables: TableRows[];
}

export interface TableRows {
  name: string;
  columns: string[];
  /** Each row's values in the order of `columns`: text, numbers or null (the schema has no blobs). */
  rows: unknown[][];
}

interface TableInfo {
  name: string;
  columns: string[];
}

/** Rows read per statement: a D1 answer stays small, and the table's rowid pages it. */
const PAGE_ROWS = 1000;
/** Statements per batch on restore: one row each (D1 binds at most 100 values a statement). */
const RESTORE_BATCH = 200;

/** The schema's tables, each after the tables it refers to, so inserts meet their parents and deletes go the other way. */
export function exportedTables(): TableInfo[] {
  const tables = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable) && value !== schema.orderCounts);
  const configs = new Map(tables.map((table) => [table, getTableConfig(table)]));
  const ordered: TableInfo[] = [];
  const placed = new Set<SQLiteTable>();
  const place = (table: SQLiteTable) => {
    if (placed.has(table)) return;
    placed.add(table);
    const config = configs.get(table)!;
    for (const key of config.foreignKeys) {
      const parent = key.reference().foreignTable;
      if (parent !== table) place(parent);
    }
    ordered.push({ name: config.name, columns: config.columns.map((column) => column.name) });
  };
  for (const table of [...tables].sort((a, b) => configs.get(a)!.name.localeCompare(configs.get(b)!.name))) place(table);
  return ordered;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Reads every table, page by page in rowid order; the answer is a plain value, ready for JSON. */
export async function exportTables(db: PlatformDb, now: Date): Promise<DatabaseExport> {
  const tables: TableRows[] = [];
  for (const { name, columns } of exportedTables()) {
    const rows: unknown[][] = [];
    const select = sql.raw(`SELECT rowid AS "__rowid", ${columns.map(quoted).join(', ')} FROM ${quoted(name)} WHERE rowid > `);
    let after = -1;
    for (;;) {
      const page = await db.all<Record<string, unknown>>(sql`${select}${after} ORDER BY rowid LIMIT ${sql.raw(String(PAGE_ROWS))}`);
      for (const row of page) rows.push(columns.map((column) => row[column] ?? null));
      if (page.length < PAGE_ROWS) break;
      after = Number(page.at(-1)!.__rowid);
    }
    tables.push({ name, columns, rows });
  }
  return { format: 'kerstactie-export', version: 1, created_at: now.toISOString(), tables };
}

/** Checks an export read from a file before anything is deleted: its shape, and that this database has its tables and columns. */
export function parseExport(value: unknown): DatabaseExport {
  const fail = (why: string): never => {
    throw new Error(`Not a Kerstactie database export: ${why}`);
  };
  const exported = value as Partial<DatabaseExport> | null;
  if (typeof exported !== 'object' || exported === null || exported.format !== 'kerstactie-export') fail('no "format": "kerstactie-export"');
  if (exported!.version !== 1) fail(`version ${String(exported!.version)} is not 1`);
  if (!Array.isArray(exported!.tables)) fail('no tables');
  const known = new Map(exportedTables().map((table) => [table.name, new Set(table.columns)]));
  for (const table of exported!.tables!) {
    const columns = known.get(table?.name);
    if (!columns) fail(`this database has no table ${JSON.stringify(table?.name)}`);
    for (const column of table.columns) if (!columns!.has(column)) fail(`this database has no column ${table.name}.${column}`);
    if (!Array.isArray(table.rows) || table.rows.some((row) => !Array.isArray(row) || row.length !== table.columns.length)) {
      fail(`the rows of ${table.name} do not match its columns`);
    }
  }
  return exported as DatabaseExport;
}

export interface RestoreStatement {
  sql: string;
  args: unknown[];
}

/**
 * What puts an export back: every table of the schema emptied (children first), the export's rows
 * inserted (parents first), and the order search index and the kept counts rebuilt from the restored orders.
 */
export function restoreStatements(exported: DatabaseExport): RestoreStatement[] {
  const tables = exportedTables();
  const byName = new Map(exported.tables.map((table) => [table.name, table]));
  const statements: RestoreStatement[] = [...tables].reverse().map(({ name }) => ({ sql: `DELETE FROM ${quoted(name)}`, args: [] }));
  for (const { name } of tables) {
    const table = byName.get(name);
    if (!table) continue;
    const insert = `INSERT INTO ${quoted(name)} (${table.columns.map(quoted).join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')})`;
    for (const row of table.rows) statements.push({ sql: insert, args: row });
  }
  // An export from before payment_reversals (migration 0017): its refunds and chargebacks dated as that migration
  // dated them, by the payment's last change (docs/decisions/076).
  if (!byName.has('payment_reversals')) {
    for (const [kind, column] of [
      ['refund', 'refunded_cents'],
      ['chargeback', 'charged_back_cents'],
    ]) {
      statements.push({
        sql: `INSERT INTO "payment_reversals" ("club_id", "online_payment_id", "kind", "amount_cents", "booked_at")
          SELECT "club_id", "id", '${kind}', "${column}", "updated_at" FROM "online_payments" WHERE "${column}" > 0`,
        args: [],
      });
    }
  }
  statements.push({ sql: `INSERT INTO "orders_fts"("orders_fts") VALUES ('rebuild')`, args: [] });
  // The kept counts followed every delete and insert above through their triggers; counted afresh all the same.
  statements.push({ sql: 'DELETE FROM "order_counts"', args: [] });
  statements.push({
    sql: `INSERT INTO "order_counts" ("club_id", "paid", "invoice_sent", "cancelled", "delivered", "orders")
      SELECT "club_id", "paid", "invoice_sent", "cancelled", "delivered", count(*) FROM "orders" GROUP BY 1, 2, 3, 4, 5`,
    args: [],
  });
  return statements;
}

/**
 * Puts an export back into a database (D1, Turso, a libSQL file) in batches. Not one transaction: a
 * restore that stops half-way leaves a partial database, and running it again starts by emptying it.
 */
export async function importTables(db: PlatformDb, exported: DatabaseExport): Promise<void> {
  const statements = restoreStatements(parseExport(exported));
  for (let start = 0; start < statements.length; start += RESTORE_BATCH) {
    // Values written in: a raw statement with bound values cannot join a D1 batch (Drizzle prepares only its own).
    const chunk = statements.slice(start, start + RESTORE_BATCH).map((statement) => db.run(sql.raw(inlined(statement))));
    await db.batch(chunk as [(typeof chunk)[number], ...typeof chunk]);
  }
}

/** A statement with its values written in as SQL literals (for a batch, and for a file that `wrangler d1 execute --file` runs). */
export function inlined({ sql: text, args }: RestoreStatement): string {
  let index = 0;
  return text.replace(/\?/g, () => literal(args[index++]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot restore the number ${value}`);
    return String(value);
  }
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return `'${value.replaceAll("'", "''")}'`;
  throw new Error(`Cannot restore a value of type ${typeof value}`);
}
