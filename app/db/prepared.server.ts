import { Column, fillPlaceholders, getTableName, is, SQL, Subquery, sql } from "drizzle-orm";
import type { Db } from "./client.server";

/**
 * A query ready to run alone or in a D1 batch: its bound statement and how to turn D1's answer into
 * the rows drizzle would have given.
 */
export interface Bound<T> {
  /** Its SQL and its values, in order (one a `?`): SESSION_OWNER where the session's user goes. */
  readonly sql: string;
  readonly params: readonly unknown[];
  /** The statement prepared for `sql` (kept per isolate for a prepared query), not yet bound. */
  readonly prepared: D1PreparedStatement;
  /** Where each `?` of `sql` is (for `ownedBySession`): worked out once per prepared query. */
  paramMarks(): readonly number[];
  /** D1's result of the statement (from a batch or `statement.all()`) as drizzle's rows. */
  map(result: unknown): T;
}

/**
 * The owner's value in a query built before the session is read (a page that reads the session in
 * its own batch: app/auth/session-gate.server.ts, docs/decisions/025). It never reaches D1: a batch
 * given the session's user binds that user's id in its place, and a batch that reads the session
 * itself puts the session's user subquery there (`ownedBySession`). A statement still holding it
 * is refused.
 */
export const SESSION_OWNER = "\u0000the session's user";

/** What a drizzle select (or a query builder ending in one) offers: prepare, and its rows when awaited. */
interface Preparable<T> extends PromiseLike<T> {
  prepare(): {
    getQuery(): { sql: string; params: unknown[] };
    mapResult(response: unknown, isFromBatch?: boolean): unknown;
  };
}

type Prepared = ReturnType<Preparable<unknown>["prepare"]>;

interface Cached {
  sql: string;
  statement: D1PreparedStatement;
  params: unknown[];
  map: (result: unknown) => unknown;
  /** Where each `?` of `sql` is (paramMarksOf), worked out when first asked for. */
  paramMarks?: number[];
}

/** What drizzle's D1 prepared query keeps to map its rows (fields of its own, not typed as public). */
interface PreparedInternals {
  executeMethod?: string;
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/**
 * How D1's answer to a prepared query becomes drizzle's rows, worked out once per query: each
 * column's decoder and place in the row, as drizzle's own mapResultRow does for every row and every
 * column again (its `is` checks were the largest single cost of mapping a page's rows). The same rows: decoded values, nested objects for `{ a: { b } }` selections,
 * and a left-joined table whose columns are all null given as null. A query this does not cover
 * (not a select of rows, a custom mapper) keeps drizzle's mapping.
 */
export function rowMapper(prepared: Prepared): (result: unknown) => unknown {
  const internals = prepared as unknown as PreparedInternals;
  const { executeMethod, fields, joinsNotNullableMap, customResultMapper } = internals;
  if (!fields || customResultMapper || executeMethod !== "all") {
    return (result) => prepared.mapResult(result, true);
  }
  const columns = fields.map(({ path, field }) => {
    // An SQL's decoder (`.mapWith`) is drizzle's own field, not typed as public.
    const decoderOf = (q: SQL) => (q as unknown as { decoder: Decoder }).decoder;
    let decoder: Decoder;
    if (is(field, Column)) decoder = field;
    else if (is(field, SQL)) decoder = decoderOf(field);
    else if (is(field, Subquery)) decoder = decoderOf((field as unknown as { _: { sql: SQL } })._.sql);
    else decoder = decoderOf((field as SQL.Aliased).sql);
    // A column of a joined table (`{ table: { column } }`): what tells a left join's missing row.
    const table = joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : null;
    return { path, decoder, table };
  });
  const nested = columns.some((c) => c.path.length > 1);
  const mapRow = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    if (!nested) {
      for (let i = 0; i < columns.length; i += 1) {
        const raw = values[i];
        row[columns[i].path[0]] = raw === null ? null : columns[i].decoder.mapFromDriverValue(raw);
      }
      return row;
    }
    const nullify: Record<string, string | false> = {};
    for (let i = 0; i < columns.length; i += 1) {
      const { path, decoder, table } = columns[i];
      let node = row;
      for (let j = 0; j < path.length - 1; j += 1) {
        node[path[j]] ??= {};
        node = node[path[j]] as Record<string, unknown>;
      }
      const raw = values[i];
      const value = raw === null ? null : decoder.mapFromDriverValue(raw);
      node[path[path.length - 1]] = value;
      if (table !== null) {
        const object = path[0];
        if (!(object in nullify)) nullify[object] = value === null ? table : false;
        else if (typeof nullify[object] === "string" && nullify[object] !== table) nullify[object] = false;
      }
    }
    for (const [object, table] of Object.entries(nullify)) {
      if (typeof table === "string" && !joinsNotNullableMap?.[table]) row[object] = null;
    }
    return row;
  };
  // D1 answers objects keyed by column name, in the select's order (drizzle reads them the same way).
  return (result) =>
    ((result as { results?: Record<string, unknown>[] }).results ?? []).map((r) => mapRow(Object.values(r)));
}

/**
 * A named bind parameter of a prepared query: a `?` in its SQL, given its value by name on each
 * call (drizzle's `sql.placeholder`). A call without it throws.
 */
export function bindParam(name: string) {
  return sql.placeholder(name);
}

/** The signed-in owner, bound on each request: every prepared query's first condition. */
export const OWNER_ID = bindParam("ownerId");

