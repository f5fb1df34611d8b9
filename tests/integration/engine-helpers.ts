import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { getDb } from "~/db/client.server";
import type { debtors, deliveries, organizations, schedules } from "~/db/schema";
import type { FrequencyId } from "~/domain/frequencies";
import type { PresetId } from "~/domain/presets";
import { createSchedule } from "~/models/schedule.server";
import { daytimeZone } from "../support/daytime-zone";
import type { RawRow } from "../support/db-rows";
import { uniqueEmail } from "./helpers";

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const FROM_ADDRESS = "reminders@dunly.test";

// The fake Resend server's control API (tests/support/fake-resend.ts) -----------------------------

export interface ResendAttempt {
  idempotencyKey: string | null;
  authorization: string | null;
  body: Record<string, unknown>;
  status: number;
  at: number;
}

const fakeUrl = () => {
  const url = env.FAKE_RESEND_URL;
  if (!url) throw new Error("FAKE_RESEND_URL is not bound");
  return url;
};

/** The next answers of the fake provider for mail to `to` (then it answers 200 again). */
export async function programResend(to: string, statuses: (number | { status: number; body?: unknown })[]) {
  const responses = statuses.map((s) => (typeof s === "number" ? { status: s } : s));
  const res = await fetch(`${fakeUrl()}/__program`, { method: "POST", body: JSON.stringify({ to, responses }) });
  expect(res.status).toBe(200);
}

/** Every request the provider got for `to`, answered or failed, oldest first. */
export async function resendRequests(to: string): Promise<ResendAttempt[]> {
  return (await fetch(`${fakeUrl()}/__requests?to=${encodeURIComponent(to.toLowerCase())}`)).json();
}

/** What the provider actually delivered to `to` (one per Idempotency-Key), with its ids. */
export async function resendDelivered(
  to: string,
): Promise<{ id: string; idempotencyKey: string | null; body: Record<string, unknown> }[]> {
  return (await fetch(`${fakeUrl()}/__delivered?to=${encodeURIComponent(to.toLowerCase())}`)).json();
}

// Data, made straight in D1 or through the models ------------------------------------------------

export const db = () => getDb(env.DB);

let n = 0;

export interface TestUser {
  id: string;
  email: string;
  fullName: string;
}

/** A user row made directly in D1. */
export async function makeUser(fullName = "Sally Sender"): Promise<TestUser> {
  n += 1;
  const id = `e${Date.now().toString(36)}${n}${Math.random().toString(36).slice(2, 8)}`;
  const email = uniqueEmail("sender");
  await env.DB.prepare("INSERT INTO users (id, email, full_name) VALUES (?, ?, ?)").bind(id, email, fullName).run();
  return { id, email, fullName };
}

export interface DebtorFields {
  fullName?: string;
  email?: string;
  debtCents?: number;
  paidCents?: number;
  currency?: string;
  activeStrategy?: number;
  status?: string;
  /** The debtor's zone (their quiet hours); default: one where it is midday now. */
  timeZone?: string;
}

