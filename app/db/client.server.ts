import type { Placeholder as BindParam } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";

/** A drizzle client over a D1 binding, without a schema. */
function newDb(d1: D1Database) {
  return drizzle(d1);
}

export type Db = ReturnType<typeof newDb>;

/**
 * A query's value, or a named bind parameter (`bindParam`) that a query prepared once per isolate
 * is given on each request (app/db/prepared.server.ts `preparedQuery`).
 */
export type Bindable<T> = T | BindParam;

/**
 * A drizzle client over the D1 binding. Cheap: it holds no connection. Built without the schema:
 * nothing uses drizzle's relational queries (`db.query.*`), and with the schema every request paid
 * for walking all tables' relations (about 0.4 ms, a tenth of a trivial request).
 */
export function getDb(d1: D1Database) {
  let db = clients.get(d1);
  if (!db) {
    db = newDb(d1);
    clients.set(d1, db);
  }
  return db;
}

/**
 * One drizzle client per D1 binding, kept for the isolate's life: it holds no state of a request
 * (no logger, no transaction), and making it anew cost every request its setup.
 */
const clients = new WeakMap<D1Database, Db>();

/** The count of a `select({ n: count() })` query's rows (a count query batched or awaited unrun). */
export function countOf(rows: { n: number }[]): number {
  return rows[0]?.n ?? 0;
}
