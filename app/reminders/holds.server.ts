import { and, count, eq, inArray, isNotNull, ne, type SQL, sql } from "drizzle-orm";
import { debtorEventInsert } from "~/activity/index.server";
import { chunk, IDS_PER_STATEMENT } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { hasChasedInvoice, owesSql } from "~/db/owed";
import { debtors, schedules } from "~/db/schema";
import { AccountCapReached } from "~/domain/account-caps";
import { planNextRun, type RunPlanRow } from "~/domain/occurrence";
import { safeTimeZone } from "~/domain/time-zone";
import type { OwnerScope } from "~/platform/scope.server";

import { followAlarms } from "./alarms.server";
import { runPlanColumns } from "./due-dates.server";
import { eventsOfSchedules } from "./schedule-events.server";
import { pausedRows, type ResumeOutcome, resumePaused } from "./writes.server";

// Stops and holds by Dunly: statements for the batch of the change that causes them -------------

/** Schedules the user may resume: stopped by Dunly ('paid'; any reason once the debtor is 'active' again). */
export function resumableWhere(ownerId: string, debtorId: number) {
  return and(
    eq(schedules.ownerId, ownerId),
    eq(schedules.debtorId, debtorId),
    eq(schedules.state, "COMPLETED"),
    isNotNull(schedules.stoppedReason),
    sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${debtorId} AND ${debtors.ownerId} = ${ownerId} AND ${owesSql(debtorId)} AND (${schedules.stoppedReason} = 'paid' OR ${debtors.status} = 'active'))`,
  );
}

/**
 * "Resume reminders" after the debt is owed again: the stopped schedules of the owner's debtor
 * run again (ENABLED, next run from now in each one's zone), 'reminders_resumed' recorded, alarms
 * armed. Nothing to resume: nothing changes and nothing is recorded. Throws AccountCapReached
 * (changing nothing) when they would take the account past its cap of live schedules.
 */
export async function resumeStoppedSchedules(
  scope: OwnerScope,
  debtorId: number,
  { max }: { max: number },
): Promise<{ resumed: { id: string; nextRunAt: number }[] } | { error: "not-found" }> {
  const { db, ownerId, now } = scope;
  const [[debtor], stopped, [live]] = await db.batch([
    db
      .select({ id: debtors.id })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId))),
    db
      .select({ id: schedules.id, ...runPlanColumns() })
      .from(schedules)
      .where(resumableWhere(ownerId, debtorId)),
    db
      .select({ n: count() })
      .from(schedules)
      .where(and(eq(schedules.ownerId, ownerId), ne(schedules.state, "COMPLETED"))),
  ]);
  if (!debtor) return { error: "not-found" };
  if (stopped.length === 0) return { resumed: [] };
  if ((live?.n ?? 0) + stopped.length > max) throw new AccountCapReached("schedules", max);

  // Schedules of one frequency and zone share their next run: one UPDATE per slice of them (a
  // due-date one has its own, from its steps).
  const groups = new Map<string, { nextRunAt: number; ids: string[] }>();
  for (const s of stopped) {
    const key = s.frequency === "due" ? `due ${s.id}` : `${s.frequency} ${safeTimeZone(s.timeZone)}`;
    const group = groups.get(key) ?? { nextRunAt: planNextRun(s, now), ids: [] };
    group.ids.push(s.id);
    groups.set(key, group);
  }
  const updates = [...groups.values()].flatMap((group) =>
    chunk(group.ids, IDS_PER_STATEMENT).map((ids) =>
      db
        .update(schedules)
        .set({ state: "ENABLED", stoppedReason: null, nextRunAt: group.nextRunAt, updatedAt: now })
        .where(and(inArray(schedules.id, ids), resumableWhere(ownerId, debtorId)))
        .returning({ id: schedules.id, nextRunAt: schedules.nextRunAt }),
    ),
  );
  const [first, ...rest] = updates;
  if (!first) return { resumed: [] };
  const n = stopped.length;
  const event = debtorEventInsert(db, {
    ownerId,
    debtorId,
    type: "reminders_resumed",
    detail: n === 1 ? "1 schedule" : `${n} schedules`,
    at: now,
  });
  // One batch with its event: all of them resume, or none.
  const results = await db.batch([first, ...rest, event]);
  const resumed = results
    .slice(0, updates.length)
    .flat()
    .map((r) => {
      const row = r as { id: string; nextRunAt: number | null };
      return { id: row.id, nextRunAt: row.nextRunAt ?? now };
    });
  await followAlarms(scope, { arm: resumed.map((r) => ({ id: r.id, at: r.nextRunAt })) }, now);
  return { resumed };
}

/**
 * The schedules a debtor's "I've paid" held resume (resumeSchedules' rules: a debtor who paid,
 * opted out or bounces keeps them paused).
 */
export async function resumeAfterPaidClaim(scope: OwnerScope, debtorId: number): Promise<ResumeOutcome> {
  const paused = await pausedRows(
    scope.db,
    scope.ownerId,
    and(eq(schedules.debtorId, debtorId), eq(schedules.stoppedReason, "paid_claimed")),
  );
  return resumePaused(scope, paused);
}

// Holds on the debtor's word: a promise to pay, disputed invoices -------------------------------
// (the callers are app/responses/promises.server.ts and
// app/responses/disputes.server.ts.)

/**
 * Why Dunly holds a debtor's schedules on the debtor's own word or act: a promise to pay, disputes,
 * a bank payment online still being processed (decisions/018), or an e-mail reply the user has not
 * handled yet (decisions/020).
 */
export type DebtorHoldReason = "promised" | "disputed" | "payment_pending" | "replied" | "plan_requested";

/**
 * The owner's debtor's schedules held for `reason` run again when `onlyIf` holds (resumePaused's
 * rules, as "Resume reminders" after "I've paid": next run from now in each one's zone,
 * 'schedule_resumed' recorded, alarms armed; a debtor who paid, opted out or bounces keeps them).
 */
export async function resumeHeld(
  scope: OwnerScope,
  debtorId: number,
  reason: DebtorHoldReason,
  onlyIf?: SQL,
): Promise<ResumeOutcome> {
  const held = await pausedRows(
    scope.db,
    scope.ownerId,
    and(eq(schedules.debtorId, debtorId), eq(schedules.stoppedReason, reason), onlyIf),
  );
  return resumePaused(scope, held);
}

/**
 * The debtor's schedules that disputes (or invoices the user said not to chase) held run again once
 * a chased open invoice exists (a dispute resolved, an invoice chased again, a disputed invoice
 * voided and others open, a new invoice): through the lifecycle
 * (resumeHeld: next run from now, 'schedule_resumed', alarms armed; a debtor who paid, opted out or
 * bounces keeps them held). Nothing open: nothing changes. For whoever changes invoices (the
 * invoice void) to call after its batch.
 */
export function releaseDisputeHolds(scope: OwnerScope, debtorId: number): Promise<ResumeOutcome> {
  return resumeHeld(scope, debtorId, "disputed", hasChasedInvoice(debtorId));
}

/**
 * The account has a plan again (a subscription became active, docs/decisions/019): every schedule
 * held for 'no_plan' runs again (resumePaused's rules: next run from now, 'schedule_resumed',
 * alarms armed; a debtor who paid, opted out or bounces keeps theirs held).
 */
export async function resumeForPlan(scope: OwnerScope): Promise<ResumeOutcome> {
  const held = await pausedRows(scope.db, scope.ownerId, eq(schedules.stoppedReason, "no_plan"));
  return resumePaused(scope, held);
}

/** A held schedule as the watchdog reads it (any owner's: the cron acts for every account). */
export interface HeldSchedule extends RunPlanRow {
  id: string;
  ownerId: string;
}

/**
 * One held schedule's resume, for a batch that ends holds of many debtors at once (the watchdog's
 * end of promises): its 'schedule_resumed' event, then the UPDATE to ENABLED at its next run
 * (computed as resumePaused computes it: from now, in its own zone); both only while it is still
 * held for `reason` and `onlyIf` holds. The caller checks sendRefusal first and arms the schedules
 * whose UPDATE returned a row.
 */
export function resumeHeldStatements(db: Db, s: HeldSchedule, reason: DebtorHoldReason, now: number, onlyIf?: SQL) {
  const stillHeld = and(
    eq(schedules.ownerId, s.ownerId),
    eq(schedules.id, s.id),
    eq(schedules.state, "DISABLED"),
    eq(schedules.stoppedReason, reason),
    onlyIf,
  );
  const nextRunAt = planNextRun(s, now);
  return [
    eventsOfSchedules(db, "schedule_resumed", stillHeld, now),
    db
      .update(schedules)
      .set({ state: "ENABLED", stoppedReason: null, nextRunAt, updatedAt: now })
      .where(stillHeld)
      .returning({ id: schedules.id, nextRunAt: schedules.nextRunAt }),
  ] as const;
}

/**
 * The owner's debtor's schedules held for one reason are held for another instead (a promise ended
 * while every invoice left is disputed, or the address bounced meanwhile: that holds them now),
 * when `onlyIf` holds.
 */
export function switchHoldStatement(
  db: Db,
  ownerId: string,
  debtorId: number,
  from: DebtorHoldReason,
  to: DebtorHoldReason | "bounced",
  now: number,
  onlyIf?: SQL,
) {
  return db
    .update(schedules)
    .set({ stoppedReason: to, updatedAt: now })
    .where(
      and(
        eq(schedules.ownerId, ownerId),
        eq(schedules.debtorId, debtorId),
        eq(schedules.state, "DISABLED"),
        eq(schedules.stoppedReason, from),
        onlyIf,
      ),
    )
    .returning({ id: schedules.id });
}
