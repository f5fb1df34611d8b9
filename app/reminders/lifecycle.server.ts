import {
  and,
  count,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  ne,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import { type DebtorEventType, debtorEventInsert, noticeInsert } from "~/activity/index.server";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import { type Db, getDb } from "~/db/client.server";
import { hasOpenInvoice, owesSql } from "~/db/owed";
import { alarmRepairs, debtorEvents, debtors, deliveries, invoices, schedules } from "~/db/schema";
import { AccountCapReached, DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import { DEFAULT_CADENCE_STEPS, nextCadenceRun, parseSteps, serializeSteps } from "~/domain/cadence";
import { FREQUENCIES, type FrequencyId, NOW_DELAY_MS } from "~/domain/frequencies";
import { outstandingCents } from "~/domain/money";
import { cadencePlanOf, parseDueDates, planNextRun, type RunPlanRow, type ScheduleAdvance } from "~/domain/occurrence";
import { PRESETS } from "~/domain/presets";
import type { SendRefusal } from "~/domain/refusals";
import { nextRunForFrequency } from "~/domain/schedule-time";
import { safeTimeZone } from "~/domain/time-zone";
import { assertRoomForOneMore, type CreateOptions, enforceCap } from "~/platform/account-caps.server";
import type { OwnerScope } from "~/platform/scope.server";
import { type Debtor, getSchedule, getSenderAndDebtors, type Schedule } from "~/reminders/schedules.server";
import { openDueDatesSql } from "~/reminders/statement.server";
import type { ScheduleInput } from "~/schemas/schedule";

/**
 * The reminder lifecycle (docs/architecture.md §4, "One lifecycle"): the only code that changes a
 * schedule's state (create, edit, pause, resume, send now, stop or hold with a reason, delete,
 * advance after a send), records the timeline event for it and arms or disarms its Durable Object.
 * Form actions, the JSON API, webhooks, the token pages, the engine and the mail queue call it.
 *
 * Every write is scoped to the owner (ids from a request are only a request; another user's look
 * missing), and the D1 change and its timeline event are one batch (one transaction). The Durable
 * Object follows after the commit; a call that fails then is never an error for the caller: the
 * change was saved, so the answer says so, the failure is written to alarm_repairs and the
 * watchdog's next run sets the alarm from the row (repairAlarms).
 */

// Alarms: the only calls to a schedule's Durable Object ---------------------------------------

/** The Durable Object of one schedule: named by the schedule id (made by the server). */
function stub(env: Env, scheduleId: string) {
  return env.SCHEDULES.get(env.SCHEDULES.idFromName(scheduleId));
}

/** Durable Object calls in flight at once. */
const ALARMS_AT_ONCE = 50;

/** The alarms a committed change needs: schedules to arm (at their next run) and to disarm. */
export interface AlarmChanges {
  arm?: readonly { id: string; at: number }[];
  disarm?: readonly string[];
}

export interface AlarmCall {
  id: string;
  call: () => Promise<unknown>;
}

/**
 * Makes the Durable Objects follow a change already committed to D1. Never throws: a call that
 * fails is recorded for the watchdog (recordAlarmFailures) and the caller answers with the saved
 * result. Returns how many calls failed.
 */
export async function followAlarms(env: Env, changes: AlarmChanges, now = Date.now()): Promise<number> {
  const calls: AlarmCall[] = [
    ...(changes.arm ?? []).map((a) => ({ id: a.id, call: () => stub(env, a.id).arm(a.id, a.at, { force: true }) })),
    ...unique(changes.disarm ?? []).map((id) => ({ id, call: () => stub(env, id).disarm() })),
  ];
  return runAlarmCalls(env, calls, now);
}

/**
 * Calls to schedules' Durable Objects, 50 in flight; the failed ones are recorded for the watchdog
 * to repair (alarm_repairs). Returns how many failed.
 */
export async function runAlarmCalls(env: Env, calls: readonly AlarmCall[], now: number): Promise<number> {
  const failed: { id: string; error: string }[] = [];
  for (const slice of chunk(calls, ALARMS_AT_ONCE)) {
    const results = await Promise.allSettled(slice.map((c) => c.call()));
    results.forEach((r, i) => {
      const id = slice[i]?.id;
      if (r.status === "rejected" && id) failed.push({ id, error: errorText(r.reason) });
    });
  }
  if (failed.length > 0) await recordAlarmFailures(env, failed, now);
  return failed.length;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** Three values a row: 33 rows per INSERT stay under D1's 100 bound values. */
const REPAIRS_PER_INSERT = 33;

/**
 * Writes the failed calls to alarm_repairs (one row a schedule, the latest failure). If even that
 * fails, it is logged: an ENABLED schedule whose alarm was lost is still re-armed by the
 * watchdog's overdue sweep, and a stray alarm of a stopped or deleted one sends nothing.
 */
async function recordAlarmFailures(env: Env, failed: readonly { id: string; error: string }[], now: number) {
  console.error(`[dunly] ${failed.length} alarm call(s) failed; the watchdog repairs them`, failed.slice(0, 5));
  const db = getDb(env.DB);
  const [first, ...rest] = chunk(failed, REPAIRS_PER_INSERT).map((rows) =>
    db
      .insert(alarmRepairs)
      .values(rows.map((f) => ({ scheduleId: f.id, error: f.error, failedAt: now })))
      .onConflictDoUpdate({
        target: alarmRepairs.scheduleId,
        set: { error: sql`excluded.error`, failedAt: sql`excluded.failed_at` },
      }),
  );
  if (!first) return;
  try {
    await db.batch([first, ...rest]);
  } catch (error) {
    console.error("[dunly] could not record the failed alarm calls", error);
  }
}

/** Re-arms schedules whose alarm may be lost, keeping one still pending (the watchdog's overdue sweep). */
export async function rearmSchedules(env: Env, due: readonly { id: string; at: number }[]) {
  return Promise.allSettled(due.map((s) => stub(env, s.id).arm(s.id, s.at, { force: false })));
}

/** Repairs handled per watchdog run, and per query. */
const REPAIRS_PER_RUN = 500;

/**
 * The watchdog's repair of failed alarm calls: each recorded schedule's alarm is set from its row
 * as it is now (ENABLED: armed at its next run; paused, completed or gone: disarmed), and the
 * record goes once that worked (unless a newer failure replaced it meanwhile). Returns how many
 * were repaired and how many failed again (they stay for the next run).
 */
export async function repairAlarms(env: Env): Promise<{ repaired: number; failed: number }> {
  const db = getDb(env.DB);
  const rows = await db
    .select({
      scheduleId: alarmRepairs.scheduleId,
      failedAt: alarmRepairs.failedAt,
      state: schedules.state,
      nextRunAt: schedules.nextRunAt,
    })
    .from(alarmRepairs)
    .leftJoin(schedules, eq(schedules.id, alarmRepairs.scheduleId))
    .orderBy(alarmRepairs.failedAt)
    .limit(REPAIRS_PER_RUN);
  let repaired = 0;
  let failed = 0;
  for (const slice of chunk(rows, ALARMS_AT_ONCE)) {
    const results = await Promise.allSettled(
      slice.map(async (r) => {
        const s = stub(env, r.scheduleId);
        if (r.state === "ENABLED" && r.nextRunAt != null) await s.arm(r.scheduleId, r.nextRunAt, { force: true });
        else await s.disarm();
        await db
          .delete(alarmRepairs)
          .where(and(eq(alarmRepairs.scheduleId, r.scheduleId), eq(alarmRepairs.failedAt, r.failedAt)));
      }),
    );
    for (const r of results) {
      if (r.status === "fulfilled") repaired += 1;
      else {
        failed += 1;
        console.error("[dunly] watchdog could not repair an alarm", r.reason);
      }
    }
  }
  return { repaired, failed };
}

// Timeline events of schedule changes -----------------------------------------------------------

const FREQUENCY_SHORT: Record<FrequencyId, string> = {
  daily: "Daily",
  weekly: "Weekly",
  now: "Once",
  due: "Follows the due date",
};

/** A string literal for SQL (our own constants only). */
const literal = (value: string) => sql.raw(`'${value.replaceAll("'", "''")}'`);

/** A schedule event's detail ("Weekly · Escalating Reminders"), in SQL over the schedules row: no bound values, whatever the batch binds. */
const EVENT_DETAIL_SQL = sql`(CASE ${schedules.frequency} ${sql.join(
  FREQUENCIES.map((f) => sql`WHEN ${literal(f.id)} THEN ${literal(FREQUENCY_SHORT[f.id])}`),
  sql` `,
)} ELSE ${schedules.frequency} END) || ${literal(" · ")} || (CASE ${schedules.preset} ${sql.join(
  PRESETS.map((p) => sql`WHEN ${literal(p.id)} THEN ${literal(p.name)}`),
  sql` `,
)} ELSE ${schedules.preset} END)`;

/**
 * The timeline event `type` of every schedule matching `where`, as an INSERT … SELECT to put in
 * the batch before the change (statements of a batch run in order, so it sees the rows as they
 * were, and an event is recorded exactly for the schedules the change touches).
 */
function eventsOfSchedules(db: Db, type: DebtorEventType, where: SQL | undefined, now: number) {
  return db.insert(debtorEvents).select(
    db
      .select({
        // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
        id: sql<number>`null`.as("id"),
        ownerId: schedules.ownerId,
        debtorId: schedules.debtorId,
        type: sql<string>`${literal(type)}`.as("type"),
        detail: sql<string>`${EVENT_DETAIL_SQL}`.as("detail"),
        createdAt: sql<number>`${sql.raw(String(Math.trunc(now)))}`.as("created_at"),
      })
      .from(schedules)
      .where(where),
  );
}

// Whether a schedule can send --------------------------------------------------------------------

/** The debtor fields that decide whether reminders can reach them. */
export interface SendableDebtor {
  status: string;
  debtCents: number;
  paidCents: number;
}

/**
 * Why no reminder can go to this debtor (paid, nothing owed, opted out, an address that bounced),
 * or null. A schedule is not created, edited or resumed into a state that cannot send.
 */
export function sendRefusal(
  debtor: SendableDebtor,
  { addressOptedOut = false, addressBounced = true }: { addressOptedOut?: boolean; addressBounced?: boolean } = {},
): SendRefusal | null {
  if (addressOptedOut || debtor.status === "opted_out") return "opted_out";
  if (debtor.status === "paid") return "paid";
  // 'bouncing' with the address that bounced; once the user changed the address it may go again.
  if (debtor.status === "bouncing" && addressBounced) return "bouncing";
  if (outstandingCents(debtor) <= 0) return "nothing_owed";
  return null;
}

/** Whether a reminder to the debtor's current address bounced (through deliveries (debtor_id, …)). */
const addressBouncedSql = sql<number>`exists (SELECT 1 FROM ${deliveries} AS d WHERE d.debtor_id = ${debtors.id} AND d.status = 'bounced' AND d.recipient = lower(${debtors.email}))`;

// Create, edit, delete ----------------------------------------------------------------------------

type TargetError = "debtor" | "organization";
export type ScheduleWriteError =
  | { error: TargetError }
  | { error: "refused"; refusal: SendRefusal; debtorName: string }
  // A due-date cadence none of whose steps is still ahead for the debtor's open invoices.
  | { error: "no-step-ahead"; debtorName: string };

/** The schedule's name: the owner id as prefix, then a random part. */
function newScheduleId(ownerId: string) {
  return `${ownerId}-${crypto.randomUUID()}`;
}

/** SQLite's implicit row number: insertion order, which the account caps count by. */
const ROWID = sql<number>`rowid`;

/**
 * The debtor and organization a schedule input names, when both are the owner's and the debtor
 * can be sent to; otherwise the field that is not (it looks missing, whoever owns it) or why no
 * reminder can reach the debtor.
 */
async function sendableTargets(
  db: Db,
  ownerId: string,
  input: ScheduleInput,
): Promise<{ debtor: Debtor; organizationId: number | null } | ScheduleWriteError> {
  const orgId = input.kind === "company" ? (input.organization_id ?? null) : null;
  const {
    user,
    debtors: [debtor],
    org,
    optedOut,
  } = await getSenderAndDebtors(db, ownerId, [input.debtor_id], orgId);
  if (!user || !debtor) return { error: "debtor" };
  if (orgId !== null && !org) return { error: "organization" };
  const bounced =
    debtor.status === "bouncing"
      ? Boolean(
          (
            await db
              .select({ b: addressBouncedSql })
              .from(debtors)
              .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtor.id)))
              .get()
          )?.b,
        )
      : false;
  const refusal = sendRefusal(debtor, {
    addressOptedOut: optedOut.has(debtor.email.toLowerCase()),
    addressBounced: bounced,
  });
  if (refusal) return { error: "refused", refusal, debtorName: debtor.fullName };
  return { debtor, organizationId: org?.id ?? null };
}

