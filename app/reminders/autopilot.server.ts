import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { hasChasedInvoice } from "~/db/owed";
import { accountCadences, debtors, schedules } from "~/db/schema";
import { type Cadence, cadenceColumns, DEFAULT_ACCOUNT_CADENCE, storedSteps, storedVoices } from "~/domain/cadence";
import { describeRun, joinPreview } from "~/domain/cadence-plan";
import { parseOpenInvoices } from "~/domain/occurrence";
import { safeTimeZone } from "~/domain/time-zone";
import type { CreateOptions } from "~/platform/account-caps.server";
import type { OwnerScope } from "~/platform/scope.server";
import { followAlarms } from "./alarms.server";
import { replanDueSchedules } from "./due-dates.server";
import { eventsOfSchedules } from "./schedule-events.server";
import { openInvoicesSql } from "./statement.server";
import { createFollowingSchedules, pauseSchedules, resumeSchedules, sendableDebtors } from "./writes.server";

/**
 * Autopilot (docs/decisions/049): the account's cadence, and every debtor with open invoices
 * following it. A debtor follows it through a schedule of its own marked `follows_account`, whose
 * cadence is a copy of the account's: the engine, the holds and the preview treat it like any
 * due-date schedule. While autopilot is on, a debtor with open invoices and no schedule of its own
 * (running, paused by the user, or held by Dunly until something happens) joins by itself: when it
 * is added or imported, when an invoice is added, and when autopilot is turned on.
 */

export interface AccountCadence {
  cadence: Cadence;
  autopilot: boolean;
  autopilotSince: number | null;
}

/** The owner's cadence and autopilot switch; the default cadence, off, for an account that never saved one. */
export async function getAccountCadence(db: Db, ownerId: string): Promise<AccountCadence> {
  const row = await db.select().from(accountCadences).where(eq(accountCadences.ownerId, ownerId)).get();
  if (!row) return { cadence: DEFAULT_ACCOUNT_CADENCE, autopilot: false, autopilotSince: null };
  return {
    cadence: {
      steps: storedSteps(row.cadenceSteps),
      repeatDays: row.cadenceRepeatDays,
      hour: row.sendHour,
      voices: storedVoices(row.cadenceVoices),
    },
    autopilot: row.autopilot,
    autopilotSince: row.autopilotSince,
  };
}

/**
 * Saves the account's cadence; every schedule that follows it takes the new steps, and the running
 * ones move to their next e-mail under them (what they already sent stays covered). Returns how
 * many schedules follow it.
 */
export async function saveAccountCadence(scope: OwnerScope, cadence: Cadence): Promise<number> {
  const { db, ownerId, now } = scope;
  const columns = cadenceColumns(cadence);
  const [, followers] = await db.batch([
    db
      .insert(accountCadences)
      .values({ ownerId, ...columns, updatedAt: now })
      .onConflictDoUpdate({ target: accountCadences.ownerId, set: { ...columns, updatedAt: now } }),
    db
      .update(schedules)
      .set({ ...columns, updatedAt: now })
      .where(and(eq(schedules.ownerId, ownerId), eq(schedules.followsAccount, true)))
      .returning({ debtorId: schedules.debtorId }),
  ]);
  await replanDueSchedules(
    scope,
    followers.map((f) => f.debtorId),
  );
  return followers.length;
}

/** Debtors scanned a page at a time (keyset by id). */
const CANDIDATES_PER_PAGE = 100;

/**
 * Where a debtor has a schedule of its own that autopilot must leave alone: running, paused by the
 * user, or held by Dunly (a promise, a dispute, a reply…) until it resumes by itself. A schedule
 * that ended, or stopped because the debtor paid, leaves the debtor free to join.
 */
const live = (s: string) =>
  sql.raw(
    `(${s}.state IN ('ENABLED', 'DISABLED') OR (${s}.state = 'COMPLETED' AND ${s}.stopped_reason IS NOT NULL AND ${s}.stopped_reason <> 'paid'))`,
  );
const hasOwnSchedule = sql`EXISTS (SELECT 1 FROM schedules AS s WHERE s.debtor_id = "debtors"."id" AND ${live("s")})`;

interface Candidate {
  id: number;
  fullName: string;
  timeZone: string | null;
  openInvoices: string | null;
}

