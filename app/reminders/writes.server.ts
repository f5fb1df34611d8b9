import { and, eq, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { readdressedStatement } from "~/db/debtor-status";
import { debtorEvents, debtors, deliveries, invoices, schedules } from "~/db/schema";
import { DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import { type Cadence, cadenceColumns, DEFAULT_CADENCE_STEPS, parseSteps, serializeSteps } from "~/domain/cadence";
import type { CadenceInvoice } from "~/domain/cadence-plan";
import { type FrequencyId, NOW_DELAY_MS } from "~/domain/frequencies";
import { outstandingCents } from "~/domain/money";
import { cadencePlanOf, cadenceRunAfter, parseOpenInvoices, planNextRun } from "~/domain/occurrence";
import type { SendRefusal } from "~/domain/refusals";
import { nextRunForFrequency } from "~/domain/schedule-time";
import { safeTimeZone } from "~/domain/time-zone";
import { assertRoomForOneMore, type CreateOptions, enforceCap } from "~/platform/account-caps.server";
import type { OwnerScope } from "~/platform/scope.server";
import { type Debtor, getSchedule, getSenderAndDebtors, type Schedule } from "~/reminders/schedules.server";
import { openInvoicesSql } from "~/reminders/statement.server";
import type { ScheduleInput } from "~/schemas/schedule";

import { followAlarms } from "./alarms.server";
import { runPlanColumns } from "./due-dates.server";
import { eventsOfSchedules } from "./schedule-events.server";

/**
 * The reminder lifecycle: the only code that changes a
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
 * due-date schedule keeps its steps and runs first
 * at the next step of the debtor's open invoices (`open`; an overdue one's catch-up), or in a
 * minute when the user chose to send the first one now; null when neither is possible (no open
 * invoice). An edit keeps the schedule's last run (`lastRunAt`): what it covered is not sent again.
 */
function scheduleColumns(
  targets: { debtor: Debtor; organizationId: number | null },
  input: ScheduleInput,
  timeZone: string,
  now: number,
  open: CadenceInvoice[] = [],
  lastRunAt: number | null = null,
) {
  const zone = safeTimeZone(timeZone);
  const due = input.frequency === "due";
  const cadence = {
    cadenceSteps: due ? serializeSteps(parseSteps(input.cadence_steps ?? "") ?? DEFAULT_CADENCE_STEPS) : null,
    cadenceRepeatDays: due && input.after_last === "repeat" ? (input.repeat_days ?? null) : null,
    // A cadence of the schedule form: every step by its place, in the debtor's tone.
    cadenceVoices: null,
    sendHour: due ? (input.send_hour ?? null) : null,
  };
  let nextRunAt: number | null;
  if (!due) nextRunAt = nextRunForFrequency(input.frequency as Exclude<FrequencyId, "due">, now, zone);
  else if (input.send_first_now) nextRunAt = now + NOW_DELAY_MS;
  else {
    const plan = cadencePlanOf(cadence, targets.debtor.timeZone, open);
    nextRunAt = cadenceRunAfter(plan, lastRunAt, now);
  }
  return {
    ...cadence,
    debtorId: targets.debtor.id,
    organizationId: targets.organizationId,
    preset: input.preset,
    frequency: input.frequency,
    timeZone: zone,
    // Not given: the earliest due date of the debtor's open invoices.
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

/** The open invoices of the owner's debtor, for a due-date schedule's first run. */
async function openInvoicesOf(db: Db, ownerId: string, debtorId: number): Promise<CadenceInvoice[]> {
  const row = await db
    .select({ invoices: openInvoicesSql() })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
    .get();
  return parseOpenInvoices(row?.invoices);
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
  const open = input.frequency === "due" ? await openInvoicesOf(db, ownerId, targets.debtor.id) : [];
  const columns = scheduleColumns(targets, input, input.time_zone ?? "", now, open);
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
  await followAlarms(scope, { arm: [{ id: schedule.id, at: schedule.nextRunAt ?? now }] }, now);
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
  const open = input.frequency === "due" ? await openInvoicesOf(db, ownerId, targets.debtor.id) : [];
  const columns = scheduleColumns(
    targets,
    input,
    input.time_zone || existing.timeZone,
    now,
    open,
    existing.coveredAt ?? existing.lastRunAt,
  );
  if (columns.nextRunAt === null) return { error: "no-step-ahead", debtorName: targets.debtor.fullName };
  const sameSequence = existing.preset === columns.preset && existing.debtorId === columns.debtorId;
  const owned = and(eq(schedules.ownerId, ownerId), eq(schedules.id, id));
  const [[row]] = await db.batch([
    db
      .update(schedules)
      // Edited in the form: the debtor's own cadence from now on, no longer rewritten with the account's.
      .set({
        ...columns,
        templateStep: sameSequence ? existing.templateStep : 0,
        followsAccount: false,
        updatedAt: now,
      })
      .where(owned)
      .returning(),
    // After the UPDATE: the event names the schedule as it is now.
    eventsOfSchedules(db, "schedule_updated", owned, now),
  ]);
  if (!row) return { error: "not-found" };
  await followAlarms(scope, { arm: [{ id: row.id, at: row.nextRunAt ?? now }] }, now);
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
  await followAlarms(scope, { disarm: [id] }, now);
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
  await followAlarms(scope, { disarm: paused }, now);
  return paused;
}

export interface ResumeOutcome {
  /** The schedules that are ENABLED again, with their next run. */
  resumed: { id: string; nextRunAt: number }[];
  /** The owner's paused schedules that stay paused, with the debtor's name and why. */
  refused: { id: string; debtorName: string; reason: SendRefusal }[];
}

/** DISABLED schedules of the owner matching `where`, with what decides whether they may resume. */
export function pausedRows(db: Db, ownerId: string, where: SQL | undefined) {
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

export async function resumePaused(
  scope: OwnerScope,
  paused: Awaited<ReturnType<typeof pausedRows>>,
): Promise<ResumeOutcome> {
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
    readdressedStatement(db, ownerId, slice, now),
  );
  const results = await db.batch([first, ...rest, ...readdress]);
  const resumed = results
    .slice(0, statements.length)
    .filter((_, i) => i % 2 === 1)
    .flatMap((rows) =>
      (rows as { id: string; nextRunAt: number | null }[]).map((r) => ({ id: r.id, nextRunAt: r.nextRunAt ?? now })),
    );
  await followAlarms(scope, { arm: resumed.map((r) => ({ id: r.id, at: r.nextRunAt })) }, now);
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
  await followAlarms(scope, { arm: changed.map((id) => ({ id, at: now })) }, now);
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

/** D1 binds at most 100 values a statement: as many rows per INSERT as fit. */
const rowsPerInsert = (row: Record<string, unknown>) => Math.max(1, Math.floor(100 / Object.keys(row).length));

/**
 * Inserts the owner's new schedules (`values`, each ENABLED with its first run) with their
 * 'schedule_created' events in one batch, keeps them only within the account's cap
 * (AccountCapReached otherwise, nothing kept), and arms them.
 */
async function insertSchedules(
  scope: OwnerScope,
  values: (typeof schedules.$inferInsert & { id: string })[],
  options: CreateOptions,
): Promise<{ id: string; nextRunAt: number }[]> {
  const { db, ownerId, now } = scope;
  const [sample] = values;
  if (!sample) return [];
  const inserts = chunk(values, rowsPerInsert(sample)).map((rows) =>
    db.insert(schedules).values(rows).returning({ id: schedules.id, nextRunAt: schedules.nextRunAt, rowid: ROWID }),
  );
  const [first, ...rest] = inserts;
  if (!first) return [];
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
  await followAlarms(scope, { arm: out.map((s) => ({ id: s.id, at: s.nextRunAt })) }, now);
  return out;
}

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
  const created = await insertSchedules(scope, values, options);
  return { created, unsendable: refused.length };
}

/**
 * A schedule that follows the account's cadence for each of `candidates` (the owner's debtors that
 * can be sent to, with their open invoices), first run at the planner's next e-mail (an overdue
 * invoice's one catch-up); a debtor with no open invoice gets none. Within the account's cap
 * (AccountCapReached otherwise), each recorded as 'schedule_created' and armed.
 */
export async function createFollowingSchedules(
  scope: OwnerScope,
  candidates: readonly { id: number; timeZone: string | null; openInvoices: string | null }[],
  cadence: Cadence,
  options: CreateOptions & { own?: boolean } = {},
): Promise<{ id: string; nextRunAt: number }[]> {
  const { ownerId, now } = scope;
  const values = candidates.flatMap((debtor) => {
    const plan = cadencePlanOf(cadenceColumns(cadence), debtor.timeZone, parseOpenInvoices(debtor.openInvoices));
    const nextRunAt = cadenceRunAfter(plan, null, now);
    if (nextRunAt === null) return [];
    return [
      {
        id: newScheduleId(ownerId),
        ownerId,
        debtorId: debtor.id,
        organizationId: null,
        preset: "FRIENDLY_REMINDER" as const,
        templateStep: 0,
        frequency: "due" as const,
        ...cadenceColumns(cadence),
        // The account's cadence; `own`: a cadence the user gave these debtors (the bulk 'Use another cadence').
        followsAccount: !options.own,
        timeZone: plan.timeZone,
        dueDate: null,
        state: "ENABLED" as const,
        nextRunAt,
        createdAt: now,
        updatedAt: now,
      },
    ];
  });
  return insertSchedules(scope, values, options);
}
