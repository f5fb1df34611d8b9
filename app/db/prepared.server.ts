import { fillPlaceholders, sql } from "drizzle-orm";
import type { Db } from "./client.server";

/**
 * A query ready to run alone or in a D1 batch: its bound statement and how to turn D1's answer into
 * the rows drizzle would have given.
 */
export interface Bound<T> {
  readonly statement: D1PreparedStatement;
  /** D1's result of `statement` (from a batch or `statement.all()`) as drizzle's rows. */
  map(result: unknown): T;
}

/** What a drizzle select (or a query builder ending in one) offers: prepare, and its rows when awaited. */
interface Preparable<T> extends PromiseLike<T> {
  prepare(): {
    getQuery(): { sql: string; params: unknown[] };
    mapResult(response: unknown, isFromBatch?: boolean): unknown;
  };
}

interface Cached {
  prepared: ReturnType<Preparable<unknown>["prepare"]>;
  statement: D1PreparedStatement;
  params: unknown[];
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
 * (docs/architecture.md §12): drizzle's query building (`sql`, `is`, `buildQueryFromSourceParams`…) was a tenth
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
      cached = { prepared, statement: db.$client.prepare(sql), params };
      cache.set(db.$client, cached);
    }
    const { prepared, statement, params } = cached;
    return {
      statement: statement.bind(...fillPlaceholders(params, values)),
      map: (result) => prepared.mapResult(result, true) as T,
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
    statement: db.$client.prepare(sql).bind(...params),
    map: (result) => prepared.mapResult(result, true) as T,
  };
}

type Rows<T extends readonly Bound<unknown>[]> = { -readonly [K in keyof T]: T[K] extends Bound<infer R> ? R : never };

/** The queries in one D1 batch (one round trip; they run as one: one failing fails them all). */
export async function runBatch<T extends readonly Bound<unknown>[]>(db: Db, queries: T): Promise<Rows<T>> {
  const results = await db.$client.batch(queries.map((q) => q.statement));
  return queries.map((q, i) => q.map(results[i])) as Rows<T>;
}

/** One query on its own. */
export async function runBound<T>(query: Bound<T>): Promise<T> {
  return query.map(await query.statement.all());
}
