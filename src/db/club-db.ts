import type { ResultSet } from '@libsql/client';
import { and, eq, getTableColumns, getTableName, is, type SQL, sql } from 'drizzle-orm';
import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import { type SQLiteColumn, type SQLiteInsertBase, type SQLiteInsertBuilder, type SQLiteInsertValue, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type * as schema from './schema';
import { clubs } from './schema/clubs';
import { instanceMeta } from './schema/platform';

/** Drizzle's database on either driver, unscoped: only `db/` holds one (docs/decisions/071). */
export type RawDb = LibSQLDatabase<typeof schema>;

declare const clubIdBrand: unique symbol;
/** The id of a club, as only the club directory and the handle hand it out. */
export type ClubId = number & { readonly [clubIdBrand]: true };

declare const platformBrand: unique symbol;
/**
 * The whole database, every club's rows: for the work that is the deployment's and no club's (migrations,
 * the club directory, backups, the health check). A service of a club never receives one (docs/decisions/071).
 */
export type PlatformDb = RawDb & { readonly [platformBrand]: true };

/** A table a club owns: it has a `club_id` column. */
type ClubTable = SQLiteTable & { clubId: SQLiteColumn };

/** A row to insert through the handle: everything but the owner, which the handle fills in. */
type ClubInsertValue<T extends SQLiteTable> = Omit<SQLiteInsertValue<T>, 'clubId'>;

interface ClubInsertBuilder<T extends SQLiteTable> extends Omit<SQLiteInsertBuilder<T, 'async', ResultSet>, 'values'> {
  values(value: ClubInsertValue<T>): SQLiteInsertBase<T, 'async', ResultSet>;
  values(values: ClubInsertValue<T>[]): SQLiteInsertBase<T, 'async', ResultSet>;
}

/**
 * docs/decisions/071: the one way a service reaches the database. Every query it builds on a club's table is
 * limited to the club: a select's FROM and each joined table, an update's and a delete's rows, and the owner of
 * every inserted row. Raw SQL (`run`, `all`) is not offered, so an unscoped query does not compile.
 */
export interface ClubDb extends Pick<RawDb, 'select' | 'selectDistinct' | 'update' | 'delete' | 'batch'> {
  readonly clubId: ClubId;
  insert<T extends ClubTable>(table: T): ClubInsertBuilder<T>;
}

/**
 * The condition that keeps a query on the club's own rows of `source`; null for a subquery or plain SQL, and for
 * reading the deployment's facts (instance_meta: key fingerprints, no club's data), which a club may not write.
 */
function ownRows(source: unknown, clubId: ClubId, access: 'read' | 'write' = 'write'): SQL | null {
  if (!is(source, SQLiteTable)) return null;
  if (access === 'read' && getTableName(source) === getTableName(instanceMeta)) return null;
  // A club reads and renames its own row of the clubs table, and no other.
  if (getTableName(source) === getTableName(clubs)) return eq(clubs.id, clubId);
  const owner = (getTableColumns(source) as Record<string, SQLiteColumn>).clubId;
  if (!owner) throw new Error(`${getTableName(source)} is no club's table: it is reached through the platform, not a club's handle`);
  return eq(owner, clubId);
}

type Where = SQL | undefined | ((...args: never[]) => SQL | undefined);
interface Filterable {
  where(where: Where): unknown;
}

/** Sets the club's condition and makes every later `where` add to it instead of replacing it. */
function keepWithinClub<Q extends Filterable>(query: Q, condition: SQL): Q {
  const setWhere = query.where.bind(query);
  setWhere(condition);
  query.where = (where: Where) => setWhere(typeof where === 'function' ? (...args: never[]) => and(condition, where(...args)) : and(condition, where));
  return query;
}

const JOINS = ['leftJoin', 'rightJoin', 'innerJoin', 'fullJoin'] as const;
type Join = (table: unknown, on: Where) => unknown;

/**
 * A select from a club's table: its rows and every joined table's are the club's. A join with an ON clause gets the
 * club there; a cross join has none, so its table's club goes into the WHERE with the FROM table's.
 */
function scopeSelect<Q extends Filterable>(query: Q, source: unknown, clubId: ClubId): Q {
  const joins = query as unknown as Record<(typeof JOINS)[number], Join> & { crossJoin: (table: unknown) => unknown };
  for (const name of JOINS) {
    const join = joins[name].bind(query);
    joins[name] = (table, on) => {
      const own = ownRows(table, clubId, 'read');
      if (!own) return join(table, on);
      return join(table, typeof on === 'function' ? (...args: never[]) => and(on(...args), own) : and(on, own));
    };
  }
  const crossJoin = joins.crossJoin.bind(query);
  let crossed: SQL | null = null;
  joins.crossJoin = (table) => {
    const result = crossJoin(table);
    const own = ownRows(table, clubId, 'read');
    if (own) {
      crossed = crossed ? and(crossed, own)! : own;
      query.where(later);
    }
    return result;
  };
  const own = ownRows(source, clubId, 'read');
  const setWhere = query.where.bind(query);
  // The service's own condition, ANDed with the club's whenever either changes.
  let later: Where;
  query.where = (where: Where) => {
    later = where;
    const condition = and(own ?? undefined, crossed ?? undefined);
    if (!condition) return setWhere(where);
    return setWhere(typeof where === 'function' ? (...args: never[]) => and(condition, where(...args)) : and(condition, where));
  };
  if (own) query.where(undefined);
  return query;
}

function withOwner(row: object, clubId: ClubId): object {
  return { ...row, clubId };
}

const handles = new WeakMap<RawDb, Map<ClubId, ClubDb>>();

/**
 * The handle of one club on the database (docs/decisions/071); one per club and database, so statements kept
 * prepared for it (db/statement-cache.ts) are reused by every request of the club.
 */
export function clubDb(raw: RawDb, clubId: ClubId): ClubDb {
  let byClub = handles.get(raw);
  if (!byClub) {
    byClub = new Map();
    handles.set(raw, byClub);
  }
  let handle = byClub.get(clubId);
  if (!handle) {
    handle = newClubDb(raw, clubId);
    byClub.set(clubId, handle);
  }
  return handle;
}

function newClubDb(raw: RawDb, clubId: ClubId): ClubDb {
  const selecting =
    (method: 'select' | 'selectDistinct') =>
    (...fields: unknown[]) => {
      const builder = (raw[method] as (...f: unknown[]) => { from(source: unknown): Filterable })(...fields);
      return new Proxy(builder, {
        get: (target, property) =>
          property === 'from' ? (source: unknown) => scopeSelect(target.from(source), source, clubId) : Reflect.get(target, property, target),
      });
    };
  const handle = {
    clubId,
    select: selecting('select'),
    selectDistinct: selecting('selectDistinct'),
    insert(table: ClubTable) {
      ownRows(table, clubId);
      const builder = raw.insert(table);
      return Object.assign(Object.create(builder) as object, {
        values: (values: object | object[]) =>
          builder.values((Array.isArray(values) ? values.map((row) => withOwner(row, clubId)) : withOwner(values, clubId)) as never),
      });
    },
    update(table: SQLiteTable) {
      const own = ownRows(table, clubId);
      const builder = raw.update(table);
      return {
        set: (values: Record<string, unknown>) => {
          // A row never moves to another club.
          const { clubId: _owner, ...rest } = values;
          const query = builder.set(rest as never) as unknown as Filterable;
          return own ? keepWithinClub(query, own) : query;
        },
      };
    },
    delete(table: SQLiteTable) {
      const own = ownRows(table, clubId);
      const query = raw.delete(table) as unknown as Filterable;
      return own ? keepWithinClub(query, own) : query;
    },
    batch: raw.batch.bind(raw),
  };
  return handle as unknown as ClubDb;
}

/** The platform's view of a database opened by a runtime entry. */
export function platformDb(raw: RawDb): PlatformDb {
  return raw as PlatformDb;
}

/** A club id read from the clubs table (or the first club's, 1). */
export function asClubId(id: number): ClubId {
  return id as ClubId;
}

/** The club a fresh install makes, which holds the data of a deployment from before there were clubs. */
export const FIRST_CLUB_ID = asClubId(1);

/**
 * The club's id as the first selected value of an INSERT … SELECT through the handle: Drizzle wants every column
 * of the table, in its order, and `club_id` comes first.
 */
export function ownerValue(db: ClubDb) {
  return sql<number>`${db.clubId}`.as('club_id');
}
