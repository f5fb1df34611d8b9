import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { noticeInsert } from "~/activity/index.server";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { debtors, schedules } from "~/db/schema";
import { NOW_DELAY_MS } from "~/domain/frequencies";
import { cadencePlanOf, cadenceRunAfter, parseOpenInvoices } from "~/domain/occurrence";
import type { OwnerScope } from "~/platform/scope.server";
import { openInvoicesSql } from "~/reminders/statement.server";

import { followAlarms } from "./alarms.server";
import { eventsOfSchedules } from "./schedule-events.server";

// Due-date cadences: following the invoices ------------------------------------------------------
//

/**
 * Columns that, read with a schedule, let planNextRun compute its next run: its frequency, zone and
 * cadence and last run, its debtor's zone and (for a due-date schedule only) its debtor's open invoices.
 */
export function runPlanColumns() {
  return {
    frequency: schedules.frequency,
    timeZone: schedules.timeZone,
    cadenceSteps: schedules.cadenceSteps,
    cadenceRepeatDays: schedules.cadenceRepeatDays,
    cadenceVoices: schedules.cadenceVoices,
    sendHour: schedules.sendHour,
    coveredAt: sql<number | null>`coalesce(${schedules.coveredAt}, ${schedules.lastRunAt})`.as("covered_at"),
    debtorTimeZone: sql<string | null>`(SELECT d.time_zone FROM ${debtors} AS d WHERE d.id = ${schedules.debtorId})`.as(
      "debtor_time_zone",
    ),
    openInvoices: sql<
      string | null
    >`(CASE WHEN ${schedules.frequency} = 'due' THEN ${openInvoicesSql(schedules.debtorId)} END)`.as("open_invoices"),
  };
}

export type BatchItem = Parameters<Db["batch"]>[0][number];

/** How close to its run a schedule is left alone by a re-plan: it is firing, or about to. */
const REPLAN_MARGIN_MS = NOW_DELAY_MS;

/**
 * After the owner's debtors' invoices, payments or zone changed: their ENABLED due-date schedules
 * move to the next step of the open invoices as they are now (a paid or voided invoice's steps
 * go, an added one's join (an overdue one: its one catch-up e-mail), a moved due date moves its
 * steps), and one with no step left ends
 * ('schedule_ended' recorded and the user told, in one batch). A schedule firing now (its run
 * within a minute or past: a send, a deferral or "Send now" is under way) is left to the engine,
 * and every UPDATE is conditional on the run it read, so a concurrent change wins. Alarms follow.
 * Returns the ids that moved or ended.
 */
export async function replanDueSchedules(scope: OwnerScope, debtorIds: readonly number[]): Promise<string[]> {
  const { db, ownerId, now } = scope;
  const ids = unique(debtorIds);
  if (ids.length === 0) return [];
  const rows = (
    await Promise.all(
      chunk(ids, IDS_PER_STATEMENT).map((slice) =>
        db
          .select({ id: schedules.id, nextRunAt: schedules.nextRunAt, ...runPlanColumns() })
          .from(schedules)
          .where(
            and(
              eq(schedules.ownerId, ownerId),
              inArray(schedules.debtorId, slice),
              eq(schedules.state, "ENABLED"),
              eq(schedules.frequency, "due"),
            ),
          ),
      ),
    )
  ).flat();
  const statements: BatchItem[] = [];
  const moved: { id: string; at: number | null }[] = [];
  for (const r of rows) {
    if (r.nextRunAt === null || r.nextRunAt <= now + REPLAN_MARGIN_MS) continue;
    const plan = cadencePlanOf(r, r.debtorTimeZone, parseOpenInvoices(r.openInvoices));
    const at = cadenceRunAfter(plan, r.coveredAt, now);
    if (at === r.nextRunAt) continue;
    const stillOnRead = and(
      eq(schedules.ownerId, ownerId),
      eq(schedules.id, r.id),
      eq(schedules.nextRunAt, r.nextRunAt),
    );
    if (at === null) {
      statements.push(
        db
          .update(schedules)
          .set({ state: "COMPLETED", nextRunAt: null, stoppedReason: null, updatedAt: now })
          .where(and(stillOnRead, eq(schedules.state, "ENABLED"))),
        ...endedStatements(db, r.id, now),
      );
    } else {
      statements.push(db.update(schedules).set({ nextRunAt: at, updatedAt: now }).where(stillOnRead));
    }
    moved.push({ id: r.id, at });
  }
  const [first, ...rest] = statements;
  if (!first) return [];
  await db.batch([first, ...rest]);
  // The alarm follows the row as it is now (a lost race left it on the winner's run).
  await followAlarms(
    scope,
    {
      arm: moved.flatMap((m) => (m.at === null ? [] : [{ id: m.id, at: m.at }])),
      disarm: moved.flatMap((m) => (m.at === null ? [m.id] : [])),
    },
    now,
  );
  return moved.map((m) => m.id);
}

/**
 * A due-date schedule that the batch just ended (COMPLETED at `now`, no stopped_reason: its last
 * step ran, or none is left) records 'schedule_ended' on the debtor's timeline and, while the
 * owner's switch is on, the notice that tells them (app/activity/notices.server.ts).
 * Matches nothing for another frequency or a schedule the batch did not end, so it may follow
 * any completion.
 */
export function endedStatements(db: Db, id: string, now: number) {
  const ended = and(
    eq(schedules.id, id),
    eq(schedules.frequency, "due"),
    eq(schedules.state, "COMPLETED"),
    isNull(schedules.stoppedReason),
    eq(schedules.updatedAt, now),
  );
  return [eventsOfSchedules(db, "schedule_ended", ended, now), noticeInsertForSchedule(db, id, now)] as const;
}

/** The 'schedule_ended' notice of the event endedStatements just recorded for schedule `id`. */
function noticeInsertForSchedule(db: Db, id: string, now: number) {
  const owner = db.select({ id: schedules.ownerId }).from(schedules).where(eq(schedules.id, id));
  const debtor = db.select({ id: schedules.debtorId }).from(schedules).where(eq(schedules.id, id));
  return noticeInsert(db, { ownerId: owner, debtorId: debtor, kind: "schedule_ended", at: now });
}