/**
 * One page of the owner's debtors who would join autopilot now: open invoices, no schedule of their
 * own, and a reminder can reach them (not paid, opted out or bouncing). `ids` narrows the scan.
 */
async function candidatePage(
  db: Db,
  ownerId: string,
  afterId: number,
  ids?: readonly number[],
): Promise<{ candidates: Candidate[]; lastId: number | null }> {
  const rows = await db
    .select({
      id: debtors.id,
      fullName: debtors.fullName,
      timeZone: debtors.timeZone,
      openInvoices: openInvoicesSql(),
    })
    .from(debtors)
    .where(
      and(
        eq(debtors.ownerId, ownerId),
        gt(debtors.id, afterId),
        ids ? inArray(debtors.id, [...ids]) : undefined,
        hasChasedInvoice(sql`"debtors"."id"`),
        sql`NOT ${hasOwnSchedule}`,
      ),
    )
    .orderBy(asc(debtors.id))
    .limit(CANDIDATES_PER_PAGE);
  const { sendable } = await sendableDebtors(
    db,
    ownerId,
    rows.map((r) => r.id),
  );
  const reachable = new Set(sendable.map((d) => d.id));
  const last = rows[rows.length - 1];
  return {
    candidates: rows.filter((r) => reachable.has(r.id)),
    lastId: rows.length < CANDIDATES_PER_PAGE || !last ? null : last.id,
  };
}

/** Every page of candidates (among `ids` when given), in id order. */
async function* candidates(db: Db, ownerId: string, ids?: readonly number[]) {
  if (ids) {
    for (const slice of chunk(unique(ids), IDS_PER_STATEMENT))
      yield (await candidatePage(db, ownerId, 0, slice)).candidates;
    return;
  }
  for (let after = 0; ; ) {
    const page = await candidatePage(db, ownerId, after);
    yield page.candidates;
    if (page.lastId === null) return;
    after = page.lastId;
  }
}

/** What turning autopilot on would do now, before it does it. */
export interface AutopilotSummary {
  debtors: number;
  invoices: number;
  overdue: number;
  /** E-mails that go out today (each debtor's today, in their zone). */
  today: number;
  hour: number;
  /** The first debtors with their first e-mail, for review. */
  first: { name: string; date: string; timeZone: string; what: string }[];
}

const SUMMARY_FIRST = 10;

/** The summary of turning autopilot on now with `cadence`: who joins, and what goes out today. */
export async function autopilotSummary(
  db: Db,
  ownerId: string,
  cadence: Cadence,
  now: number,
  ids?: readonly number[],
): Promise<AutopilotSummary> {
  const summary: AutopilotSummary = { debtors: 0, invoices: 0, overdue: 0, today: 0, hour: cadence.hour, first: [] };
  for await (const page of candidates(db, ownerId, ids)) {
    for (const c of page) {
      const timeZone = safeTimeZone(c.timeZone);
      const join = joinPreview(cadence, parseOpenInvoices(c.openInvoices), timeZone, now);
      summary.debtors += 1;
      summary.invoices += join.invoices;
      summary.overdue += join.overdue;
      if (join.today) summary.today += 1;
      if (join.first && summary.first.length < SUMMARY_FIRST)
        summary.first.push({ name: c.fullName, date: join.first.date, timeZone, what: describeRun(join.first) });
    }
  }
  return summary;
}

/**
 * Gives each of the owner's debtors who would join (among `ids`, or all) a schedule that follows
 * the account's cadence. Returns how many joined.
 */
async function joinAll(
  scope: OwnerScope,
  cadence: Cadence,
  options: CreateOptions & { own?: boolean },
  ids?: readonly number[],
) {
  let joined = 0;
  for await (const page of candidates(scope.db, scope.ownerId, ids)) {
    joined += (await createFollowingSchedules(scope, page, cadence, options)).length;
  }
  return joined;
}

