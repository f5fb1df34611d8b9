import { and, eq, isNotNull, notExists, sql } from "drizzle-orm";
import { chunk } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { deliveries, invoices, schedules, textMessages } from "~/db/schema";
import type { ScheduleAdvance } from "~/domain/occurrence";
import type { DataScope, OwnerScope } from "~/platform/scope.server";

import { type AlarmCall, followAlarms, runAlarmCalls, stub } from "./alarms.server";
import { type BatchItem, endedStatements } from "./due-dates.server";

// The engine and the mail queue: advancing past an occurrence ------------------------------------

/** The next run of a schedule someone changed meanwhile: its alarm time, null when it is gone or finished. */
export async function currentAlarm(db: Db, id: string): Promise<number | null> {
  const fresh = await db
    .select({ state: schedules.state, nextRunAt: schedules.nextRunAt })
    .from(schedules)
    .where(eq(schedules.id, id))
    .get();
  return fresh?.state === "ENABLED" ? fresh.nextRunAt : null;
}

/** The schedule still on the occurrence at `scheduledAt` (nobody edited, paused or deleted it meanwhile). */
const stillOn = (id: string, scheduledAt: number) =>
  and(eq(schedules.id, id), eq(schedules.nextRunAt, scheduledAt), eq(schedules.state, "ENABLED"));

/**
 * Moves the schedule past the occurrence at `scheduledAt`, but only if nobody edited, disabled or
 * deleted it meanwhile (an edit has re-armed it already). True when it moved.
 */
export async function advanceSchedule(db: Db, id: string, scheduledAt: number, next: ScheduleAdvance, now: number) {
  if (next.state === "COMPLETED") {
    const [changed] = await db.batch([
      advanceStatement(db, id, scheduledAt, next, now),
      ...endedStatements(db, id, now),
    ]);
    return changed.length > 0;
  }
  const changed = await advanceStatement(db, id, scheduledAt, next, now);
  return changed.length > 0;
}

/** advanceSchedule's UPDATE, for a batch. */
export function advanceStatement(db: Db, id: string, scheduledAt: number, next: ScheduleAdvance, now: number) {
  return db
    .update(schedules)
    .set({ ...next, updatedAt: now })
    .where(stillOn(id, scheduledAt))
    .returning({ id: schedules.id });
}

/**
 * Finishes the schedule at the occurrence at `scheduledAt` (nothing left to remind of, or the
 * address opted out: `reason`), unless it was edited meanwhile. True when it completed.
 */
export async function completeSchedule(
  db: Db,
  id: string,
  scheduledAt: number,
  now: number,
  reason: "paid" | "opted_out" | null = null,
) {
  const completed = await db
    .update(schedules)
    .set({ state: "COMPLETED", nextRunAt: null, stoppedReason: reason, updatedAt: now })
    .where(and(eq(schedules.id, id), eq(schedules.nextRunAt, scheduledAt)))
    .returning({ id: schedules.id });
  return completed.length > 0;
}

/**
 * Holds the schedule at the occurrence at `scheduledAt` (DISABLED with `reason`, no next run),
 * unless it was edited, paused or deleted meanwhile: the engine found nothing it may remind of
 * for now ('disputed': no open invoice is left, what is still owed is disputed). True when it held.
 */
export async function holdAtOccurrence(
  db: Db,
  id: string,
  scheduledAt: number,
  now: number,
  reason: "disputed" | "promised" | "no_plan" | "plan_requested",
) {
  const held = await db
    .update(schedules)
    .set({ state: "DISABLED", nextRunAt: null, stoppedReason: reason, updatedAt: now })
    .where(stillOn(id, scheduledAt))
    .returning({ id: schedules.id });
  return held.length > 0;
}

/** How a queued occurrence ended: handed to the provider (its id), or failed (why). */
export type Settlement = { status: "sent"; providerId: string | null } | { status: "failed"; error: string };

/** Occurrences settled per D1 batch (each is two or three statements). */
const SETTLE_PER_BATCH = 50;

/**
 * Records how queued occurrences ended (a mail batch's e-mails, docs/decisions/021) and moves their
 * schedules past them, 50 occurrences a D1 batch: each delivery becomes 'sent' or 'failed', and its
 * schedule advances (advancePast) unless someone edited, paused or deleted it meanwhile (then its
 * alarm is theirs). Then a moved schedule's alarm goes to its next run (null: finished), 50 Durable
 * Object calls in flight, unless the alarm that queued the occurrence already set it there or
 * earlier (`alarmAt`, docs/decisions/029). Returns how many alarms it moved.
 */
