import { and, getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { ACCOUNT_TABLES, type AccountKey, type AccountTable } from "./tables.server";

/**
 * "Export my data" (docs/architecture.md §6, "Leaving"; docs/decisions/023): one JSON document
 * holding every row the account owns, streamed as it is read so an account of any size fits in a
 * Worker's memory:
 *
 *   {"format":"dunly-export","version":1,"exportedAt":"<ISO instant>","tables":{
 *   "users":[{…}],
 *   "debtors":[{…},
 *   {…}],
 *   …}}
 *
 * One array per table of ACCOUNT_TABLES (named as the SQL table, users first), one object per row
 * (the schema's field names; times in epoch milliseconds as stored), one row per line. A table
 * that holds only secrets is left out, and so are the secret columns of the others (the
 * session's token hash, the debtor's link key): never a password hash, token or signing key.
 * Each table is read in pages of ROWS_PER_PAGE by rowid (keyset: every page is one indexed range,
 * however deep), one page per pull of the stream, so only one page is ever held.
 */

export const ROWS_PER_PAGE = 500;
export const EXPORT_FORMAT = "dunly-export";
export const EXPORT_VERSION = 1;

/** The tables in the export, in its order: the account itself first, then what hangs off it. */
export const EXPORTED_TABLES: readonly AccountTable[] = [...ACCOUNT_TABLES]
  .reverse()
  .filter((t) => "omit" in t.exported);

function exportedColumns(t: AccountTable) {
  const omit = "omit" in t.exported ? t.exported.omit : [];
  const columns: Record<string, unknown> = {};
  for (const [name, column] of Object.entries(getTableColumns(t.table))) {
    if (!omit.includes(name)) columns[name] = column;
  }
  return columns as ReturnType<typeof getTableColumns>;
}

/** One page of a table's rows of the account after `after` (a rowid), with each row's rowid. */
async function page(db: Db, t: AccountTable, where: SQL, after: number) {
  const rows = await db
    .select({ ...exportedColumns(t), _rowid: sql<number>`rowid` })
    .from(t.table)
    .where(and(where, sql`rowid > ${after}`))
    .orderBy(sql`rowid`)
    .limit(ROWS_PER_PAGE);
  return rows as (Record<string, unknown> & { _rowid: number })[];
}

/** The export as a byte stream (see above); read errors end the stream with that error. */
export function exportStream(db: Db, account: AccountKey, now = Date.now()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const key = { id: account.id, email: account.email.toLowerCase() };
  let started = false;
  let index = 0;
  let after = 0;
  let rowsInTable = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!started) {
            started = true;
            const head = { format: EXPORT_FORMAT, version: EXPORT_VERSION, exportedAt: new Date(now).toISOString() };
            controller.enqueue(encoder.encode(`${JSON.stringify(head).slice(0, -1)},"tables":{`));
            return;
          }
          const t = EXPORTED_TABLES[index];
          if (!t) {
            controller.enqueue(encoder.encode("}}\n"));
            controller.close();
            return;
          }
          let text =
            after === 0 && rowsInTable === 0
              ? `${index > 0 ? "," : ""}\n${JSON.stringify(getTableName(t.table))}:[`
              : "";
          const rows = await page(db, t, t.rows(key), after);
          for (const { _rowid, ...row } of rows) {
            text += `${rowsInTable > 0 ? "," : ""}\n${JSON.stringify(row)}`;
            rowsInTable++;
            after = _rowid;
          }
          if (rows.length < ROWS_PER_PAGE) {
            text += "]";
            index++;
            after = 0;
            rowsInTable = 0;
          }
          controller.enqueue(encoder.encode(text));
        } catch (error) {
          console.error("[dunly] export failed part way", error);
          controller.error(error);
        }
      },
    },
    // One page waits at most: the next is read when the client has taken this one.
    { highWaterMark: 1 },
  );
}