/** The ids of the owner's schedules that follow the account's cadence, in `state` (and paused for `reason`). */
async function followerIds(
  db: Db,
  ownerId: string,
  state: "ENABLED" | "DISABLED",
  reason?: "autopilot_off",
): Promise<string[]> {
  const rows = await db
    .select({ id: schedules.id })
    .from(schedules)
    .where(
      and(
        eq(schedules.ownerId, ownerId),
        eq(schedules.followsAccount, true),
        eq(schedules.state, state),
        reason ? eq(schedules.stoppedReason, reason) : undefined,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * Turns autopilot on: the account's followers paused when it was turned off run again (each from
 * its next e-mail), and every debtor who would join does. Returns how many debtors joined.
 */
export async function turnAutopilotOn(scope: OwnerScope, options: CreateOptions = {}): Promise<number> {
  const { db, ownerId, now } = scope;
  const { cadence } = await getAccountCadence(db, ownerId);
  const columns = cadenceColumns(cadence);
  await db
    .insert(accountCadences)
    .values({ ownerId, ...columns, autopilot: true, autopilotSince: now, updatedAt: now })
    .onConflictDoUpdate({
      target: accountCadences.ownerId,
      set: { autopilot: true, autopilotSince: now, updatedAt: now },
    });
  // Only what turning it off paused: a follower the user paused by hand stays paused.
  await resumeSchedules(scope, await followerIds(db, ownerId, "DISABLED", "autopilot_off"));
  return joinAll(scope, cadence, options);
}

/**
 * Turns autopilot off: nobody joins by itself any more, and the running schedules that follow the
 * account's cadence are paused for 'autopilot_off' (recorded on each debtor's timeline), so turning
 * it on again resumes them and not what the user paused by hand. Returns how many were paused.
 */
export async function turnAutopilotOff(scope: OwnerScope): Promise<number> {
  const { db, ownerId, now } = scope;
  await db
    .update(accountCadences)
    .set({ autopilot: false, autopilotSince: null, updatedAt: now })
    .where(eq(accountCadences.ownerId, ownerId));
  const ids = await followerIds(db, ownerId, "ENABLED");
  const statements = chunk(ids, IDS_PER_STATEMENT).flatMap((slice) => {
    const live = and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice), eq(schedules.state, "ENABLED"));
    return [
      eventsOfSchedules(db, "schedule_paused", live, now),
      db
        .update(schedules)
        .set({ state: "DISABLED", stoppedReason: "autopilot_off", nextRunAt: null, updatedAt: now })
        .where(live)
        .returning({ id: schedules.id }),
    ];
  });
  const [first, ...rest] = statements;
  if (!first) return 0;
  const results = await db.batch([first, ...rest]);
  const paused = results.filter((_, i) => i % 2 === 1).flatMap((rows) => (rows as { id: string }[]).map((r) => r.id));
  await followAlarms(scope, { disarm: paused }, now);
  return paused.length;
}

/**
 * While autopilot is on, the owner's debtors among `debtorIds` who would join do (a debtor added or
 * imported, an invoice added). Never throws for autopilot's sake: a debtor it could not join is
 * picked up by the next turn-on or the next invoice, and the user's own write has landed.
 */
export async function joinAutopilot(scope: OwnerScope, debtorIds: readonly number[], options: CreateOptions = {}) {
  if (debtorIds.length === 0) return 0;
  const account = await getAccountCadence(scope.db, scope.ownerId);
  if (!account.autopilot) return 0;
  try {
    return await joinAll(scope, account.cadence, options, debtorIds);
  } catch (error) {
    console.error("[dunly] autopilot could not join debtors", error);
    return 0;
  }
}

/** How many of the owner's schedules follow the account's cadence, running or held. */
export async function countFollowers(db: Db, ownerId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(schedules)
    .where(
      and(eq(schedules.ownerId, ownerId), eq(schedules.followsAccount, true), sql`${schedules.state} <> 'COMPLETED'`),
    );
  return row?.n ?? 0;
}

/** Live schedules of the owner's debtors among `debtorIds` (running, paused or held), newest first. */
async function liveSchedulesOf(db: Db, ownerId: string, debtorIds: readonly number[]) {
  const rows = (
    await Promise.all(
      chunk(unique(debtorIds), IDS_PER_STATEMENT).map((slice) =>
        db
          .select({
            id: schedules.id,
            debtorId: schedules.debtorId,
            state: schedules.state,
            stoppedReason: schedules.stoppedReason,
            followsAccount: schedules.followsAccount,
            createdAt: schedules.createdAt,
          })
          .from(schedules)
          .where(and(eq(schedules.ownerId, ownerId), inArray(schedules.debtorId, slice), live('"schedules"'))),
      ),
    )
  ).flat();
  return rows.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
}

export interface FollowOutcome {
  /** Debtors that follow the account's cadence now (their schedule switched, or a new one). */
  following: number;
  /** Debtors left as they were: nothing open to chase, or no reminder can reach them. */
  skipped: number;
}

