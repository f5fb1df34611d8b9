import { and, count, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, deliveries, organizations, schedules, users } from "~/db/schema";
import type { FrequencyId } from "~/domain/frequencies";
import { getFrequency } from "~/domain/frequencies";
import type { PresetId } from "~/domain/presets";
import { templateForStep } from "~/domain/presets";
import { isValidTimeZone, nextRunForFrequency } from "~/domain/schedule-time";
import type { ScheduleInput } from "~/schemas/schedule";

export const SCHEDULE_PAGE_SIZE = 50;

export type ScheduleState = "ENABLED" | "DISABLED" | "COMPLETED";

/** The spec's Schedule Input (§3): a snapshot of who the reminder is for and from. */
export interface ScheduleSnapshot {
  receiverName: string;
  receiverEmail: string;
  senderName: string;
  senderEmail: string;
  locale: "en";
  template: string;
  debtor: { id: number; full_name: string; email: string; debt: number; active_strategy: number };
  senderCompany: { id: number; name: string; address: string } | null;
}

export function safeTimeZone(tz: string | null | undefined): string {
  return tz && isValidTimeZone(tz) ? tz : "UTC";
}

/** The schedule's name: the owner id as prefix (spec §3), then a random part. */
export function newScheduleId(ownerId: string) {
  return `${ownerId}-${crypto.randomUUID()}`;
}

async function senderAndDebtor(db: Db, ownerId: string, debtorId: number, organizationId: number | null) {
  const [user, debtor, org] = await db.batch([
    db.select({ fullName: users.fullName, email: users.email }).from(users).where(eq(users.id, ownerId)).limit(1),
    db
      .select()
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
      .limit(1),
    db
      .select({ id: organizations.id, name: organizations.name, address: organizations.address })
      .from(organizations)
      .where(and(eq(organizations.ownerId, ownerId), eq(organizations.id, organizationId ?? -1)))
      .limit(1),
  ]);
  return { user: user[0], debtor: debtor[0], org: org[0] };
}

/** Who the reminder is from and to, looked up for the owner (never from the client). */
export function snapshotOf(
  user: { fullName: string; email: string },
  debtor: typeof debtors.$inferSelect,
  org: { id: number; name: string; address: string } | null | undefined,
  template: string,
): ScheduleSnapshot {
  return {
    receiverName: debtor.fullName,
    receiverEmail: debtor.email,
    senderName: org?.name ?? (user.fullName || user.email),
    senderEmail: user.email,
    locale: "en",
    template,
    debtor: {
      id: debtor.id,
      full_name: debtor.fullName,
      email: debtor.email,
      debt: debtor.debtCents / 100,
      active_strategy: debtor.activeStrategy,
    },
    senderCompany: org ? { id: org.id, name: org.name, address: org.address } : null,
  };
}

export type ScheduleWriteError = "debtor" | "organization";

interface Plan {
  preset: PresetId;
  frequency: FrequencyId;
  cron: string | null;
  runAt: number | null;
  nextRunAt: number;
  timeZone: string;
}

function plan(input: { preset: PresetId; frequency: FrequencyId; time_zone?: string }, now: number): Plan {
  const timeZone = safeTimeZone(input.time_zone);
  const nextRunAt = nextRunForFrequency(input.frequency, now, timeZone);
  const frequency = getFrequency(input.frequency)!;
  return {
    preset: input.preset,
    frequency: input.frequency,
    cron: frequency.cron,
    runAt: frequency.cron ? null : nextRunAt,
    nextRunAt,
    timeZone,
  };
}

/**
 * Creates the owner's schedule, ENABLED with its first run computed; the caller arms the alarm.
 * Returns an error key when the debtor or organization is not the owner's.
 */
