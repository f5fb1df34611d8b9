import { and, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { deliveries, mailBatches } from "~/db/schema";
import { batchKeyOf } from "~/domain/mail-batch";
import { NOT_TEST_SEND } from "~/reminders/deliveries.server";
import type { ReadyJob } from "~/reminders/engine.server";

/**
 * The mail batches of docs/decisions/021-batch-sending.md: a batch is written (its jobs and key)
 * and its deliveries pinned to it before its first request, so that only this batch, under its key,
 * may ever send them again (each retry re-checks who may still get one: docs/decisions/045).
 */

/** A consumer holds a batch this long while it sends it; past it (a killed process) the watchdog puts it back. */
export const BATCH_LEASE_MS = 2 * 60_000;

export interface MailBatch {
  key: string;
  jobs: ReadyJob[];
  /** Attempts so far that ended without a definite answer. */
  attempts: number;
}

/** Pins 'sending' deliveries that are in no batch yet to `key`, returning those it pinned. */
function pinStatements(db: Db, key: string, ids: readonly number[]) {
  return chunk(ids, IDS_PER_STATEMENT).map((slice) =>
    db
      .update(deliveries)
      .set({ batchKey: key })
      .where(and(inArray(deliveries.id, slice), eq(deliveries.status, "sending"), isNull(deliveries.batchKey)))
      .returning({ id: deliveries.id }),
  );
}

/**
 * Writes a new batch of `jobs`, held by the caller (leased), and pins their deliveries to it, in
 * one transaction. A delivery already pinned to another batch or no longer 'sending' (another copy
 * of its job got there first) is left out: the batch is then rewritten with what it really holds
 * under that content's key, before anything is sent. Null when none was left.
 */
export async function createBatch(db: Db, jobs: readonly ReadyJob[], now: number): Promise<MailBatch | null> {
  let held = [...jobs];
  let key = await batchKeyOf(held.map((j) => j.occurrenceKey));
  const row = (k: string, js: readonly ReadyJob[]) => ({
    key: k,
    jobs: JSON.stringify(js),
    attempts: 0,
    nextAttemptAt: now,
    leaseUntil: now + BATCH_LEASE_MS,
    createdAt: now,
  });
  const [inserted, ...pinned] = await db.batch([
    db.insert(mailBatches).values(row(key, held)).onConflictDoNothing().returning({ key: mailBatches.key }),
    ...pinStatements(
      db,
      key,
      held.map((j) => j.deliveryId),
    ),
  ] as const);
  const pinnedIds = new Set((pinned as { id: number }[][]).flat().map((r) => r.id));
  // Already there (another copy of these jobs made the same batch first): it is that one's.
  if (inserted.length === 0) return null;
  if (pinnedIds.size === held.length) return { key, jobs: held, attempts: 0 };
  // Fewer than asked: nothing was sent under `key`, so the batch is remade from what it holds.
  held = held.filter((j) => pinnedIds.has(j.deliveryId));
  if (held.length === 0) {
    await db.delete(mailBatches).where(eq(mailBatches.key, key));
    return null;
  }
  const oldKey = key;
  key = await batchKeyOf(held.map((j) => j.occurrenceKey));
  await db.batch([
    db.delete(mailBatches).where(eq(mailBatches.key, oldKey)),
    db.insert(mailBatches).values(row(key, held)).onConflictDoNothing(),
    db.update(deliveries).set({ batchKey: key }).where(eq(deliveries.batchKey, oldKey)),
  ]);
  return { key, jobs: held, attempts: 0 };
}

/**
 * Replaces a batch that was not sent (the provider refused it as a whole, or some of its e-mails
 * could not be made) by new ones, each pinned to its own key; `dropped` deliveries are let go of
 * (the caller settles them). One transaction.
 */
export async function replaceBatch(
  db: Db,
  old: MailBatch,
  parts: readonly (readonly ReadyJob[])[],
  now: number,
): Promise<MailBatch[]> {
  const made: MailBatch[] = [];
  for (const jobs of parts) {
    if (jobs.length > 0)
      made.push({ key: await batchKeyOf(jobs.map((j) => j.occurrenceKey)), jobs: [...jobs], attempts: 0 });
  }
  await db.batch([
    db.delete(mailBatches).where(eq(mailBatches.key, old.key)),
    db.update(deliveries).set({ batchKey: null }).where(eq(deliveries.batchKey, old.key)),
    ...made.flatMap((b) => [
      db
        .insert(mailBatches)
        .values({
          key: b.key,
          jobs: JSON.stringify(b.jobs),
          attempts: 0,
          nextAttemptAt: now,
          leaseUntil: now + BATCH_LEASE_MS,
          createdAt: now,
        })
        .onConflictDoNothing(),
      ...chunk(
        b.jobs.map((j) => j.deliveryId),
        IDS_PER_STATEMENT,
      ).map((slice) =>
        db
          .update(deliveries)
          .set({ batchKey: b.key })
          .where(and(inArray(deliveries.id, slice), eq(deliveries.status, "sending"), isNull(deliveries.batchKey))),
      ),
    ]),
  ]);
  return made;
}

/**
 * Takes a batch to send it again: only when its retry is due and no one holds it. Null when it is
 * gone (settled), not due, or held by another consumer.
 */
export async function takeBatch(db: Db, key: string, now: number): Promise<MailBatch | null> {
  const [row] = await db
    .update(mailBatches)
    .set({ leaseUntil: now + BATCH_LEASE_MS })
    .where(and(eq(mailBatches.key, key), lte(mailBatches.leaseUntil, now), lte(mailBatches.nextAttemptAt, now + 5_000)))
    .returning({ key: mailBatches.key, jobs: mailBatches.jobs, attempts: mailBatches.attempts });
  return row ? { key: row.key, jobs: JSON.parse(row.jobs) as ReadyJob[], attempts: row.attempts } : null;
}

/** Holds the batch a while longer (before another attempt inside the same call). */
export async function renewLease(db: Db, key: string, now: number) {
  await db
    .update(mailBatches)
    .set({ leaseUntil: now + BATCH_LEASE_MS })
    .where(eq(mailBatches.key, key));
}

/**
 * An attempt without a definite answer: the batch waits for its retry at `nextAttemptAt`, held by
 * no one, and its deliveries show the error meanwhile (still 'sending').
 */
export async function postponeBatch(db: Db, key: string, attempts: number, nextAttemptAt: number, error: string) {
  await db.batch([
    db
      .update(mailBatches)
      .set({ attempts, nextAttemptAt, leaseUntil: 0, lastError: error })
      .where(eq(mailBatches.key, key)),
    db
      .update(deliveries)
      .set({ error })
      .where(and(eq(deliveries.batchKey, key), eq(deliveries.status, "sending"))),
  ]);
}

/** The batch is settled (every e-mail in it recorded): it goes. */
export async function deleteBatch(db: Db, key: string) {
  await db.delete(mailBatches).where(eq(mailBatches.key, key));
}

/** Batches whose retry is due and that no one holds (a killed consumer's, or one waiting to be retried). */
export async function dueBatchKeys(db: Db, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: mailBatches.key })
    .from(mailBatches)
    .where(and(lte(mailBatches.nextAttemptAt, now), lte(mailBatches.leaseUntil, now)))
    .orderBy(mailBatches.nextAttemptAt)
    .limit(limit);
  return rows.map((r) => r.key);
}

/**
 * Reminders 'sending' since before `before` without being in a batch, with their schedules: their
 * queue message was lost (a restart of a local queue, a dropped message). Read from the partial
 * index deliveries_sending_idx.
 */
export async function strandedDeliveries(
  db: Db,
  before: number,
  limit: number,
): Promise<{ id: number; scheduleId: string; occurrenceKey: string }[]> {
  const rows = await db
    .select({ id: deliveries.id, scheduleId: deliveries.scheduleId, occurrenceKey: deliveries.occurrenceKey })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.status, "sending"),
        sql`${deliveries.createdAt} < ${before}`,
        isNull(deliveries.batchKey),
        sql`${deliveries.scheduleId} IS NOT NULL`,
        // A test send is sent by the request that made it, never queued.
        NOT_TEST_SEND,
        // A companion text (a step sending both) is settled from Twilio's record (recoverCompanionTexts).
        sql`${deliveries.occurrenceKey} NOT LIKE '%:text'`,
      ),
    )
    .limit(limit);
  return rows.flatMap((r) =>
    r.scheduleId ? [{ id: r.id, scheduleId: r.scheduleId, occurrenceKey: r.occurrenceKey }] : [],
  );
}