/**
 * The columns a create or an edit writes: who, what, when, in which zone; always ENABLED. A
 * due-date schedule (docs/architecture.md §4, "Due-date cadences") keeps its steps and runs first
 * at the next step of the debtor's open invoices (`dueDates`), or in a minute when the user chose
 * to send the first one now; null when neither is possible (every step has passed).
 */
function scheduleColumns(
  targets: { debtor: Debtor; organizationId: number | null },
  input: ScheduleInput,
  timeZone: string,
  now: number,
  dueDates: string[] = [],
) {
  const zone = safeTimeZone(timeZone);
  const due = input.frequency === "due";
  const cadence = {
    cadenceSteps: due ? serializeSteps(parseSteps(input.cadence_steps ?? "") ?? DEFAULT_CADENCE_STEPS) : null,
    cadenceRepeatDays: due && input.after_last === "repeat" ? (input.repeat_days ?? null) : null,
    sendHour: due ? (input.send_hour ?? null) : null,
  };
  let nextRunAt: number | null;
  if (!due) nextRunAt = nextRunForFrequency(input.frequency as Exclude<FrequencyId, "due">, now, zone);
  else if (input.send_first_now) nextRunAt = now + NOW_DELAY_MS;
  else {
    const plan = cadencePlanOf(cadence, targets.debtor.timeZone, dueDates);
    nextRunAt = nextCadenceRun(plan, dueDates, now, plan.timeZone)?.at ?? null;
  }
  return {
    ...cadence,
    debtorId: targets.debtor.id,
    organizationId: targets.organizationId,
    preset: input.preset,
    frequency: input.frequency,
    timeZone: zone,
    // Not given: the earliest due date of the debtor's open invoices (docs/architecture.md §10).
    dueDate:
      input.due_date ||
      sql<
        string | null
      >`(SELECT min(${invoices.dueOn}) FROM ${invoices} WHERE ${invoices.debtorId} = ${targets.debtor.id} AND ${invoices.status} = 'open')`,
    state: "ENABLED" as const,
    stoppedReason: null,
    nextRunAt,
  };
}

