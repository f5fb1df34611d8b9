import type { Column, Table } from "drizzle-orm";

/** A column's value as stored: JSON-mode text is still a string, timestamp and boolean modes still numbers. */
type Stored<C extends Column> = C["_"]["dataType"] extends "json" | "boolean" | "date"
  ? C["_"]["driverParam"]
  : C["_"]["data"];

type Raw<C extends Column> = C["_"]["notNull"] extends true ? Stored<C> : Stored<C> | null;

/**
 * A row of a drizzle table as raw SQL through D1 returns it (`SELECT * … .first<RawRow<typeof t>>()`):
 * keyed by the SQL column names (owner_id, debt_cents …), with the values as stored.
 */
export type RawRow<T extends Table> = {
  [K in keyof T["_"]["columns"] as T["_"]["columns"][K]["_"]["name"]]: Raw<T["_"]["columns"][K]>;
};
