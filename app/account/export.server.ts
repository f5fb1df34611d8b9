import { and, asc, eq, getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { deliveryArchives } from "~/db/schema";
import { ACCOUNT_TABLES, type AccountKey, type AccountTable } from "./tables.server";

/**
 * "Export my data" (docs/decisions/023): one JSON document
 * holding every row the account owns, streamed as it is read so an account of any size fits in a
 * Worker's memory:
 *
 *   {"format":"dunly-export","version":1,"exportedAt":"<ISO instant>","tables":{
 *   "users":[{…}],
 *   "debtors":[{…},
 *   {…}],
 *   …},
 *   "archivedDeliveries":[{…},
 *   {…}]}
 *
 * One array per table of ACCOUNT_TABLES (named as the SQL table, users first), one object per row
 * (the schema's field names; times in epoch milliseconds as stored), one row per line. A table
 * that holds only secrets is left out, and so are the secret columns of the others (the
 * session's token hash, the debtor's link key): never a password hash, token or signing key.
 * Each table is read in keyset pages of ROWS_PER_PAGE in the order of one of its owner's indexes
 * (AccountTable.keyset; every page is one index range, however deep), one page per pull of the
 * stream, so only one page is ever held. Then every delivery moved to the archive (older than 13
 * months), one object per line as its month's file holds it, read a chunk of a file per pull.
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

/** The table's keyset (see AccountTable): its own, else rowid. */
const keysetOf = (t: AccountTable): readonly (SQLiteColumn | SQL)[] => t.keyset ?? [sql`rowid`];

const list = (items: readonly unknown[]) =>
  sql.join(
    items.map((v) => sql`${v}`),
    sql`, `,
  );

/** One page of a table's rows of the account after the keyset values `after` (null: from the start). */
async function page(db: Db, t: AccountTable, where: SQL, after: unknown[] | null) {
  const keys = keysetOf(t);
  const keyFields = Object.fromEntries(keys.map((k, i) => [`_k${i}`, sql`${k}`]));
  const rows = (await db
    .select({ ...exportedColumns(t), ...keyFields })
    .from(t.table)
    .where(and(where, after ? sql`(${list(keys)}) > (${list(after)})` : undefined))
    .orderBy(...keys.map((k) => sql`${k}`))
    .limit(ROWS_PER_PAGE)) as Record<string, unknown>[];
  let last: unknown[] | null = null;
  const plain = rows.map((row) => {
    const out: Record<string, unknown> = {};
    const key: unknown[] = [];
    for (const [name, value] of Object.entries(row)) {
      if (name.startsWith("_k")) key[Number(name.slice(2))] = value;
      else out[name] = value;
    }
    last = key;
    return out;
  });
  return { rows: plain, last };
}

/** The export as a byte stream (see above); read errors end the stream with that error. */
export function exportStream(
  db: Db,
  account: AccountKey,
  now = Date.now(),
  archive?: R2Bucket,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const key = { id: account.id, email: account.email.toLowerCase() };
  const archived = archivedLines(db, account.id, archive);
  let archivedCount = 0;
  let started = false;
  let index = 0;
  let after: unknown[] | null = null;
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
            // The tables are done: then the archived deliveries, a chunk of their files per pull.
            const next = await archived.next();
            if (next.done) {
              controller.enqueue(
                encoder.encode(`${index === EXPORTED_TABLES.length ? '},"archivedDeliveries":[' : ""}]}\n`),
              );
              controller.close();
              return;
            }
            let text = index === EXPORTED_TABLES.length ? '},"archivedDeliveries":[' : "";
            index = EXPORTED_TABLES.length + 1;
            for (const line of next.value) text += `${archivedCount++ > 0 ? "," : ""}\n${line}`;
            controller.enqueue(encoder.encode(text));
            return;
          }
          let text = rowsInTable === 0 ? `${index > 0 ? "," : ""}\n${JSON.stringify(getTableName(t.table))}:[` : "";
          const { rows, last } = await page(db, t, t.rows(key), after);
          for (const row of rows) {
            text += `${rowsInTable > 0 ? "," : ""}\n${JSON.stringify(row)}`;
            rowsInTable++;
          }
          after = last;
          if (rows.length < ROWS_PER_PAGE) {
            text += "]";
            index++;
            after = null;
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

/**
 * The account's archived deliveries (docs/decisions/022: deliveries older than 13 months live in
 * one NDJSON file per month in the ARCHIVE bucket), as batches of their lines, each line one
 * delivery as a JSON object: the files are read chunk by chunk, so a month of any size is never
 * held whole. Nothing without the bucket.
 */
async function* archivedLines(db: Db, ownerId: string, archive: R2Bucket | undefined): AsyncGenerator<string[]> {
  if (!archive) return;
  const months = await db
    .select({ objectKey: deliveryArchives.objectKey })
    .from(deliveryArchives)
    .where(eq(deliveryArchives.ownerId, ownerId))
    .orderBy(asc(deliveryArchives.month));
  for (const { objectKey } of months) {
    const object = await archive.get(objectKey);
    if (!object) continue;
    const reader = object.body.pipeThrough(new TextDecoderStream()).getReader();
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      const text = rest + (value ?? "");
      const lines = text.split("\n");
      rest = done ? "" : (lines.pop() ?? "");
      const complete = lines.filter((line) => line.trim() !== "");
      if (complete.length > 0) yield complete;
      if (done) break;
    }
  }
}
