import { and, asc, eq, getTableColumns, gte, lt, sql } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { deliveries, deliveryArchives } from "~/db/schema";
import { archiveCutoff, archiveObjectKey, monthOf, monthRange } from "~/domain/archive-months";

/**
 * Bounded deliveries (docs/decisions/022): on the cron trigger, every
 * delivery older than 13 months moves to one NDJSON file per account and UTC month in the ARCHIVE
 * bucket, and is counted in delivery_rollups (per debtor, month, status, test send or not and
 * schedule), so the report's totals, the lists' "sent" counts and the timeline still count it. delivery_status_counts (the report's all-time
 * totals) keeps counting it: the batch that deletes the rows adds them back there first.
 */

/** Rows one statement reads while a month's file is written. */
export const ARCHIVE_PAGE = 1000;

/** Most rows one run moves (a month's file is finished even past it); the rest go on the next run. */
export const MAX_ARCHIVE_ROWS_PER_RUN = 50_000;

export interface ArchiveRun {
  files: number;
  rows: number;
}

/** The oldest live delivery made before `cutoff`, any account's: one step down deliveries (created_at). */
async function oldestBefore(db: Db, cutoff: number) {
  const [row] = await db
    .select({ ownerId: deliveries.ownerId, createdAt: deliveries.createdAt })
    .from(deliveries)
    .where(lt(deliveries.createdAt, cutoff))
    .orderBy(asc(deliveries.createdAt))
    .limit(1);
  return row;
}

/**
 * Moves deliveries older than 13 months (archiveCutoff) to the archive, oldest month first, until
 * none is left or about `maxRows` moved. Returns how many files were written and rows moved.
 */
export async function archiveOldDeliveries(
  db: Db,
  bucket: R2Bucket,
  now = Date.now(),
  maxRows = MAX_ARCHIVE_ROWS_PER_RUN,
): Promise<ArchiveRun> {
  const cutoff = archiveCutoff(now);
  const run = { files: 0, rows: 0 };
  while (run.rows < maxRows) {
    const oldest = await oldestBefore(db, cutoff);
    if (!oldest) break;
    const moved = await archiveMonth(db, bucket, oldest.ownerId, monthOf(oldest.createdAt), now);
    // Never the case (the oldest row is in its own month); a guard against looping on it.
    if (moved === 0) break;
    run.rows += moved;
    run.files += 1;
  }
  return run;
}

/** Every column of a delivery: the archive keeps the whole row. */
type DeliveryRow = typeof deliveries.$inferSelect;

/**
 * Moves one account's deliveries of one month (all of it older than the cut-off) to its file:
 * reads them in pages (deliveries (owner_id, created_at, id)), writes the file (after what an
 * earlier run put there, when there is one), then in one D1 batch, a transaction: checks that
 * exactly the rows written are still there (a statement that fails otherwise, undoing the batch),
 * adds them to the rollups and back to the status counts, records the file and deletes them.
 * A run that stops between the file and the batch leaves the rows live; the next run writes the
 * same file again. Returns the rows moved.
 */