/** The open invoices' due dates of the owner's debtor, for a due-date schedule's first run. */
async function dueDatesOf(db: Db, ownerId: string, debtorId: number): Promise<string[]> {
  const row = await db
    .select({ dates: openDueDatesSql() })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
    .get();
  return parseDueDates(row?.dates);
}

/**
 * Creates the owner's schedule, ENABLED with its first run computed, records 'schedule_created'
 * and arms its alarm. Refused (nothing kept) when the debtor or organization is not the owner's,
 * when no reminder can reach the debtor, or (AccountCapReached, thrown) past the account's cap.
 */
export async function createSchedule(
  scope: OwnerScope,
  input: ScheduleInput,
  options: { max?: number } = {},
): Promise<{ schedule: Schedule } | ScheduleWriteError> {
  const { db, ownerId, now } = scope;
  const targets = await sendableTargets(db, ownerId, input);
  if ("error" in targets) return targets;
  const dueDates = input.frequency === "due" ? await dueDatesOf(db, ownerId, targets.debtor.id) : [];
  const columns = scheduleColumns(targets, input, input.time_zone ?? "", now, dueDates);
  if (columns.nextRunAt === null) return { error: "no-step-ahead", debtorName: targets.debtor.fullName };
  const id = newScheduleId(ownerId);
  const [[inserted], [event]] = await db.batch([
    db
      .insert(schedules)
      .values({ id, ownerId, ...columns, templateStep: 0, createdAt: now, updatedAt: now })
      .returning({ ...getTableColumns(schedules), rowid: ROWID }),
    // After the INSERT: the event names the schedule as written, like every other change's.
    eventsOfSchedules(db, "schedule_created", and(eq(schedules.ownerId, ownerId), eq(schedules.id, id)), now).returning(
      {
        id: debtorEvents.id,
      },
    ),
  ]);
  // An INSERT … RETURNING always returns the row it wrote.
  if (!inserted) throw new Error("The new schedule was not returned");
  try {
    await enforceCap(db, "schedules", ownerId, [inserted.rowid], options.max ?? DEFAULT_ACCOUNT_CAPS.schedules);
  } catch (error) {
    // Refused: the schedule is gone again, so is its event.
    if (event) await db.delete(debtorEvents).where(eq(debtorEvents.id, event.id));
    throw error;
  }
  const { rowid: _rowid, ...schedule } = inserted;
  await followAlarms(scope.env, { arm: [{ id: schedule.id, at: schedule.nextRunAt ?? now }] }, now);
  return { schedule };
}