/**
 * A query of fixed shape built once per isolate (per D1 binding) instead of on every request
 *: drizzle's query building (`sql`, `is`, `buildQueryFromSourceParams`…) was a tenth
 * of a page's Worker time. `build` uses a `bindParam(name)` for every value that changes; the
 * returned function binds them by name. Its answer runs in a batch (`runBatch`) or alone
 * (`runBound`). Use it only for queries whose SQL does not depend on the values (no optional
 * filters or sorts).
 */
export function preparedQuery<T>(build: (db: Db) => Preparable<T>) {
  const cache = new WeakMap<object, Cached>();
  return (db: Db, values: Record<string, unknown>): Bound<T> => {
    let cached = cache.get(db.$client);
    if (!cached) {
      const prepared = build(db).prepare();
      const { sql, params } = prepared.getQuery();
      cached = { sql, statement: db.$client.prepare(sql), params, map: rowMapper(prepared) };
      cache.set(db.$client, cached);
    }
    const kept = cached;
    return {
      sql: kept.sql,
      params: fillPlaceholders(kept.params, values),
      prepared: kept.statement,
      paramMarks: () => {
        kept.paramMarks ??= paramMarksOf(kept.sql);
        return kept.paramMarks;
      },
      map: kept.map as (result: unknown) => T,
    };
  };
}

/**
 * Like preparedQuery, for a query that takes one of a few shapes (a list's sort and direction, with
 * or without one debtor): each shape is built once per isolate, keyed by `key(shape)`. The shapes
 * must be few and bounded (never a value a user typed); values are bound by name as there.
 */
export function preparedQueryBy<S, T>(key: (shape: S) => string, build: (db: Db, shape: S) => Preparable<T>) {
  const cache = new WeakMap<object, Map<string, (db: Db, values: Record<string, unknown>) => Bound<T>>>();
  return (db: Db, shape: S, values: Record<string, unknown>): Bound<T> => {
    let shapes = cache.get(db.$client);
    if (!shapes) {
      shapes = new Map();
      cache.set(db.$client, shapes);
    }
    const k = key(shape);
    let query = shapes.get(k);
    if (!query) {
      query = preparedQuery((d) => build(d, shape));
      shapes.set(k, query);
    }
    return query(db, values);
  };
}

/** A query built on this request (its SQL depends on the values), to run in a batch with prepared ones. */
export function boundQuery<T>(db: Db, query: Preparable<T>): Bound<T> {
  const prepared = query.prepare();
  const { sql, params } = prepared.getQuery();
  return {
    sql,
    params,
    prepared: db.$client.prepare(sql),
    paramMarks() {
      return paramMarksOf(this.sql);
    },
    map: rowMapper(prepared) as (result: unknown) => T,
  };
}

export type Rows<T extends readonly Bound<unknown>[]> = {
  -readonly [K in keyof T]: T[K] extends Bound<infer R> ? R : never;
};

/**
 * The statement of `query`, its SESSION_OWNER values bound to `ownerId`. Without an owner, a query
 * that holds SESSION_OWNER is refused: it would run for no one (or, worse, for a guessed id).
 */
export function statementOf(query: Bound<unknown>, ownerId?: string): D1PreparedStatement {
  const owned = query.params.includes(SESSION_OWNER);
  if (owned && ownerId === undefined) throw new Error("a query for the session's user run without its owner");
  return query.prepared.bind(...(owned ? query.params.map((p) => (p === SESSION_OWNER ? ownerId : p)) : query.params));
}

/**
 * Where each `?` of an SQL text is, outside quoted strings and names. A prepared query keeps its
 * answer with its statement (`Bound.paramMarks`); a query built on the request works it out then.
 */
function paramMarksOf(sql: string): number[] {
  const at: number[] = [];
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i += 1) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if (ch === "?") at.push(i);
  }
  return at;
}

/**
 * `query` for the user of a session read in the same batch: each SESSION_OWNER value becomes
 * `ownerSql` (an SQL expression: the session's user subquery) with its own values `ownerParams`,
 * so the statement reads only what the session's user owns, and nothing when the session is
 * unknown or expired (docs/decisions/025). The SQL must have one `?` per value.
 */
export function ownedBySession(
  db: Db,
  query: Bound<unknown>,
  ownerSql: string,
  ownerParams: readonly unknown[],
): D1PreparedStatement {
  if (!query.params.includes(SESSION_OWNER)) return statementOf(query);
  const at = query.paramMarks();
  if (at.length !== query.params.length) {
    throw new Error(
      `cannot scope a statement to the session: ${at.length} question marks for ${query.params.length} values`,
    );
  }
  let sql = "";
  let from = 0;
  const params: unknown[] = [];
  for (let i = 0; i < at.length; i += 1) {
    sql += query.sql.slice(from, at[i]);
    from = at[i] + 1;
    if (query.params[i] === SESSION_OWNER) {
      sql += ownerSql;
      params.push(...ownerParams);
    } else {
      sql += "?";
      params.push(query.params[i]);
    }
  }
  sql += query.sql.slice(from);
  return db.$client.prepare(sql).bind(...params);
}

/**
 * The queries in one D1 batch (one round trip; they run as one: one failing fails them all).
 * `ownerId`: the user whose id goes where a query holds SESSION_OWNER.
 */
export async function runBatch<T extends readonly Bound<unknown>[]>(
  db: Db,
  queries: T,
  ownerId?: string,
): Promise<Rows<T>> {
  const results = await db.$client.batch(queries.map((q) => statementOf(q, ownerId)));
  return queries.map((q, i) => q.map(results[i])) as Rows<T>;
}

/** One query on its own (`ownerId` as runBatch's). */
export async function runBound<T>(query: Bound<T>, ownerId?: string): Promise<T> {
  return query.map(await statementOf(query, ownerId).all());
}
