import { and, asc, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { debtorEventWhere, noticeInsert } from "~/activity/index.server";
import { chunk, IDS_PER_STATEMENT } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { hasDisputedInvoice, hasOpenInvoice } from "~/db/owed";
import { debtors, deliveries, schedules } from "~/db/schema";
import { promiseDetail } from "~/domain/promise";
import type { DataScope } from "~/platform/scope.server";
import {
  commit,
  resumeHeldStatements,
  runPlanColumns,
  sendRefusal,
  switchHoldStatement,
} from "~/reminders/index.server";

/**
 * Promises to pay. From their page a debtor promises
 * to pay by a date at most 60 days out: their reminders hold (stopped_reason 'promised') until the
 * day after that date starts in their zone (debtors.promise_ends_at). Then the watchdog ends the
 * promise: with something still open it is broken (promise_broken_at, 'promise_broken') and the
 * reminders resume by themselves; with nothing open it just ends. After a broken promise a new one
 * needs the user's consent ('promise_consent'). Every change and its timeline event are one batch;
 * the schedules change through the lifecycle's statements.
 */

const owned = (ownerId: string, debtorId: number) => and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId));

/** Why a promise is not taken. */
export type PromiseRefusal = "pending" | "broken" | "nothing-open";

/**
 * The debtor's promise to pay by `promisedOn` (already checked against their window), ending at
 * `endsAt` (promiseEndsAt), in one batch: their ENABLED schedules are held ('promised', no next
 * run), 'promised' is recorded ("Promised to pay by 30 December 2026"), and promised_on and
 * promise_ends_at are set. Only when no promise is pending or broken and an invoice is open: a
 * repeat or a race changes nothing. Returns whether it was taken and the schedules it held (disarmed).
 */