/**
 * Changes the owner's schedule in place (same id, so no duplicate is left behind): ENABLED again
 * with its next run computed afresh; the preset's sequence restarts when the preset or the debtor
 * changes. Records 'schedule_updated' and re-arms its alarm. Refused like createSchedule; an
 * edit that makes a completed schedule live again must fit under the cap (AccountCapReached).
 */
export async function updateSchedule(
  scope: OwnerScope,
  id: string,
  input: ScheduleInput,
  options: { max?: number } = {},
): Promise<{ schedule: Schedule } | ScheduleWriteError | { error: "not-found" }> {
  const { db, ownerId, now } = scope;
  const existing = await getSchedule(db, ownerId, id);
  if (!existing) return { error: "not-found" };
  if (existing.state === "COMPLETED") {
    await assertRoomForOneMore(db, "schedules", ownerId, options.max ?? DEFAULT_ACCOUNT_CAPS.schedules);
  }
  const targets = await sendableTargets(db, ownerId, input);
  if ("error" in targets) return targets;
  const dueDates = input.frequency === "due" ? await dueDatesOf(db, ownerId, targets.debtor.id) : [];
  const columns = scheduleColumns(targets, input, input.time_zone || existing.timeZone, now, dueDates);
  if (columns.nextRunAt === null) return { error: "no-step-ahead", debtorName: targets.debtor.fullName };
  const sameSequence = existing.preset === columns.preset && existing.debtorId === columns.debtorId;
  const owned = and(eq(schedules.ownerId, ownerId), eq(schedules.id, id));
  const [[row]] = await db.batch([
    db
      .update(schedules)
      .set({ ...columns, templateStep: sameSequence ? existing.templateStep : 0, updatedAt: now })
      .where(owned)
      .returning(),
    // After the UPDATE: the event names the schedule as it is now.
    eventsOfSchedules(db, "schedule_updated", owned, now),
  ]);
  if (!row) return { error: "not-found" };
  await followAlarms(scope.env, { arm: [{ id: row.id, at: row.nextRunAt ?? now }] }, now);
  return { schedule: row };
}