export async function settleOccurrences(
  { env, db }: DataScope,
  items: readonly {
    occurrence: { deliveryId: number; scheduleId: string; scheduledAt: number; alarmAt?: number };
    next: ScheduleAdvance;
    settlement: Settlement;
  }[],
  now = Date.now(),
): Promise<number> {
  const calls: AlarmCall[] = [];
  for (const slice of chunk(items, SETTLE_PER_BATCH)) {
    const statements: BatchItem[] = [];
    // Where each occurrence's advance is in the batch's results.
    const advancedAt: number[] = [];
    for (const { occurrence, next, settlement } of slice) {
      statements.push(
        settlement.status === "sent"
          ? db
              .update(deliveries)
              .set({ status: "sent", providerId: settlement.providerId, error: null, sentAt: now })
              .where(eq(deliveries.id, occurrence.deliveryId))
          : db
              .update(deliveries)
              .set({ status: "failed", error: settlement.error })
              .where(and(eq(deliveries.id, occurrence.deliveryId), eq(deliveries.status, "sending"))),
      );
      advancedAt.push(statements.length);
      statements.push(advanceStatement(db, occurrence.scheduleId, occurrence.scheduledAt, next, now));
      // A due-date schedule whose last step this was ends, and says so.
      if (next.state === "COMPLETED") statements.push(...endedStatements(db, occurrence.scheduleId, now));
    }
    const [first, ...rest] = statements;
    if (!first) continue;
    const results = (await db.batch([first, ...rest])) as unknown[][];
    slice.forEach(({ occurrence, next }, i) => {
      if ((results[advancedAt[i] ?? -1] ?? []).length === 0) return;
      const nextRunAt = next.state === "COMPLETED" ? null : next.nextRunAt;
      // The alarm that queued it already points there, or earlier (it then finds the schedule not
      // due and re-arms itself): no call (docs/decisions/029).
      const { alarmAt } = occurrence;
      if (nextRunAt !== null && alarmAt !== undefined && alarmAt <= nextRunAt) return;
      calls.push({ id: occurrence.scheduleId, call: () => stub(env, occurrence.scheduleId).sent(nextRunAt) });
    });
  }
  await runAlarmCalls({ env, db }, calls, now);
  return calls.length;
}

/**
 * The end-to-end tests' skip of a wait (POST /dev/schedules/advance, development and test only):
 * each of the owner's enabled schedules runs `ms` earlier and its alarm is re-armed for it, so a
 * reminder due within `ms` goes out now through the real alarm, engine, queue and mail Worker.
 * Conditional like the engine's own updates: a schedule that changed meanwhile is left alone, and
 * so is one whose reminder is on its way (a delivery still 'sending', waiting on the queue or for a
 * retry): moving it would make its occurrence a new one, and the debtor would get a second reminder.
 */
export async function skipAhead(scope: OwnerScope, ms: number) {
  const { db, ownerId, now } = scope;
  const pending = await db
    .select({ id: schedules.id, createdAt: schedules.createdAt, nextRunAt: schedules.nextRunAt })
    .from(schedules)
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.state, "ENABLED"), isNotNull(schedules.nextRunAt)));
  const moved: { id: string; createdAt: number; nextRunAt: number; movedTo: number }[] = [];
  for (const s of pending) {
    if (s.nextRunAt === null) continue;
    const movedTo = s.nextRunAt - ms;
    const updated = await db
      .update(schedules)
      .set({ nextRunAt: movedTo, updatedAt: now })
      .where(
        and(
          eq(schedules.ownerId, ownerId),
          eq(schedules.id, s.id),
          eq(schedules.nextRunAt, s.nextRunAt),
          notExists(
            db
              .select({ id: deliveries.id })
              .from(deliveries)
              .where(and(eq(deliveries.scheduleId, s.id), eq(deliveries.status, "sending"))),
          ),
        ),
      )
      .returning({ id: schedules.id });
    if (updated.length > 0) moved.push({ id: s.id, createdAt: s.createdAt, nextRunAt: s.nextRunAt, movedTo });
  }
  await followAlarms(scope, { arm: moved.map((m) => ({ id: m.id, at: m.movedTo })) }, now);
  return moved;
}

/**
 * The end-to-end tests' passing of whole days (POST /dev/schedules/age, development and test
 * only): the owner's account lives `days` later. Their invoices fell due that many days earlier,
 * their schedules ran and run that many days earlier, their reminders and texts went that many days
 * earlier; so the next step of a due-date cadence is the one the plan puts that many days on, and
 * it fires as a planned run at its own hour (unlike skipAhead, which only moves the next run).
 * Nothing of another account changes. The schedules' alarms follow their next runs.
 */
export async function ageAccount(scope: OwnerScope, days: number) {
  const { db, ownerId, now } = scope;
  const ms = days * 86_400_000;
  const shift = `-${days} days`;
  const moved = await db.batch([
    db
      .update(schedules)
      .set({
        nextRunAt: sql`${schedules.nextRunAt} - ${ms}`,
        lastRunAt: sql`${schedules.lastRunAt} - ${ms}`,
        coveredAt: sql`${schedules.coveredAt} - ${ms}`,
        createdAt: sql`${schedules.createdAt} - ${ms}`,
        updatedAt: now,
      })
      .where(eq(schedules.ownerId, ownerId))
      .returning({ id: schedules.id, nextRunAt: schedules.nextRunAt, state: schedules.state }),
    db
      .update(invoices)
      .set({ issuedOn: sql`date(${invoices.issuedOn}, ${shift})`, dueOn: sql`date(${invoices.dueOn}, ${shift})` })
      .where(eq(invoices.ownerId, ownerId)),
    db
      .update(deliveries)
      .set({ createdAt: sql`${deliveries.createdAt} - ${ms}`, sentAt: sql`${deliveries.sentAt} - ${ms}` })
      .where(eq(deliveries.ownerId, ownerId)),
    db
      .update(textMessages)
      .set({
        createdAt: sql`${textMessages.createdAt} - ${ms}`,
        attemptedAt: sql`${textMessages.attemptedAt} - ${ms}`,
      })
      .where(eq(textMessages.ownerId, ownerId)),
  ]);
  const arm = moved[0].flatMap((s) =>
    s.state === "ENABLED" && s.nextRunAt !== null ? [{ id: s.id, at: Math.max(s.nextRunAt, now) }] : [],
  );
  await followAlarms(scope, { arm }, now);
  return arm;
}