export async function createSchedule(db: Db, ownerId: string, input: ScheduleInput, now = Date.now()) {
  const orgId = input.kind === "company" ? (input.organization_id ?? null) : null;
  const { user, debtor, org } = await senderAndDebtor(db, ownerId, input.debtor_id, orgId);
  if (!user || !debtor) return { error: "debtor" as ScheduleWriteError };
  if (orgId !== null && !org) return { error: "organization" as ScheduleWriteError };
  const p = plan(input, now);
  const row = await db
    .insert(schedules)
    .values({
      id: newScheduleId(ownerId),
      ownerId,
      debtorId: debtor.id,
      organizationId: org?.id ?? null,
      preset: p.preset,
      templateStep: 0,
      frequency: p.frequency,
      cron: p.cron,
      runAt: p.runAt,
      timeZone: p.timeZone,
      dueDate: input.due_date || null,
      state: "ENABLED",
      nextRunAt: p.nextRunAt,
      input: snapshotOf(user, debtor, org, templateForStep(p.preset, 0)),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  // An INSERT … RETURNING always returns the row it wrote.
  return { schedule: row! };
}

/**
 * Changes the owner's schedule in place (same id, so no duplicate is left behind) and computes its
 * next run; the preset's sequence restarts when the preset changes. The caller re-arms the alarm.
 */
export async function updateSchedule(db: Db, ownerId: string, id: string, input: ScheduleInput, now = Date.now()) {
  const existing = await getSchedule(db, ownerId, id);
  if (!existing) return { error: "not-found" as const };
  const orgId = input.kind === "company" ? (input.organization_id ?? null) : null;
  const { user, debtor, org } = await senderAndDebtor(db, ownerId, input.debtor_id, orgId);
  if (!user || !debtor) return { error: "debtor" as ScheduleWriteError };
  if (orgId !== null && !org) return { error: "organization" as ScheduleWriteError };
  const p = plan({ ...input, time_zone: input.time_zone || existing.timeZone }, now);
  const step = existing.preset === p.preset && existing.debtorId === debtor.id ? existing.templateStep : 0;
  const row = await db
    .update(schedules)
    .set({
      debtorId: debtor.id,
      organizationId: org?.id ?? null,
      preset: p.preset,
      templateStep: step,
      frequency: p.frequency,
      cron: p.cron,
      runAt: p.runAt,
      timeZone: p.timeZone,
      dueDate: input.due_date || null,
      state: "ENABLED",
      nextRunAt: p.nextRunAt,
      input: snapshotOf(user, debtor, org, templateForStep(p.preset, step)),
      updatedAt: now,
    })
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.id, id)))
    .returning()
    .get();
  return row ? { schedule: row } : { error: "not-found" as const };
}

/** The owner's schedule row, or undefined: another user's id looks exactly like a missing one. */
export async function getSchedule(db: Db, ownerId: string, id: string) {
  return db
    .select()
    .from(schedules)
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.id, id)))
    .get();
}

const scheduleSentCounts = (db: Db) =>
  db
    .select({ scheduleId: deliveries.scheduleId, sent: count().as("schedule_sent") })
    .from(deliveries)
    .where(eq(deliveries.status, "sent"))
    .groupBy(deliveries.scheduleId)
    .as("schedule_sent_counts");

export interface ScheduleListFilter {
  debtorId?: number | null;
  /** Created at or after this instant (the period dropdown). */
  createdFrom?: number | null;
  /** Created before this instant. */
  createdBefore?: number | null;
  limit?: number;
  offset?: number;
}

/** Schedules joined with debtor, sender organization and the real count of e-mails sent. */
function scheduleRows(db: Db) {
  const sent = scheduleSentCounts(db);
  return db
    .select({
      id: schedules.id,
      state: schedules.state,
      preset: schedules.preset,
      frequency: schedules.frequency,
      templateStep: schedules.templateStep,
      timeZone: schedules.timeZone,
      dueDate: schedules.dueDate,
      nextRunAt: schedules.nextRunAt,
      lastRunAt: schedules.lastRunAt,
      createdAt: schedules.createdAt,
      updatedAt: schedules.updatedAt,
      debtorId: schedules.debtorId,
      organizationId: schedules.organizationId,
      debtorName: debtors.fullName,
      debtorEmail: debtors.email,
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      currency: debtors.currency,
      activeStrategy: debtors.activeStrategy,
      organizationName: organizations.name,
      emailsSent: sql<number>`coalesce(${sent.sent}, 0)`,
    })
    .from(schedules)
    .innerJoin(debtors, eq(debtors.id, schedules.debtorId))
    .leftJoin(organizations, eq(organizations.id, schedules.organizationId))
    .leftJoin(sent, eq(sent.scheduleId, schedules.id));
}