/**
 * "Follow the account cadence" for the owner's debtors among `debtorIds`: a debtor with a schedule of
 * its own has its newest one switched to the account's cadence in place (what it sent stays
 * covered; running, it moves to its next e-mail; paused by the user, it runs again; held by Dunly,
 * it stays held until that ends) and its other live ones paused; a debtor without one joins as
 * autopilot would. Others' debtors are neither changed nor counted.
 */
export async function followAccountCadence(
  scope: OwnerScope,
  debtorIds: readonly number[],
  options: CreateOptions = {},
): Promise<FollowOutcome> {
  const { cadence } = await getAccountCadence(scope.db, scope.ownerId);
  return switchCadence(scope, debtorIds, cadence, false, options);
}

/**
 * "Use another cadence": the same switch as followAccountCadence, to a cadence the user typed for
 * these debtors. It is their own from then on: saving the account's cadence leaves it as it is.
 */
export async function giveOwnCadence(
  scope: OwnerScope,
  debtorIds: readonly number[],
  cadence: Cadence,
  options: CreateOptions = {},
): Promise<FollowOutcome> {
  return switchCadence(scope, debtorIds, { ...cadence, voices: undefined }, true, options);
}

async function switchCadence(
  scope: OwnerScope,
  debtorIds: readonly number[],
  cadence: Cadence,
  own: boolean,
  options: CreateOptions,
): Promise<FollowOutcome> {
  const { db, ownerId, now } = scope;
  const live = await liveSchedulesOf(db, ownerId, debtorIds);
  const newest = new Map<number, (typeof live)[number]>();
  const others: string[] = [];
  for (const s of live) {
    if (!newest.has(s.debtorId)) newest.set(s.debtorId, s);
    else if (s.state === "ENABLED") others.push(s.id);
  }
  const switched = [...newest.values()];
  const columns = {
    frequency: "due" as const,
    preset: "FRIENDLY_REMINDER",
    ...cadenceColumns(cadence),
    followsAccount: !own,
    updatedAt: now,
  };
  const [first, ...rest] = chunk(
    switched.map((s) => s.id),
    IDS_PER_STATEMENT,
  ).map((slice) =>
    db
      .update(schedules)
      .set(columns)
      .where(and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice))),
  );
  if (first) await db.batch([first, ...rest]);
  await pauseSchedules(scope, others);
  // Paused by the user: it runs again; running: its next e-mail under the new steps.
  await resumeSchedules(
    scope,
    switched
      .filter((s) => s.state === "DISABLED" && (s.stoppedReason === null || s.stoppedReason === "autopilot_off"))
      .map((s) => s.id),
  );
  await replanDueSchedules(
    scope,
    switched.filter((s) => s.state === "ENABLED").map((s) => s.debtorId),
  );
  const without = unique(debtorIds).filter((id) => !newest.has(id));
  const joined = without.length > 0 ? await joinAll(scope, cadence, { ...options, own }, without) : 0;
  const following = switched.length + joined;
  return { following, skipped: unique(debtorIds).length - following };
}

/**
 * Pauses every running schedule of the owner's debtors among `debtorIds` (recorded on each timeline);
 * returns how many debtors had one.
 */
export async function pauseDebtors(scope: OwnerScope, debtorIds: readonly number[]): Promise<number> {
  const live = await liveSchedulesOf(scope.db, scope.ownerId, debtorIds);
  const paused = await pauseSchedules(
    scope,
    live.filter((s) => s.state === "ENABLED").map((s) => s.id),
  );
  const pausedSet = new Set(paused);
  return new Set(live.filter((s) => pausedSet.has(s.id)).map((s) => s.debtorId)).size;
}

/**
 * Resumes the schedules the user paused of the owner's debtors among `debtorIds` (each from its next
 * run; a debtor who paid, opted out or bounces keeps them paused, with why).
 */
export async function resumeDebtors(scope: OwnerScope, debtorIds: readonly number[]) {
  const live = await liveSchedulesOf(scope.db, scope.ownerId, debtorIds);
  return resumeSchedules(
    scope,
    live
      .filter((s) => s.state === "DISABLED" && (s.stoppedReason === null || s.stoppedReason === "autopilot_off"))
      .map((s) => s.id),
  );
}