/**
 * Deletes the owner's schedule, records 'schedule_deleted' (one batch) and disarms its alarm;
 * false when it is not theirs (nothing changes). The same for the form and the API.
 */
export async function deleteSchedule(scope: OwnerScope, id: string): Promise<boolean> {
  const { db, ownerId, now } = scope;
  const owned = and(eq(schedules.ownerId, ownerId), eq(schedules.id, id));
  const [, deleted] = await db.batch([
    eventsOfSchedules(db, "schedule_deleted", owned, now),
    db.delete(schedules).where(owned).returning({ id: schedules.id }),
  ]);
  if (deleted.length === 0) return false;
  await followAlarms(scope.env, { disarm: [id] }, now);
  return true;
}

// Pause, resume, send now ------------------------------------------------------------------------

/**
 * Pauses the owner's ENABLED schedules among `ids`: DISABLED, no next run, no stopped_reason (the
 * user paused it, not Dunly), 'schedule_paused' on each debtor's timeline, alarms disarmed.
 * Returns the ids it changed; one batch, so all or none.
 */
export async function pauseSchedules(scope: OwnerScope, ids: readonly string[]): Promise<string[]> {
  const { db, ownerId, now } = scope;
  const statements = chunk(unique(ids), IDS_PER_STATEMENT).flatMap((slice) => {
    const live = and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice), eq(schedules.state, "ENABLED"));
    return [
      eventsOfSchedules(db, "schedule_paused", live, now),
      db
        .update(schedules)
        .set({ state: "DISABLED", stoppedReason: null, nextRunAt: null, updatedAt: now })
        .where(live)
        .returning({ id: schedules.id }),
    ];
  });
  const [first, ...rest] = statements;
  if (!first) return [];
  const results = await db.batch([first, ...rest]);
  const paused = results.filter((_, i) => i % 2 === 1).flatMap((rows) => (rows as { id: string }[]).map((r) => r.id));
  await followAlarms(scope.env, { disarm: paused }, now);
  return paused;
}

export interface ResumeOutcome {
  /** The schedules that are ENABLED again, with their next run. */
  resumed: { id: string; nextRunAt: number }[];
  /** The owner's paused schedules that stay paused, with the debtor's name and why. */
  refused: { id: string; debtorName: string; reason: SendRefusal }[];
}

/** DISABLED schedules of the owner matching `where`, with what decides whether they may resume. */
function pausedRows(db: Db, ownerId: string, where: SQL | undefined) {
  return db
    .select({
      id: schedules.id,
      ...runPlanColumns(),
      // Not debtors.id: D1's batch answers rows keyed by column name, and "id" is the schedule's.
      debtorId: schedules.debtorId,
      debtorName: debtors.fullName,
      status: debtors.status,
      addressBounced: addressBouncedSql,
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
    })
    .from(schedules)
    .innerJoin(debtors, eq(debtors.id, schedules.debtorId))
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.state, "DISABLED"), where));
}

/**
 * Resumes the owner's DISABLED schedules among `ids`: ENABLED, stopped_reason cleared, next run
 * computed afresh from now in the schedule's own zone, 'schedule_resumed' recorded, alarms armed.
 * A schedule whose debtor cannot be sent to (sendRefusal) stays paused and is listed in `refused`.
 * A 'bouncing' debtor whose address has changed since the bounce is 'active' again. Ids that are
 * not the owner's paused schedules appear in neither list.
 */
export async function resumeSchedules(scope: OwnerScope, ids: readonly string[]): Promise<ResumeOutcome> {
  const { db, ownerId } = scope;
  const reads = chunk(unique(ids), IDS_PER_STATEMENT).map((slice) =>
    pausedRows(db, ownerId, inArray(schedules.id, slice)),
  );
  const [firstRead, ...otherReads] = reads;
  if (!firstRead) return { resumed: [], refused: [] };
  return resumePaused(scope, (await db.batch([firstRead, ...otherReads])).flat());
}

