import { env } from "cloudflare:workers";
import { continueAccountDeletion, type DeletionStep } from "~/account/delete.server";
import { hashToken } from "~/auth/crypto.server";
import { getDb } from "~/db/client.server";
import type {
  debtorEvents,
  debtors,
  deliveries,
  invoices,
  optOuts,
  organizations,
  payments,
  schedules,
  users,
} from "~/db/schema";
import { DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import type { FrequencyId } from "~/domain/frequencies";
import { getPlan } from "~/domain/plans";
import type { PresetId } from "~/domain/presets";
import { localDateString } from "~/domain/schedule-time";
import { readConfig } from "~/platform/config.server";
import type { EntityScope } from "~/platform/scope.server";
import { createSchedule } from "~/reminders/writes.server";
import { daytimeZone } from "../support/daytime-zone";
import type { RawRow } from "../support/db-rows";
import { DAY, uniqueEmail } from "./helpers";

/**
 * The integration tests' data, in one place: rows made straight in D1 (or through a model, as the
 * app makes them), and rows read back as D1 stores them (`RawRow`: SQL column names, stored values).
 * HTTP helpers are in helpers.ts and data-helpers.ts, the engine's in engine-helpers.ts.
 */

export const db = () => getDb(env.DB);

// Rows made ---------------------------------------------------------------------------------------

let n = 0;
/** A fresh id in the same lower-case alphabet as real ids. */
const freshId = (prefix: string) =>
  `${prefix}${Date.now().toString(36)}${++n}${Math.random().toString(36).slice(2, 8)}`;

export interface TestUser {
  id: string;
  email: string;
  fullName: string;
}

/** A user row made directly in D1, with a fresh address. */
export async function makeUser(fullName = "Sally Sender"): Promise<TestUser> {
  const id = freshId("e");
  const email = uniqueEmail("sender");
  await env.DB.prepare("INSERT INTO users (id, email, full_name) VALUES (?, ?, ?)").bind(id, email, fullName).run();
  return { id, email, fullName };
}

/** A user row with a session, straight in D1 (the sign-in flow is tested elsewhere); `token` is the cookie's value. */
export async function makeSignedInUser(fullName?: string): Promise<TestUser & { token: string }> {
  const user = await makeUser(fullName);
  const token = `token-${user.id}`;
  await env.DB.prepare("INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)")
    .bind(await hashToken(token), user.id, Date.now() + 29 * DAY)
    .run();
  return { ...user, token };
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
  /** false: no invoice (the test makes its own); default: the debt as one open invoice. */
  invoice?: boolean;
}

/** A debtor row with a fresh e-mail address (the fake provider is shared by all test files). */
export async function makeDebtor(ownerId: string, fields: DebtorFields = {}) {
  const { invoice = true, ...rest } = fields;
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
    ...rest,
  };
  const row = await env.DB.prepare(
    "INSERT INTO debtors (owner_id, full_name, email, debt_cents, paid_cents, currency, active_strategy, status, time_zone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(ownerId, f.fullName, f.email, f.debtCents, f.paidCents, f.currency, f.activeStrategy, f.status, f.timeZone)
    .first<Pick<RawRow<typeof debtors>, "id">>();
  // The debt as the debtor's one invoice (none for a debtor seeded owing nothing).
  const invoiceId =
    invoice && f.debtCents > 0
      ? await makeInvoice(ownerId, row!.id, { amountCents: f.debtCents, currency: f.currency })
      : 0;
  if (f.paidCents > 0 && invoiceId) await payInvoice(ownerId, row!.id, invoiceId, f.paidCents, f.currency);
  return { id: row!.id, invoiceId, ...f };
}

export interface InvoiceFields {
  number?: string | null;
  amountCents?: number;
  currency?: string;
  issuedOn?: string;
  dueOn?: string;
  status?: "open" | "paid" | "void" | "disputed";
  disputeReason?: string | null;
}

/**
 * An invoice of the debtor, as a raw row (the debtor's sums are not touched: makeDebtor sets them,
 * a test that adds more invoices settles the ledger through a model write or sets them itself).
 */
export async function makeInvoice(ownerId: string, debtorId: number, fields: InvoiceFields = {}) {
  const f = {
    number: null,
    amountCents: 123450,
    currency: "USD",
    issuedOn: "2026-01-01",
    dueOn: "2026-01-15",
    status: "open",
    disputeReason: null,
    ...fields,
  };
  const row = await env.DB.prepare(
    "INSERT INTO invoices (owner_id, debtor_id, number, amount_cents, currency, issued_on, due_on, status, dispute_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(ownerId, debtorId, f.number, f.amountCents, f.currency, f.issuedOn, f.dueOn, f.status, f.disputeReason)
    .first<{ id: number }>();
  return row!.id;
}

/** A payment of `cents` allocated to the invoice (its paid_cents and status follow), as raw rows. */
export async function payInvoice(
  ownerId: string,
  debtorId: number,
  invoiceId: number,
  cents: number,
  currency = "USD",
  { paidOn = "2026-01-20", note = "" }: { paidOn?: string; note?: string } = {},
) {
  const paid = Math.min(
    cents,
    (await env.DB.prepare("SELECT amount_cents FROM invoices WHERE id = ?")
      .bind(invoiceId)
      .first<{ amount_cents: number }>())!.amount_cents,
  );
  const payment = await env.DB.prepare(
    "INSERT INTO payments (owner_id, debtor_id, amount_cents, currency, paid_on, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(ownerId, debtorId, cents, currency, paidOn, note, Date.now())
    .first<{ id: number }>();
  await env.DB.batch([
    env.DB.prepare("INSERT INTO payment_allocations (payment_id, invoice_id, amount_cents) VALUES (?, ?, ?)").bind(
      payment!.id,
      invoiceId,
      paid,
    ),
    env.DB.prepare(
      "UPDATE invoices SET paid_cents = paid_cents + ?, status = CASE WHEN paid_cents + ? >= amount_cents THEN 'paid' ELSE status END WHERE id = ?",
    ).bind(paid, paid, invoiceId),
    // The debtor's sums and status, as the ledger's settle statements leave them.
    env.DB.prepare(
      "UPDATE debtors SET paid_cents = (SELECT coalesce(sum(paid_cents), 0) FROM invoices WHERE debtor_id = debtors.id AND status != 'void' AND currency = debtors.currency), status = CASE WHEN status IN ('active', 'paid') THEN (CASE WHEN EXISTS (SELECT 1 FROM invoices WHERE debtor_id = debtors.id AND status IN ('open', 'disputed')) THEN 'active' ELSE 'paid' END) ELSE status END WHERE id = ?",
    ).bind(debtorId),
  ]);
  return payment!.id;
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

/**
 * A schedule through the lifecycle, as the new-schedule page creates it (ENABLED, first run
 * computed, its 'schedule_created' event), but with its Durable Object left unarmed: the tests
 * drive alarms themselves (fireAt, fireAndSend, runDurableObjectAlarm) at instants of their own.
 */
export async function makeSchedule(ownerId: string, debtorId: number, o: ScheduleOptions = {}) {
  const result = await createSchedule(
    { env: withAlarms(alarmStub()), db: db(), ownerId, now: Date.now() },
    {
      kind: o.organizationId ? "company" : "person",
      organization_id: o.organizationId,
      debtor_id: debtorId,
      preset: o.preset ?? "SINGLE_REMINDER",
      frequency: o.frequency ?? "daily",
      time_zone: o.timeZone ?? "UTC",
      due_date: o.dueDate,
    },
  );
  if (!("schedule" in result) || !result.schedule) throw new Error(`createSchedule failed: ${JSON.stringify(result)}`);
  return result.schedule.id;
}

let occurrence = 0;

/**
 * The schedule_id of reminder deliveries the tests write straight into D1 (deliveries.schedule_id
 * has no foreign key): a reminder always names its schedule.
 */
export const FIXTURE_SCHEDULE_ID = "fixture-schedule";

/** Inserts a delivery row straight into D1, as the mail Worker records one. */
export async function insertDelivery(
  ownerId: string,
  debtorId: number,
  status: "sending" | "sent" | "failed" | "bounced",
) {
  occurrence += 1;
  await env.DB.prepare(
    "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, sent_at) VALUES (?, ?, ?, ?, 'single', 1, ?, ?)",
  )
    .bind(
      ownerId,
      FIXTURE_SCHEDULE_ID,
      debtorId,
      `test-${Date.now()}-${occurrence}-${Math.random().toString(36).slice(2)}`,
      status,
      status === "sent" ? Date.now() : null,
    )
    .run();
}

// Rows changed ------------------------------------------------------------------------------------

/** The account on `plan`, its subscription active. */
export async function setPlan(userId: string, plan: string) {
  await env.DB.prepare("UPDATE users SET plan = ?, subscription_status = 'active' WHERE id = ?")
    .bind(plan, userId)
    .run();
}

export async function setSchedule(id: string, fields: Record<string, string | number | null>) {
  const cols = Object.keys(fields);
  await env.DB.prepare(`UPDATE schedules SET ${cols.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`)
    .bind(...cols.map((c) => fields[c]), id)
    .run();
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

// Rows read back ----------------------------------------------------------------------------------

/** The row `SELECT * FROM {table} WHERE {column} = value`, or null. */
function rowWhere<T>(table: string, column: string, value: string | number) {
  return env.DB.prepare(`SELECT * FROM ${table} WHERE ${column} = ?`).bind(value).first<T>();
}

/** Every row of `table` whose `column` is `value`, in `order` (oldest first by default). */
async function rowsWhere<T>(table: string, column: string, value: string | number, order = "id") {
  return (await env.DB.prepare(`SELECT * FROM ${table} WHERE ${column} = ? ORDER BY ${order}`).bind(value).all<T>())
    .results;
}

export async function userRow(id: string) {
  return env.DB.prepare(
    "SELECT id, email, full_name, img_key, plan, email_verified_at, created_at FROM users WHERE id = ?",
  )
    .bind(id)
    .first<RawRow<typeof users>>();
}

export const debtorRow = (id: number) => rowWhere<RawRow<typeof debtors>>("debtors", "id", id);
export const debtorRowsOf = (ownerId: string) => rowsWhere<RawRow<typeof debtors>>("debtors", "owner_id", ownerId);

export const orgRow = (id: number) => rowWhere<RawRow<typeof organizations>>("organizations", "id", id);
export const orgRowsOf = (ownerId: string) =>
  rowsWhere<RawRow<typeof organizations>>("organizations", "owner_id", ownerId);

export const scheduleRow = (id: string) => rowWhere<RawRow<typeof schedules>>("schedules", "id", id);
/** The owner's schedules, oldest first. */
export const schedulesOf = (ownerId: string) =>
  rowsWhere<RawRow<typeof schedules>>("schedules", "owner_id", ownerId, "created_at, id");
export const schedulesOfDebtor = (debtorId: number) =>
  rowsWhere<RawRow<typeof schedules>>("schedules", "debtor_id", debtorId);

export const deliveryRow = (id: number) => rowWhere<RawRow<typeof deliveries>>("deliveries", "id", id);
export const deliveriesOf = (scheduleId: string) =>
  rowsWhere<RawRow<typeof deliveries>>("deliveries", "schedule_id", scheduleId);
export const deliveriesOfOwner = (ownerId: string) =>
  rowsWhere<RawRow<typeof deliveries>>("deliveries", "owner_id", ownerId);

export const paymentsOf = (debtorId: number) => rowsWhere<RawRow<typeof payments>>("payments", "debtor_id", debtorId);

/** The debtor's invoices, in the order they were made. */
export const invoicesOf = (debtorId: number) => rowsWhere<RawRow<typeof invoices>>("invoices", "debtor_id", debtorId);

/** The debtor's timeline events (debtor_events), oldest first. */
export const eventsOf = (debtorId: number) =>
  rowsWhere<RawRow<typeof debtorEvents>>("debtor_events", "debtor_id", debtorId);
export const eventsOfOwner = (ownerId: string) =>
  rowsWhere<RawRow<typeof debtorEvents>>("debtor_events", "owner_id", ownerId);

/** The addresses that opted out of the owner's reminders, by address. */
export const optOutRows = (ownerId: string) =>
  rowsWhere<RawRow<typeof optOuts>>("opt_outs", "owner_id", ownerId, "email");

export type ScheduleRow = RawRow<typeof schedules>;

/** What a stand-in Durable Object namespace saw: each call, in order. */
export interface AlarmCalls {
  calls: { method: "arm" | "disarm" | "sent"; id: string; at?: number | null }[];
  /** Make every call throw (a Durable Object that is down). */
  failing: boolean;
}

/**
 * A stand-in for the SCHEDULES namespace that records calls instead of setting alarms, or throws
 * when `failing`.
 */
export function alarmStub(failing = false): AlarmCalls & { namespace: unknown } {
  const record: AlarmCalls = { calls: [], failing };
  const object = (id: string) => ({
    async arm(_scheduleId: string, at: number) {
      if (record.failing) throw new Error("Durable Object unavailable");
      record.calls.push({ method: "arm", id, at });
      return at;
    },
    async disarm() {
      if (record.failing) throw new Error("Durable Object unavailable");
      record.calls.push({ method: "disarm", id });
    },
    async sent(at: number | null) {
      if (record.failing) throw new Error("Durable Object unavailable");
      record.calls.push({ method: "sent", id, at });
    },
  });
  return Object.assign(record, {
    namespace: { idFromName: (name: string) => name, get: (id: string) => object(id) },
  });
}

/** These bindings with `stub` for the Durable Objects. */
export function withAlarms(stub: { namespace: unknown }): Env {
  return { ...env, SCHEDULES: stub.namespace as Env["SCHEDULES"] };
}

/**
 * Deletes the account here and now: marked deleting as the request marks it, then the job's steps
 * run one after another (their next-step messages dropped) until it is done.
 */
export async function deleteAccountNow(userId: string): Promise<DeletionStep> {
  await env.DB.prepare("UPDATE users SET deleting_at = ? WHERE id = ?").bind(Date.now(), userId).run();
  const quiet = { ...env, JOBS_QUEUE: { send: async () => undefined } } as unknown as Env;
  let step = await continueAccountDeletion(quiet, readConfig(env), userId);
  for (let i = 0; step.kind === "more" && i < 100; i++)
    step = await continueAccountDeletion(quiet, readConfig(env), userId);
  return step;
}

/**
 * The scope a form action or the API gives an entity write: the owner, alarms stubbed, the default
 * caps, the medium plan, UTC.
 */
export function entityScopeOf(ownerId: string, now = Date.now()): EntityScope {
  return {
    env: withAlarms(alarmStub()),
    db: db(),
    ownerId,
    now,
    caps: { ...DEFAULT_ACCOUNT_CAPS },
    capMessages: {},
    accountPlan: getPlan("medium"),
    timeZone: "UTC",
    today: localDateString(now, "UTC"),
    locale: "en-US",
  };
}