function listWhere(ownerId: string, filter: ScheduleListFilter) {
  const where = [eq(schedules.ownerId, ownerId)];
  if (filter.debtorId) where.push(eq(schedules.debtorId, filter.debtorId));
  if (filter.createdFrom != null) where.push(gte(schedules.createdAt, filter.createdFrom));
  if (filter.createdBefore != null) where.push(lt(schedules.createdAt, filter.createdBefore));
  return and(...where);
}

/** One page of the owner's schedules, newest first: one query. */
export async function listSchedules(db: Db, ownerId: string, filter: ScheduleListFilter = {}) {
  return scheduleRows(db)
    .where(listWhere(ownerId, filter))
    .orderBy(desc(schedules.createdAt), desc(schedules.id))
    .limit(filter.limit ?? SCHEDULE_PAGE_SIZE)
    .offset(filter.offset ?? 0);
}
export type ScheduleListRow = Awaited<ReturnType<typeof listSchedules>>[number];

export async function countSchedules(db: Db, ownerId: string, filter: ScheduleListFilter = {}) {
  const row = await db.select({ n: count() }).from(schedules).where(listWhere(ownerId, filter)).get();
  return row?.n ?? 0;
}

/** The owner's schedule with its debtor and sender, for the configure modal; undefined if not theirs. */
export async function getScheduleDetails(db: Db, ownerId: string, id: string) {
  return scheduleRows(db)
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.id, id)))
    .get();
}

/** Deletes the owner's schedule; false when it is not theirs. The caller deletes its alarm. */
export async function deleteSchedule(db: Db, ownerId: string, id: string) {
  const row = await db
    .delete(schedules)
    .where(and(eq(schedules.ownerId, ownerId), eq(schedules.id, id)))
    .returning({ id: schedules.id })
    .get();
  return Boolean(row);
}

/**
 * Moves the next run of the owner's enabled schedules among `ids` to `now` ("send next reminder
 * now"); returns the ids it changed. Others' ids are silently not touched.
 */
export async function bringForward(db: Db, ownerId: string, ids: string[], now = Date.now()) {
  if (ids.length === 0) return [];
  const rows = await db
    .update(schedules)
    .set({ nextRunAt: now, updatedAt: now })
    .where(and(eq(schedules.ownerId, ownerId), inArray(schedules.id, ids), eq(schedules.state, "ENABLED")))
    .returning({ id: schedules.id });
  return rows.map((r) => r.id);
}

/**
 * Re-send (spec §3 "Reminder request"): a one-time Single Reminder to each of the owner's debtors
 * among `debtorIds`, due now. Returns the new schedules; the caller arms them.
 */
export async function createResendSchedules(
  db: Db,
  ownerId: string,
  debtorIds: number[],
  timeZone: string,
  now = Date.now(),
) {
  if (debtorIds.length === 0) return [];
  const [userRows, debtorRows] = await db.batch([
    db.select({ fullName: users.fullName, email: users.email }).from(users).where(eq(users.id, ownerId)).limit(1),
    db
      .select()
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, debtorIds))),
  ]);
  const user = userRows[0];
  if (!user || debtorRows.length === 0) return [];
  const values = debtorRows.map((debtor) => ({
    id: newScheduleId(ownerId),
    ownerId,
    debtorId: debtor.id,
    organizationId: null,
    preset: "SINGLE_REMINDER" as const,
    templateStep: 0,
    frequency: "now" as const,
    cron: null,
    runAt: now,
    timeZone: safeTimeZone(timeZone),
    dueDate: null,
    state: "ENABLED" as const,
    nextRunAt: now,
    input: snapshotOf(user, debtor, null, "single"),
    createdAt: now,
    updatedAt: now,
  }));
  return db.insert(schedules).values(values).returning({ id: schedules.id, nextRunAt: schedules.nextRunAt });
}

/** Enabled schedules whose next run is older than `cutoff`: their alarm was lost (watchdog). */
export async function listOverdueSchedules(db: Db, cutoff: number, limit = 500) {
  return db
    .select({ id: schedules.id, nextRunAt: schedules.nextRunAt })
    .from(schedules)
    .where(and(eq(schedules.state, "ENABLED"), lt(schedules.nextRunAt, cutoff)))
    .limit(limit);
}