export async function promiseToPay(
  { env, db }: DataScope,
  ownerId: string,
  debtorId: number,
  promisedOn: string,
  endsAt: number,
  now: number,
): Promise<{ promised: boolean; heldScheduleIds: string[] }> {
  const promisable = and(
    owned(ownerId, debtorId),
    isNull(debtors.promisedOn),
    isNull(debtors.promiseBrokenAt),
    hasOpenInvoice(debtorId),
  );
  // For the schedules' UPDATE: the same condition over the debtor's row.
  const promisableSql = sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${debtorId} AND ${debtors.ownerId} = ${ownerId} AND ${debtors.promisedOn} IS NULL AND ${debtors.promiseBrokenAt} IS NULL) AND ${hasOpenInvoice(debtorId)}`;
  // In order: the hold and the event still see the debtor without the promise.
  const { results, stopped } = await commit({ env, db, now }, (consequences) => [
    consequences({ kind: "held", ownerId, debtorId, reason: "promised", onlyIf: promisableSql }),
    debtorEventWhere(db, "promised", promiseDetail(promisedOn), promisable, now),
    db
      .update(debtors)
      .set({ promisedOn, promiseEndsAt: endsAt, updatedAt: now })
      .where(promisable)
      .returning({ id: debtors.id }),
    // The user is told: only when the event above was recorded.
    noticeInsert(db, { ownerId, debtorId, kind: "promised", at: now }),
  ]);
  return { promised: results[2].length > 0, heldScheduleIds: stopped };
}

/**
 * "Allow a new promise": the user consents to another promise after a broken one; promise_broken_at
 * is cleared and 'promise_consent' recorded (one batch). 'not-found' for a debtor that is not the
 * owner's, 'not-broken' when no broken promise is waiting for an answer.
 */
export async function allowNewPromise(
  db: Db,
  ownerId: string,
  debtorId: number,
  now: number,
): Promise<{ ok: true } | { error: "not-found" | "not-broken" }> {
  const broken = and(owned(ownerId, debtorId), isNotNull(debtors.promiseBrokenAt));
  const [found, , cleared] = await db.batch([
    db.select({ id: debtors.id }).from(debtors).where(owned(ownerId, debtorId)),
    debtorEventWhere(db, "promise_consent", "", broken, now),
    db.update(debtors).set({ promiseBrokenAt: null, updatedAt: now }).where(broken).returning({ id: debtors.id }),
  ]);
  if (found.length === 0) return { error: "not-found" };
  if (cleared.length === 0) return { error: "not-broken" };
  return { ok: true };
}

// The watchdog: promises whose day has passed ---------------------------------------------------

/** Debtors whose promise ended, per page (each costs a few statements of one batch). */
export const PROMISES_PER_PAGE = 20;

/** Whether a reminder to the debtor's current address bounced (as the lifecycle reads it). */
const addressBounced = sql<number>`exists (SELECT 1 FROM ${deliveries} AS d WHERE d.debtor_id = ${debtors.id} AND d.status = 'bounced' AND d.recipient = lower(${debtors.email}))`;

export interface EndedPromises {
  /** Debtors read whose promise's end had come (a page shorter than the limit was the last). */
  read: number;
  /** Debtors whose promise ended in this page. */
  ended: number;
  /** Of them, those with something still open: the promise is broken. */
  broken: number;
  /** Schedules that run again, to arm. */
  resumed: { id: string; nextRunAt: number }[];
}

/**
 * One page of promises whose end has come (promise_ends_at <= now, through the index on
 * debtors (promise_ends_at)), ended in one batch: for each debtor, with an invoice still open, the
 * promise is broken (promise_broken_at = now, 'promise_broken' recorded with the date that was
 * promised) and their schedules held 'promised' run again (ENABLED at their next run, computed as
 * "Resume reminders" computes it, 'schedule_resumed' recorded); a debtor whose address bounced
 * meanwhile keeps them held, for the bounce. With nothing open the promise just ends: schedules
 * still held for it are then held for the disputes left, if any, and otherwise stay as the payment
 * that paid the debt left them (completed). Every statement checks the debtor's promise is still the
 * one read, so a change meanwhile wins. Returns what it did; the caller arms `resumed`.
 */
export async function endDuePromises(db: Db, now: number, limit = PROMISES_PER_PAGE): Promise<EndedPromises> {
  const due = await db
    .select({
      id: debtors.id,
      ownerId: debtors.ownerId,
      promisedOn: debtors.promisedOn,
      promiseEndsAt: debtors.promiseEndsAt,
      status: debtors.status,
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      addressBounced,
    })
    .from(debtors)
    .where(and(isNotNull(debtors.promiseEndsAt), lte(debtors.promiseEndsAt, now)))
    .orderBy(asc(debtors.promiseEndsAt), asc(debtors.id))
    .limit(limit);
  if (due.length === 0) return { read: 0, ended: 0, broken: 0, resumed: [] };
  const held = (
    await Promise.all(
      chunk(
        due.map((d) => d.id),
        IDS_PER_STATEMENT,
      ).map((ids) =>
        db
          .select({
            id: schedules.id,
            ownerId: schedules.ownerId,
            debtorId: schedules.debtorId,
            ...runPlanColumns(),
          })
          .from(schedules)
          .where(
            and(
              inArray(schedules.debtorId, ids),
              eq(schedules.state, "DISABLED"),
              eq(schedules.stoppedReason, "promised"),
            ),
          ),
      ),
    )
  ).flat();

  const statements: BatchItem[] = [];
  /** Indexes in `statements` of the schedule UPDATEs whose rows are resumed schedules. */
  const resumeAt: number[] = [];
  /** Indexes of the debtor UPDATEs. */
  const debtorAt: number[] = [];
  for (const d of due) {
    if (d.promiseEndsAt === null) continue;
    // Still the promise read: a change meanwhile (the user, another watchdog run) wins.
    const same = sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${d.id} AND ${debtors.promiseEndsAt} = ${d.promiseEndsAt})`;
    const open = hasOpenInvoice(d.id);
    const stillDue = and(eq(debtors.id, d.id), eq(debtors.promiseEndsAt, d.promiseEndsAt));
    // Something still open: the promise is broken and the reminders resume.
    statements.push(
      debtorEventWhere(db, "promise_broken", promiseDetail(d.promisedOn ?? ""), and(stillDue, open), now),
    );
    const refusal = sendRefusal(d, { addressBounced: Boolean(d.addressBounced) });
    // Only what can send resumes (the lifecycle's rule); opted out or paid, they were completed already.
    for (const s of refusal ? [] : held.filter((h) => h.debtorId === d.id)) {
      const [event, update] = resumeHeldStatements(db, s, "promised", now, and(same, open));
      statements.push(event);
      resumeAt.push(statements.length);
      statements.push(update);
    }
    if (refusal === "bouncing") {
      statements.push(switchHoldStatement(db, d.ownerId, d.id, "promised", "bounced", now, and(same, open)));
    }
    // Nothing open: the schedules still held for the promise are held for the disputes left, if any.
    statements.push(
      switchHoldStatement(
        db,
        d.ownerId,
        d.id,
        "promised",
        "disputed",
        now,
        and(same, sql`NOT ${open}`, hasDisputedInvoice(d.id)),
      ),
    );
    debtorAt.push(statements.length);
    statements.push(
      db
        .update(debtors)
        .set({
          promisedOn: null,
          promiseEndsAt: null,
          promiseBrokenAt: sql`CASE WHEN ${open} THEN ${now} ELSE ${debtors.promiseBrokenAt} END`,
          updatedAt: now,
        })
        .where(stillDue)
        .returning({ id: debtors.id, promiseBrokenAt: debtors.promiseBrokenAt }),
    );
  }
  const [first, ...rest] = statements;
  if (!first) return { read: due.length, ended: 0, broken: 0, resumed: [] };
  const results = (await db.batch([first, ...rest])) as unknown[][];
  const resumed = resumeAt.flatMap((i) =>
    (results[i] as { id: string; nextRunAt: number | null }[]).map((r) => ({
      id: r.id,
      nextRunAt: r.nextRunAt ?? now,
    })),
  );
  let ended = 0;
  let broken = 0;
  for (const index of debtorAt) {
    const rows = results[index] as { id: number; promiseBrokenAt: number | null }[];
    ended += rows.length;
    broken += rows.filter((r) => r.promiseBrokenAt === now).length;
  }
  return { read: due.length, ended, broken, resumed };
}

/** A statement of the watchdog's batch. */
type BatchItem = Parameters<Db["batch"]>[0][number];