async function resumePaused(scope: OwnerScope, paused: Awaited<ReturnType<typeof pausedRows>>): Promise<ResumeOutcome> {
  const { db, ownerId, now } = scope;
  const refused: ResumeOutcome["refused"] = [];
  const plans: { id: string; nextRunAt: number }[] = [];
  const readdressed = new Set<number>();
  for (const s of paused) {
    const reason = sendRefusal(s, { addressBounced: Boolean(s.addressBounced) });
    if (reason) refused.push({ id: s.id, debtorName: s.debtorName, reason });
    else plans.push({ id: s.id, nextRunAt: planNextRun(s, now) });
    if (!reason && s.status === "bouncing") readdressed.add(s.debtorId);
  }
  // Per schedule (each has its own next run): its event, then the UPDATE; still DISABLED, or it changed meanwhile.
  const statements = plans.flatMap((p) => {
    const stillPaused = and(eq(schedules.ownerId, ownerId), eq(schedules.id, p.id), eq(schedules.state, "DISABLED"));
    return [
      eventsOfSchedules(db, "schedule_resumed", stillPaused, now),
      db
        .update(schedules)
        .set({ state: "ENABLED", stoppedReason: null, nextRunAt: p.nextRunAt, updatedAt: now })
        .where(stillPaused)
        .returning({ id: schedules.id, nextRunAt: schedules.nextRunAt }),
    ];
  });
  const [first, ...rest] = statements;
  if (!first) return { resumed: [], refused };
  // The debtor's address changed since it bounced: no longer 'bouncing' (same batch, all or nothing).
  const readdress = chunk([...readdressed], IDS_PER_STATEMENT).map((slice) =>
    db
      .update(debtors)
      .set({ status: "active", updatedAt: now })
      .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, slice), eq(debtors.status, "bouncing"))),
  );
  const results = await db.batch([first, ...rest, ...readdress]);
  const resumed = results
    .slice(0, statements.length)
    .filter((_, i) => i % 2 === 1)
    .flatMap((rows) =>
      (rows as { id: string; nextRunAt: number | null }[]).map((r) => ({ id: r.id, nextRunAt: r.nextRunAt ?? now })),
    );
  await followAlarms(scope.env, { arm: resumed.map((r) => ({ id: r.id, at: r.nextRunAt })) }, now);
  return { resumed, refused };
}

/**
 * "Send next reminder now": the next run of the owner's enabled schedules among `ids` moves to
 * now and their alarms are armed for it; returns the ids it changed (all in one batch, or none).
 * Others' ids are silently not touched. The sending limits are the caller's to check first.
 */
export async function sendNow(scope: OwnerScope, ids: readonly string[]): Promise<string[]> {
  const { db, ownerId, now } = scope;
  const [first, ...rest] = chunk(unique(ids), IDS_PER_STATEMENT).map((slice) =>
    db
      .update(schedules)
      .set({ nextRunAt: now, updatedAt: now })
      .where(and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice), eq(schedules.state, "ENABLED")))
      .returning({ id: schedules.id }),
  );
  if (!first) return [];
  const changed = (await db.batch([first, ...rest])).flat().map((r) => r.id);
  await followAlarms(scope.env, { arm: changed.map((id) => ({ id, at: now })) }, now);
  return changed;
}

/**
 * Which of the owner's debtors among `debtorIds` a reminder can reach, and why the others cannot
 * (sendRefusal: paid, nothing owed, opted out, bouncing). Others' debtors are in neither list.
 */
export async function sendableDebtors(db: Db, ownerId: string, debtorIds: readonly number[]) {
  const sendable: Debtor[] = [];
  const refused: { debtorName: string; reason: SendRefusal }[] = [];
  if (debtorIds.length === 0) return { sendable, refused };
  const { user, debtors: owned, optedOut } = await getSenderAndDebtors(db, ownerId, debtorIds);
  if (!user) return { sendable, refused };
  for (const d of owned) {
    const reason = sendRefusal(d, { addressOptedOut: optedOut.has(d.email.toLowerCase()), addressBounced: true });
    if (reason) refused.push({ debtorName: d.fullName, reason });
    else sendable.push(d);
  }
  return { sendable, refused };
}

/** A new schedule row binds 16 values: five rows per INSERT (80) stay under D1's 100, with room to grow. */
const SCHEDULES_PER_INSERT = 5;

/**
 * Re-send: a one-time Single Reminder, due now, to each of the owner's debtors among `debtorIds`
 * that can be sent to (the others are skipped and counted in `unsendable`), each recorded as
 * 'schedule_created' and armed. Over the account's cap none is kept (AccountCapReached). Others'
 * debtors are neither created for nor counted.
 */
