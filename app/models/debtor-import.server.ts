import { and, asc, count, eq, gt, sql } from "drizzle-orm";
import { chunk } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { debtors } from "~/db/schema";
import { AccountCapReached, DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import type { ImportDebtor } from "~/domain/csv-import";
import { type CreateOptions, enforceCap } from "./account-caps.server";

/**
 * Rows per INSERT. Each statement binds only the owner, the time and one JSON array of its rows
 * (read back with json_each), so D1's 100 bound parameters are never near; 250 rows keep the JSON
 * well under D1's 2 MB per value.
 */
const ROWS_PER_INSERT = 250;

/** One slice of rows (?3, a JSON array of ImportDebtor with its optOutKey), in file order. */
const INSERT_DEBTORS = `
  INSERT INTO debtors (owner_id, kind, full_name, email, debt_cents, currency, active_strategy, paid_cents,
    status, time_zone, invoice_number, opt_out_key, created_at, updated_at)
  SELECT ?1, json_extract(value, '$.kind'), json_extract(value, '$.fullName'), json_extract(value, '$.email'),
    json_extract(value, '$.debtCents'), json_extract(value, '$.currency'), json_extract(value, '$.activeStrategy'), 0,
    'active', json_extract(value, '$.timeZone'), json_extract(value, '$.invoiceNumber'),
    json_extract(value, '$.optOutKey'), ?2, ?2
  FROM json_each(?3) ORDER BY key
  RETURNING id`;

/** An 'imported' event for each new row of a slice, found by its unique opt-out key (?4, a JSON array). */
const INSERT_EVENTS = `
  INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at)
  SELECT owner_id, id, 'imported', ?2, ?3 FROM debtors
  WHERE opt_out_key IN (SELECT value FROM json_each(?4)) AND owner_id = ?1`;

/** The lower-cased addresses of the owner's debtors (duplicates of an import are skipped). */
export async function existingDebtorEmails(db: Db, ownerId: string): Promise<Set<string>> {
  const rows = await db
    .select({ email: sql<string>`lower(${debtors.email})` })
    .from(debtors)
    .where(eq(debtors.ownerId, ownerId));
  return new Set(rows.map((r) => r.email));
}

/**
 * Adds the owner's imported debtors, all or none: refused with AccountCapReached (nothing written)
 * when they would take the account past `max` debtors. One batch (one transaction) inserts every
 * row and an 'imported' timeline event for each; the cap is checked again against concurrent
 * creates afterwards (enforceCap deletes the rows, and their events with them, if they no longer fit).
 * Returns how many were added.
 */
export async function importDebtors(
  db: Db,
  ownerId: string,
  rows: readonly ImportDebtor[],
  options: CreateOptions & { detail?: string } = {},
): Promise<number> {
  if (rows.length === 0) return 0;
  const max = options.max ?? DEFAULT_ACCOUNT_CAPS.debtors;
  const now = options.now ?? Date.now();
  const existing = await db.select({ n: count() }).from(debtors).where(eq(debtors.ownerId, ownerId)).get();
  if ((existing?.n ?? 0) + rows.length > max) throw new AccountCapReached("debtors", max);

  const slices = chunk(
    rows.map((r) => ({ ...r, optOutKey: crypto.randomUUID().replaceAll("-", "") })),
    ROWS_PER_INSERT,
  );
  // D1's own statements: drizzle cannot batch raw SQL with parameters, and its INSERT … SELECT
  // would have to name every column of the table.
  const d1 = db.$client;
  const statements = slices.flatMap((slice) => [
    d1.prepare(INSERT_DEBTORS).bind(ownerId, now, JSON.stringify(slice)),
    d1.prepare(INSERT_EVENTS).bind(ownerId, options.detail ?? "", now, JSON.stringify(slice.map((r) => r.optOutKey))),
  ]);
  const results = await d1.batch<{ id: number }>(statements);
  const ids = results.filter((_, i) => i % 2 === 0).flatMap((r) => r.results.map((row) => row.id));
  await enforceCap(db, "debtors", ownerId, ids, max);
  return ids.length;
}

/** The most debtors one export holds (an account keeps far fewer: ACCOUNT_MAX_DEBTORS). */
export const MAX_EXPORT_DEBTORS = 10_000;
const EXPORT_PAGE = 1000;

/**
 * The owner's debtors for the CSV export, oldest first: read in pages through the index on
 * (owner_id, id), each page after the last id of the one before.
 */
export async function debtorsForExport(db: Db, ownerId: string, max = MAX_EXPORT_DEBTORS) {
  const rows: (typeof debtors.$inferSelect)[] = [];
  let after = 0;
  while (rows.length < max) {
    const page = await db
      .select()
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), gt(debtors.id, after)))
      .orderBy(asc(debtors.id))
      .limit(Math.min(EXPORT_PAGE, max - rows.length));
    rows.push(...page);
    const last = page.at(-1);
    if (!last || page.length < EXPORT_PAGE) break;
    after = last.id;
  }
  return rows;
}