/** A debtor row with a fresh e-mail address (the fake provider is shared by all test files). */
export async function makeDebtor(ownerId: string, fields: DebtorFields = {}) {
  const f = {
    fullName: "Dan Debtor",
    email: uniqueEmail("debtor"),
    debtCents: 123450,
    paidCents: 0,
    currency: "USD",
    activeStrategy: 1,
    status: "active",
    // Midday now, so the contact rules let reminders go at the real time of the test.
    timeZone: daytimeZone(),
    ...fields,
  };
  const row = await env.DB.prepare(
    "INSERT INTO debtors (owner_id, full_name, email, debt_cents, paid_cents, currency, active_strategy, status, time_zone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(ownerId, f.fullName, f.email, f.debtCents, f.paidCents, f.currency, f.activeStrategy, f.status, f.timeZone)
    .first<Pick<RawRow<typeof debtors>, "id">>();
  return { id: row!.id, ...f };
}

export async function makeOrg(ownerId: string, name: string, address: string) {
  const row = await env.DB.prepare("INSERT INTO organizations (owner_id, name, address) VALUES (?, ?, ?) RETURNING id")
    .bind(ownerId, name, address)
    .first<Pick<RawRow<typeof organizations>, "id">>();
  return row!.id;
}

export interface ScheduleOptions {
  preset?: PresetId;
  frequency?: FrequencyId;
  timeZone?: string;
  dueDate?: string;
  organizationId?: number;
}

/** A schedule through the model, as the new-schedule page creates it (ENABLED, first run computed). */
export async function makeSchedule(ownerId: string, debtorId: number, o: ScheduleOptions = {}) {
  const result = await createSchedule(db(), ownerId, {
    kind: o.organizationId ? "company" : "person",
    organization_id: o.organizationId,
    debtor_id: debtorId,
    preset: o.preset ?? "SINGLE_REMINDER",
    frequency: o.frequency ?? "daily",
    time_zone: o.timeZone ?? "UTC",
    due_date: o.dueDate,
  });
  if (!("schedule" in result) || !result.schedule) throw new Error(`createSchedule failed: ${JSON.stringify(result)}`);
  return result.schedule.id;
}

export async function scheduleRow(id: string) {
  return env.DB.prepare("SELECT * FROM schedules WHERE id = ?").bind(id).first<RawRow<typeof schedules>>();
}

export async function setSchedule(id: string, fields: Record<string, string | number | null>) {
  const cols = Object.keys(fields);
  await env.DB.prepare(`UPDATE schedules SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`)
    .bind(...cols.map((c) => fields[c]), id)
    .run();
}

export async function deliveriesOf(scheduleId: string) {
  return (
    await env.DB.prepare("SELECT * FROM deliveries WHERE schedule_id = ? ORDER BY id")
      .bind(scheduleId)
      .all<RawRow<typeof deliveries>>()
  ).results;
}

/**
 * As if the schedule's deliveries had been made `ms` earlier: time passing between occurrences,
 * for the sending limits, which count the last 24 hours of real time (app/domain/limits.ts).
 */
export async function ageDeliveries(scheduleId: string, ms: number) {
  await env.DB.prepare("UPDATE deliveries SET created_at = created_at - ? WHERE schedule_id = ?")
    .bind(ms, scheduleId)
    .run();
}

// The schedule's Durable Object -------------------------------------------------------------------

export const stubOf = (scheduleId: string) => env.SCHEDULES.get(env.SCHEDULES.idFromName(scheduleId));

export const alarmAt = (scheduleId: string) => stubOf(scheduleId).alarmAt();

/** What the object keeps in storage (scheduleId, retry state). */
export async function doStorage(scheduleId: string) {
  return runInDurableObject(stubOf(scheduleId), async (_instance, state) =>
    Object.fromEntries(await state.storage.list()),
  );
}

/**
 * Makes the occurrence at `scheduledAt` due and fires it through the Durable Object's alarm: D1's
 * next_run_at is set to `scheduledAt` (in the past), the object is armed an hour ahead (so the
 * runtime cannot fire it by itself meanwhile) and the alarm is run now.
 */
export async function fireAt(scheduleId: string, scheduledAt: number) {
  await setSchedule(scheduleId, { next_run_at: scheduledAt });
  await stubOf(scheduleId).arm(scheduleId, Date.now() + HOUR, { force: true });
  expect(await runDurableObjectAlarm(stubOf(scheduleId)), "the alarm ran").toBe(true);
}

// Wall-clock checks, independent of app/domain/schedule-time.ts -------------------------------------

export function wallClock(ms: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    hour: Number(get("hour")) % 24,
    minute: Number(get("minute")),
    second: Number(get("second")),
    weekday: get("weekday"),
    ms: ms % 1000,
  };
}

/** `at` is the first 10:00:00.000 in `timeZone` after `after` (zones without DST: a day is 24 h). */
export function expectNextTenOClock(at: number | null | undefined, after: number, timeZone: string) {
  expect(at, "a next run").toEqual(expect.any(Number));
  const w = wallClock(at!, timeZone);
  expect(
    { hour: w.hour, minute: w.minute, second: w.second, ms: w.ms },
    `${new Date(at!).toISOString()} in ${timeZone}`,
  ).toEqual({
    hour: 10,
    minute: 0,
    second: 0,
    ms: 0,
  });
  expect(at!).toBeGreaterThan(after);
  // The 10:00 a day earlier is not after `after`: no other 10:00 lies in between.
  expect(at! - 24 * HOUR).toBeLessThanOrEqual(after);
}