export async function createResendSchedules(
  scope: OwnerScope,
  debtorIds: readonly number[],
  timeZone: string,
  options: CreateOptions = {},
): Promise<{ created: { id: string; nextRunAt: number }[]; unsendable: number }> {
  const { db, ownerId, now } = scope;
  const { sendable, refused } = await sendableDebtors(db, ownerId, debtorIds);
  const values = sendable.map((debtor) => ({
    id: newScheduleId(ownerId),
    ownerId,
    debtorId: debtor.id,
    organizationId: null,
    preset: "SINGLE_REMINDER" as const,
    templateStep: 0,
    frequency: "now" as const,
    timeZone: safeTimeZone(timeZone),
    dueDate: null,
    state: "ENABLED" as const,
    nextRunAt: now,
    createdAt: now,
    updatedAt: now,
  }));
  const inserts = chunk(values, SCHEDULES_PER_INSERT).map((rows) =>
    db.insert(schedules).values(rows).returning({ id: schedules.id, nextRunAt: schedules.nextRunAt, rowid: ROWID }),
  );
  const [first, ...rest] = inserts;
  const unsendable = refused.length;
  if (!first) return { created: [], unsendable };
  const createdIds = values.map((v) => v.id);
  const events = chunk(createdIds, IDS_PER_STATEMENT).map((slice) =>
    eventsOfSchedules(
      db,
      "schedule_created",
      and(eq(schedules.ownerId, ownerId), inArray(schedules.id, slice)),
      now,
    ).returning({ id: debtorEvents.id }),
  );
  // One batch is one transaction: every debtor gets a schedule and its event, or none does.
  const results = await db.batch([first, ...rest, ...events]);
  const created = results.slice(0, inserts.length).flat() as { id: string; nextRunAt: number | null; rowid: number }[];
  const eventIds = results.slice(inserts.length).flat() as { id: number }[];
  try {
    await enforceCap(
      db,
      "schedules",
      ownerId,
      created.map((s) => s.rowid),
      options.max ?? DEFAULT_ACCOUNT_CAPS.schedules,
    );
  } catch (error) {
    // Refused as a whole: the schedules are gone again, so are their events.
    for (const slice of chunk(eventIds, IDS_PER_STATEMENT)) {
      await db.delete(debtorEvents).where(
        inArray(
          debtorEvents.id,
          slice.map((e) => e.id),
        ),
      );
    }
    throw error;
  }
  const out = created.map(({ id, nextRunAt }) => ({ id, nextRunAt: nextRunAt ?? now }));
  await followAlarms(scope.env, { arm: out.map((s) => ({ id: s.id, at: s.nextRunAt })) }, now);
  return { created: out, unsendable };
}

// Stops and holds by Dunly: statements for the batch of the change that causes them -------------

/**
 * Every live (ENABLED or DISABLED) schedule of the owner's debtor completes with 'paid' once
 * nothing is owed (checked in the statement, after the payment write before it in the batch).
 * Returns the ids it completed (to disarm with followAlarms).
 */