export async function archiveMonth(db: Db, bucket: R2Bucket, ownerId: string, month: string, now = Date.now()) {
  const { from, before } = monthRange(month);
  const inMonth = and(
    eq(deliveries.ownerId, ownerId),
    gte(deliveries.createdAt, from),
    lt(deliveries.createdAt, before),
  );
  // Each page is encoded at once: the file is held once as bytes, then once more joined for R2
  // (which needs its length), about 300 bytes a row (docs/decisions/022).
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let moved = 0;
  let after: { createdAt: number; id: number } | null = null;
  for (;;) {
    const page: DeliveryRow[] = await db
      .select(getTableColumns(deliveries))
      .from(deliveries)
      .where(
        after
          ? and(inMonth, sql`(${deliveries.createdAt}, ${deliveries.id}) > (${after.createdAt}, ${after.id})`)
          : inMonth,
      )
      .orderBy(asc(deliveries.createdAt), asc(deliveries.id))
      .limit(ARCHIVE_PAGE);
    if (page.length > 0) chunks.push(encoder.encode(page.map((row) => `${JSON.stringify(row)}\n`).join("")));
    moved += page.length;
    const last = page.at(-1);
    if (!last || page.length < ARCHIVE_PAGE) break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  if (moved === 0) return 0;

  const key = archiveObjectKey(ownerId, month);
  const [earlier] = await db
    .select({ rows: deliveryArchives.rows })
    .from(deliveryArchives)
    .where(and(eq(deliveryArchives.ownerId, ownerId), eq(deliveryArchives.month, month)));
  // Rows of this month archived before (only rows made with an old time, such as an import, can
  // come after a month was archived): the file keeps them first.
  const prior = earlier ? await (await bucket.get(key))?.arrayBuffer() : undefined;
  if (prior) chunks.unshift(new Uint8Array(prior));
  const body = new Uint8Array(chunks.reduce((sum, c) => sum + c.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks.splice(0)) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  await bucket.put(key, body, {
    httpMetadata: { contentType: "application/x-ndjson; charset=utf-8" },
    customMetadata: { rows: String((earlier?.rows ?? 0) + moved) },
  });

  // Raw D1 statements (drizzle batches only its query builders): ?1 owner, ?2 and ?3 the month's range.
  const d1 = db.$client;
  const where = "owner_id = ?1 AND created_at >= ?2 AND created_at < ?3";
  const testSend = "occurrence_key >= 'test:' AND occurrence_key < 'test;'";
  const range = [ownerId, from, before] as const;
  await d1.batch([
    // json() of text that is no JSON fails the statement and the batch with it: nothing moves
    // when the month's rows changed since they were written.
    d1
      .prepare(
        `SELECT CASE WHEN (SELECT count(*) FROM deliveries WHERE ${where}) = ?4 THEN 1 ELSE json('archive: the rows changed') END`,
      )
      .bind(...range, moved),
    d1
      .prepare(
        `INSERT INTO delivery_rollups (owner_id, debtor_id, month, status, test_send, schedule_id, n)
         SELECT owner_id, debtor_id, ?4, status, ${testSend}, coalesce(schedule_id, ''), count(*)
         FROM deliveries WHERE ${where}
         GROUP BY debtor_id, status, ${testSend}, coalesce(schedule_id, '')
         ON CONFLICT (owner_id, debtor_id, month, status, test_send, schedule_id) DO UPDATE SET n = n + excluded.n`,
      )
      .bind(...range, month),
    // The delete trigger takes each row off the owner's status counts; the report's all-time
    // totals still count it: it is added back first.
    d1
      .prepare(
        `INSERT INTO delivery_status_counts (owner_id, status, n)
         SELECT owner_id, status, count(*) FROM deliveries WHERE ${where} GROUP BY status
         ON CONFLICT (owner_id, status) DO UPDATE SET n = n + excluded.n`,
      )
      .bind(...range),
    // The texts' own counts likewise (decisions/070).
    d1
      .prepare(
        `INSERT INTO text_status_counts (owner_id, status, n)
         SELECT owner_id, status, count(*) FROM deliveries WHERE ${where} AND channel = 'text' GROUP BY status
         ON CONFLICT (owner_id, status) DO UPDATE SET n = n + excluded.n`,
      )
      .bind(...range),
    d1
      .prepare(
        `INSERT INTO delivery_archives (owner_id, month, object_key, rows, bytes, archived_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (owner_id, month) DO UPDATE SET
           rows = excluded.rows, bytes = excluded.bytes, archived_at = excluded.archived_at`,
      )
      .bind(ownerId, month, key, (earlier?.rows ?? 0) + moved, body.byteLength, now),
    d1.prepare(`DELETE FROM deliveries WHERE ${where}`).bind(...range),
  ]);
  return moved;
}

/** The account's archived months, newest first, with their row counts (the owner's download list). */
export function archivedMonths(db: Db, ownerId: Bindable<string>) {
  return db
    .select({ month: deliveryArchives.month, rows: deliveryArchives.rows })
    .from(deliveryArchives)
    .where(eq(deliveryArchives.ownerId, ownerId))
    .orderBy(sql`${deliveryArchives.month} DESC`);
}