export function completeWhenPaidStatement(db: Db, ownerId: string, debtorId: number, now: number) {
  return db
    .update(schedules)
    .set({ state: "COMPLETED", stoppedReason: "paid", nextRunAt: null, updatedAt: now })
    .where(
      and(
        eq(schedules.ownerId, ownerId),
        eq(schedules.debtorId, debtorId),
        inArray(schedules.state, ["ENABLED", "DISABLED"]),
        sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${debtorId} AND ${debtors.ownerId} = ${ownerId} AND NOT ${owesSql(debtorId)})`,
      ),
    )
    .returning({ id: schedules.id });
}

/** Every live schedule of the owner's debtors in `debtorIds` (a subquery) completes with 'opted_out'. */
export function stopForOptOutStatement(db: Db, ownerId: string, debtorIds: SQLWrapper, now: number) {
  return db
    .update(schedules)
    .set({ state: "COMPLETED", stoppedReason: "opted_out", nextRunAt: null, updatedAt: now })
    .where(
      and(
        eq(schedules.ownerId, ownerId),
        inArray(schedules.debtorId, debtorIds),
        inArray(schedules.state, ["ENABLED", "DISABLED"]),
      ),
    )
    .returning({ id: schedules.id });
}

/**
 * The owner's debtor's ENABLED schedules are held (DISABLED with `reason`, no next run): a bounce,
 * or the debtor's "I've paid" (`onlyIf`: the claim's own condition, so a repeat holds nothing).
 */
export function holdStatement(
  db: Db,
  ownerId: string,
  debtorId: number,
  reason: "bounced" | "paid_claimed",
  now: number,
  onlyIf?: SQL,
) {
  return db
    .update(schedules)
    .set({ state: "DISABLED", stoppedReason: reason, nextRunAt: null, updatedAt: now })
    .where(
      and(eq(schedules.ownerId, ownerId), eq(schedules.debtorId, debtorId), eq(schedules.state, "ENABLED"), onlyIf),
    )
    .returning({ id: schedules.id });
}

/**
 * Every schedule of the owner's debtor is deleted, for the batch that deletes the debtor (before
 * it: the foreign key would otherwise take them without a word to their Durable Objects). Returns
 * the ids to disarm with followAlarms. No timeline event: the debtor's timeline goes with them.
 */
export function deleteSchedulesOfDebtorStatement(db: Db, ownerId: string, debtorId: number) {
  return db
    .delete(schedules)
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.debtorId, debtorId)))
    .returning({ id: schedules.id });
}

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
  await followAlarms(scope.env, { arm: resumed.map((r) => ({ id: r.id, at: r.nextRunAt })) }, now);
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
// (docs/architecture.md §10, "The debtor's page"; the callers are app/responses/promises.server.ts and
// app/responses/disputes.server.ts.)

/**
 * Why Dunly holds a debtor's schedules on the debtor's own word or act: a promise to pay, disputes,
 * a bank payment online still being processed (decisions/018), or an e-mail reply the user has not
 * handled yet (decisions/020).
 */
export type DebtorHoldReason = "promised" | "disputed" | "payment_pending" | "replied";

/**
 * The owner's debtor's ENABLED schedules are held (DISABLED with `reason`, no next run), for the
 * batch of the change that causes it; `onlyIf` is that change's own condition (checked after the
 * statements before it in the batch, so a refused or repeated change holds nothing). Returns the
 * ids to disarm with followAlarms. No schedule event: the debtor's own event says why.
 */
export function holdForDebtorStatement(
  db: Db,
  ownerId: string,
  debtorId: number,
  reason: DebtorHoldReason,
  now: number,
  onlyIf?: SQL,
) {
  return db
    .update(schedules)
    .set({ state: "DISABLED", stoppedReason: reason, nextRunAt: null, updatedAt: now })
    .where(
      and(eq(schedules.ownerId, ownerId), eq(schedules.debtorId, debtorId), eq(schedules.state, "ENABLED"), onlyIf),
    )
    .returning({ id: schedules.id });
}

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
 * The debtor's schedules that disputes held run again once an open invoice exists (a dispute
 * resolved, a disputed invoice voided and others open, a new invoice): through the lifecycle
 * (resumeHeld: next run from now, 'schedule_resumed', alarms armed; a debtor who paid, opted out or
 * bounces keeps them held). Nothing open: nothing changes. For whoever changes invoices (the
 * invoice void) to call after its batch.
 */
export function releaseDisputeHolds(scope: OwnerScope, debtorId: number): Promise<ResumeOutcome> {
  return resumeHeld(scope, debtorId, "disputed", hasOpenInvoice(debtorId));
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

// Due-date cadences: following the invoices ------------------------------------------------------
// (docs/architecture.md §4, "Due-date cadences")

/**
 * Columns that, read with a schedule, let planNextRun compute its next run: its frequency, zone and
 * cadence, its debtor's zone and (for a due-date schedule only) its debtor's open due dates.
 */
export function runPlanColumns() {
  return {
    frequency: schedules.frequency,
    timeZone: schedules.timeZone,
    cadenceSteps: schedules.cadenceSteps,
    cadenceRepeatDays: schedules.cadenceRepeatDays,
    sendHour: schedules.sendHour,
    debtorTimeZone: sql<string | null>`(SELECT d.time_zone FROM ${debtors} AS d WHERE d.id = ${schedules.debtorId})`.as(
      "debtor_time_zone",
    ),
    openDueDates: sql<
      string | null
    >`(CASE WHEN ${schedules.frequency} = 'due' THEN ${openDueDatesSql(schedules.debtorId)} END)`.as("open_due_dates"),
  };
}

type BatchItem = Parameters<Db["batch"]>[0][number];

/** How close to its run a schedule is left alone by a re-plan: it is firing, or about to. */
const REPLAN_MARGIN_MS = NOW_DELAY_MS;

/**
 * After the owner's debtors' invoices, payments or zone changed: their ENABLED due-date schedules
 * move to the next step of the open invoices as they are now (a paid or voided invoice's steps
 * go, an added one's join, a moved due date moves its steps), and one with no step left ends
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
    const plan = cadencePlanOf(r, r.debtorTimeZone, parseDueDates(r.openDueDates));
    const at = nextCadenceRun(plan, plan.dueDates, now, plan.timeZone)?.at ?? null;
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
    scope.env,
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
  reason: "disputed" | "promised" | "no_plan",
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
  env: Env,
  items: readonly {
    occurrence: { deliveryId: number; scheduleId: string; scheduledAt: number; alarmAt?: number };
    next: ScheduleAdvance;
    settlement: Settlement;
  }[],
  now = Date.now(),
): Promise<number> {
  const db = getDb(env.DB);
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
  await runAlarmCalls(env, calls, now);
  return calls.length;
}

/**
 * The end-to-end tests' skip of a wait (POST /dev/schedules/advance, development and test only):
 * each of the owner's enabled schedules runs `ms` earlier and its alarm is re-armed for it, so a
 * reminder due within `ms` goes out now through the real alarm, engine, queue and mail Worker.
 * Conditional like the engine's own updates: a schedule that changed meanwhile is left alone.
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
      .where(and(eq(schedules.ownerId, ownerId), eq(schedules.id, s.id), eq(schedules.nextRunAt, s.nextRunAt)))
      .returning({ id: schedules.id });
    if (updated.length > 0) moved.push({ id: s.id, createdAt: s.createdAt, nextRunAt: s.nextRunAt, movedTo });
  }
  await followAlarms(scope.env, { arm: moved.map((m) => ({ id: m.id, at: m.movedTo })) }, now);
  return moved;
}
