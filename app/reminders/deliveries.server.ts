import {
  and,
  count,
  desc,
  eq,
  getTableName,
  gt,
  gte,
  inArray,
  lt,
  max,
  type SQL,
  type SQLWrapper,
  sql,
} from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Bindable, Db } from "~/db/client.server";
import { bindParam, preparedQueryBy, runBatch, runBound } from "~/db/prepared.server";
import { debtors, deliveries, deliveryRollups, deliveryStatusCounts, schedules, textStatusCounts } from "~/db/schema";
import { dateTimeFormat } from "~/domain/intl";
import {
  LIMIT_WINDOW_MS,
  type ManualSendLoad,
  type ManualTarget,
  recipientKey,
  type SendingLimits,
  sendingLimits,
} from "~/domain/limits";
import { occurrenceKey } from "~/domain/occurrence";
import { localDateString, startOfLocalDay } from "~/domain/schedule-time";
import type { Tone } from "~/domain/strategies";

/** Rows on a page of /report (docs/decisions/009-list-page-size.md). */
export const DELIVERY_PAGE_SIZE = 25;

export type Delivery = typeof deliveries.$inferSelect;

/** One occurrence of a schedule, about to be sent. */
export interface Occurrence {
  ownerId: string;
  scheduleId: string;
  debtorId: number;
  scheduledAt: number;
  template: string;
  tone: Tone;
  /** The debtor's address as recipientKey gives it; the per-address cap counts by it (none: not capped). */
  recipient?: string | null;
  /** 'text': the occurrence is a text-only step's text, its recipient the E.164 number (decisions/070). */
  channel?: "email" | "text";
}

/** The statuses the limits count: handed to the provider, or about to be (not failed, not deferred). */
export const COUNTED = ["sending", "sent", "bounced", "complained"] as const;
const COUNTED_SQL = sql.raw(`(${COUNTED.map((s) => `'${s}'`).join(", ")})`);

/**
 * Not a test send (app/reminders/test-send.server.ts): those go to the user, not the debtor, so they
 * count for the account's quota but never as a reminder to the debtor (cooldown, contact cap,
 * charts, counts). Their keys start with "test:"; the range uses the unique key index.
 */
export const NOT_TEST_SEND = sql`NOT (${deliveries.occurrenceKey} >= 'test:' AND ${deliveries.occurrenceKey} < 'test;')`;

/**
 * Reminders delivered ('sent', test sends excluded) of the outer query's debtor or schedule
 * (`outer`, its id column): a correlated scalar subquery for a list's select, so SQLite counts only
 * for the rows the page outputs, never over other rows or other accounts. Each is answered inside one covering index: deliveries (debtor_id, status,
 * occurrence_key) and (schedule_id, status). A delivery's debtor and schedule are always its
 * owner's (the claim takes both from an owner-checked schedule; debtor ids are never reused), so
 * the owner needs no test of its own here. A test send has no schedule (schedule_id is null), so
 * the per-schedule count cannot meet one.
 */
export function sentCountOf(of: "debtor" | "schedule", outer: AnySQLiteColumn) {
  // Qualified by hand: drizzle leaves a one-table query's columns bare, and inside the subquery a
  // bare "id" would be the delivery's.
  const ref = sql`${sql.identifier(getTableName(outer.table))}.${sql.identifier(outer.name)}`;
  // Archived months count too (decisions/022): delivery_rollups is keyed by owner and
  // debtor, and indexed by owner and schedule; the owner is read from the same outer row.
  const owner = sql`${sql.identifier(getTableName(outer.table))}.${sql.identifier("owner_id")}`;
  return of === "debtor"
    ? sql<number>`((SELECT count(*) FROM deliveries AS sent WHERE sent.debtor_id = ${ref} AND sent.status = 'sent' AND NOT (sent.occurrence_key >= 'test:' AND sent.occurrence_key < 'test;')) + (SELECT coalesce(sum(n), 0) FROM delivery_rollups AS archived WHERE archived.owner_id = ${owner} AND archived.debtor_id = ${ref} AND archived.status = 'sent' AND archived.test_send = 0))`
    : sql<number>`((SELECT count(*) FROM deliveries AS sent WHERE sent.schedule_id = ${ref} AND sent.status = 'sent') + (SELECT coalesce(sum(n), 0) FROM delivery_rollups AS archived WHERE archived.owner_id = ${owner} AND archived.schedule_id = ${ref} AND archived.status = 'sent'))`;
}

/** How many counted deliveries `column` = `value` has within the window: a subquery for a claim's WHERE. */
function countedSince(
  column: "owner_id" | "recipient" | "debtor_id",
  value: string | number | SQLWrapper,
  since: number | SQLWrapper,
) {
  const toDebtor =
    column === "debtor_id" ? sql` AND NOT (d.occurrence_key >= 'test:' AND d.occurrence_key < 'test;')` : sql``;
  return sql`(SELECT count(*) FROM deliveries AS d WHERE d.${sql.raw(column)} = ${value} AND d.created_at > ${since} AND d.status IN ${COUNTED_SQL}${toDebtor})`;
}

/** What else holds a claim back besides the sending limits. */
export interface ClaimOptions {
  /** Outside the debtor's hours: write the row 'deferred' and keep it so. */
  hold?: boolean;
  /** The debtor's contact cap: at most `maxPerWindow` counted reminders to them in `windowMs`. */
  contact?: { maxPerWindow: number; windowMs: number };
}

/**
 * claimOccurrence's upsert, built once per isolate for each of its four shapes (with or without the
 * contact cap, with or without a recipient) and bound by name: an
 * alarm's query building was half of its Worker time when thousands fired together.
 */
const claimQuery = preparedQueryBy(
  (shape: { contact: boolean; recipient: boolean }) => `${shape.contact}:${shape.recipient}`,
  (db, shape) => {
    const p = bindParam;
    // Held (outside the debtor's hours): `open` is 0 and the row stays deferred whatever the limits say.
    const room = and(
      sql`${p("open")} = 1`,
      sql`${countedSince("owner_id", p("ownerId"), p("since"))} < ${p("accountDaily")}`,
      shape.contact
        ? sql`${countedSince("debtor_id", p("debtorId"), p("contactSince"))} < ${p("contactMax")}`
        : undefined,
      shape.recipient
        ? sql`${countedSince("recipient", p("recipient"), p("since"))} < ${p("recipientDaily")}`
        : undefined,
    );
    // On a repeated claim: only a deferred row with room now changes (the old row's values otherwise).
    const promote = sql`"deliveries"."status" = 'deferred' AND ${room}`;
    return db
      .insert(deliveries)
      .values({
        ownerId: p("ownerId"),
        scheduleId: p("scheduleId"),
        debtorId: p("debtorId"),
        occurrenceKey: p("key"),
        template: p("template"),
        tone: p("tone"),
        status: sql`CASE WHEN ${room} THEN 'sending' ELSE 'deferred' END`,
        recipient: p("recipient"),
        channel: p("channel"),
        createdAt: p("now"),
      })
      .onConflictDoUpdate({
        target: deliveries.occurrenceKey,
        set: {
          status: sql`CASE WHEN ${promote} THEN 'sending' ELSE "deliveries"."status" END`,
          error: sql`CASE WHEN ${promote} THEN NULL ELSE "deliveries"."error" END`,
          createdAt: sql`CASE WHEN ${promote} THEN excluded.created_at ELSE "deliveries"."created_at" END`,
          recipient: sql`CASE WHEN ${promote} THEN excluded.recipient ELSE "deliveries"."recipient" END`,
          // A waiting step goes by what it can be now (a text-only step whose debtor can no longer be
          // texted goes by e-mail).
          channel: sql`CASE WHEN ${promote} THEN excluded.channel ELSE "deliveries"."channel" END`,
        },
      })
      .returning();
  },
);

/**
 * The delivery row of an occurrence, written before anything is sent. The first claim inserts it
 * 'sending' when the account's daily quota and the recipient's daily cap (`limits`) have room, and
 * 'deferred' when they have not; a deferred row becomes 'sending' (its created_at then, so it
 * counts from then) at a later claim with room. One statement (an upsert that counts inside it),
 * so concurrent claims cannot slip past the limits and a firing costs one round trip. A repeated
 * claim (unique occurrence key) gets the row as it is now.
 */
export async function claimOccurrence(
  db: Db,
  occurrence: Occurrence,
  now = Date.now(),
  limits: SendingLimits = sendingLimits(null),
  options: ClaimOptions = {},
): Promise<Delivery> {
  return claimedRow(occurrence, await runBound(claimStatement(db, occurrence, now, limits, options)));
}

/**
 * Many claims in one D1 batch, in order (the mail handoff's, docs/decisions/029): each statement is
 * claimOccurrence's upsert, and SQLite runs them one after another, so each counts the rows the
 * ones before it wrote, as separate claims would. 50 a batch. Undefined for a claim whose owner,
 * debtor or schedule was deleted meanwhile (its row breaks a foreign key: nothing to do). Such a
 * claim fails its whole batch, which is then claimed one statement at a time, so it holds up no
 * other; any other failure throws.
 */
export async function claimOccurrences(
  db: Db,
  claims: readonly (readonly [Occurrence, number, SendingLimits, ClaimOptions])[],
): Promise<(Delivery | undefined)[]> {
  const rows: (Delivery | undefined)[] = [];
  for (const slice of chunk(claims, CLAIMS_PER_BATCH)) {
    const statements = slice.map((args) => claimStatement(db, ...args));
    try {
      const results = await runBatch(db, statements);
      for (let i = 0; i < slice.length; i += 1) rows.push(results[i]?.[0]);
    } catch (error) {
      if (!isForeignKeyFailure(error)) throw error;
      for (const statement of statements) {
        try {
          rows.push((await runBound(statement))[0]);
        } catch (one) {
          if (!isForeignKeyFailure(one)) throw one;
          rows.push(undefined);
        }
      }
    }
  }
  return rows;
}

const isForeignKeyFailure = (error: unknown) => String(error).includes("FOREIGN KEY constraint failed");

const CLAIMS_PER_BATCH = 50;

function claimStatement(
  db: Db,
  occurrence: Occurrence,
  now: number,
  limits: SendingLimits,
  { hold = false, contact }: ClaimOptions,
) {
  const recipient = occurrence.recipient ?? null;
  return claimQuery(
    db,
    { contact: contact !== undefined, recipient: recipient !== null },
    {
      ownerId: occurrence.ownerId,
      scheduleId: occurrence.scheduleId,
      debtorId: occurrence.debtorId,
      key: occurrenceKey(occurrence.scheduleId, occurrence.scheduledAt),
      template: occurrence.template,
      tone: occurrence.tone,
      recipient,
      channel: occurrence.channel ?? "email",
      now,
      open: hold ? 0 : 1,
      since: now - LIMIT_WINDOW_MS,
      accountDaily: limits.accountDaily,
      recipientDaily: limits.recipientDaily,
      contactSince: contact ? now - contact.windowMs : 0,
      contactMax: contact ? contact.maxPerWindow : 0,
    },
  );
}

function claimedRow(occurrence: Occurrence, rows: Delivery[]): Delivery {
  const [row] = rows;
  // It is there unless its owner was deleted meanwhile (cascade): then this firing has nothing to do.
  if (!row) {
    throw new Error(
      `Delivery ${occurrenceKey(occurrence.scheduleId, occurrence.scheduledAt)} vanished after it was claimed`,
    );
  }
  return row;
}

/** The instants the limits count within the window for an account and for a recipient (when a claim was deferred). */
export async function countedInstants(db: Db, ownerId: string, recipient: string | null, now = Date.now()) {
  const since = now - LIMIT_WINDOW_MS;
  const counted = inArray(deliveries.status, COUNTED);
  const instants = (where: SQL | undefined) =>
    db
      .select({ at: deliveries.createdAt })
      .from(deliveries)
      .where(and(where, gt(deliveries.createdAt, since), counted));
  const [account, toRecipient] = await db.batch([
    instants(eq(deliveries.ownerId, ownerId)),
    // No recipient: a condition nothing matches, so the batch keeps its shape.
    instants(recipient === null ? sql`0` : eq(deliveries.recipient, recipient)),
  ]);
  return { account: account.map((r) => r.at), recipient: toRecipient.map((r) => r.at) };
}

/**
 * The instants of the debtors' counted reminders since `since` (their contact cap counts them), for
 * a batch: `debtorIds` is a subquery (the alarms' schedules' debtors: loadFirings).
 */
export function debtorInstantsQuery(db: Db, debtorIds: SQLWrapper, since: number | SQLWrapper) {
  return db
    .select({ debtorId: deliveries.debtorId, at: deliveries.createdAt })
    .from(deliveries)
    .where(
      and(
        inArray(deliveries.debtorId, debtorIds),
        gt(deliveries.createdAt, since),
        inArray(deliveries.status, COUNTED),
        NOT_TEST_SEND,
      ),
    );
}

/**
 * Ends an occurrence its schedule will not send after all (the debt was paid or the address opted
 * out while it waited or retried): a 'sending' or 'deferred' row becomes 'skipped' with `reason`.
 * Not a failure: nothing went wrong, and nothing was sent.
 */
export async function abandonOccurrence(db: Db, key: string, reason: string) {
  await db
    .update(deliveries)
    .set({ status: "skipped", error: reason })
    .where(and(eq(deliveries.occurrenceKey, key), inArray(deliveries.status, ["sending", "deferred"])));
}

/** Why a deferred delivery waits and until when, shown in the report until it is sent. */
export async function recordDeferral(db: Db, id: number, reason: string) {
  await db
    .update(deliveries)
    .set({ error: reason })
    .where(and(eq(deliveries.id, id), eq(deliveries.status, "deferred")));
}

/**
 * Gives up a deferred delivery its schedule will not send any more: 'failed' with `reason`. With
 * `onlyIfSuperseded`, only when its schedule is gone, stopped or on another occurrence. Returns
 * 'settled', 'waiting' (still its schedule's current occurrence) or 'none' (no deferred row: sent,
 * failed or unknown).
 */
export async function settleDeferred(
  db: Db,
  key: string,
  reason: string,
  { onlyIfSuperseded = false } = {},
): Promise<"settled" | "waiting" | "none"> {
  const row = await db
    .select({ scheduleId: deliveries.scheduleId, state: schedules.state, nextRunAt: schedules.nextRunAt })
    .from(deliveries)
    .leftJoin(schedules, eq(schedules.id, deliveries.scheduleId))
    .where(and(eq(deliveries.occurrenceKey, key), eq(deliveries.status, "deferred")))
    .get();
  if (!row) return "none";
  const current =
    row.scheduleId !== null &&
    row.state === "ENABLED" &&
    row.nextRunAt !== null &&
    occurrenceKey(row.scheduleId, row.nextRunAt) === key;
  if (onlyIfSuperseded && current) return "waiting";
  // Still 'deferred' only: a claim that promoted it meanwhile wins. Not sent on purpose: skipped.
  const settled = await db
    .update(deliveries)
    .set({ status: "skipped", error: reason })
    .where(and(eq(deliveries.occurrenceKey, key), eq(deliveries.status, "deferred")))
    .returning({ id: deliveries.id });
  return settled.length > 0 ? "settled" : "none";
}

/**
 * What a manual send to the owner's debtors `debtorIds` (one entry per reminder it would send)
 * is checked against (app/domain/limits.ts): each debtor's latest reminder and whether one is
 * already waiting, the account's and the addresses' reminders within the window. `firing` are
 * the schedules the request itself brings forward (their being due is not "waiting"). Debtors
 * that are not the owner's are left out.
 */
export async function manualSendLoad(
  db: Db,
  ownerId: string,
  debtorIds: readonly number[],
  now = Date.now(),
  firing: readonly string[] = [],
): Promise<ManualSendLoad> {
  const since = now - LIMIT_WINDOW_MS;
  const counted = inArray(deliveries.status, COUNTED);
  const slices = chunk(unique(debtorIds), IDS_PER_STATEMENT);
  const owned = slices.map((ids) =>
    db
      .select({ id: debtors.id, name: debtors.fullName, email: debtors.email })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, ids))),
  );
  const latest = slices.map((ids) =>
    db
      .select({ id: deliveries.debtorId, at: max(deliveries.createdAt) })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.ownerId, ownerId),
          inArray(deliveries.debtorId, ids),
          gt(deliveries.createdAt, since),
          counted,
          NOT_TEST_SEND,
        ),
      )
      .groupBy(deliveries.debtorId),
  );
  // A unary + keeps a condition but not its index: these two are served by the debtor indexes
  // (SQLite would otherwise scan all of the owner's deliveries, or every enabled schedule).
  const deferred = slices.map((ids) =>
    db
      .selectDistinct({ id: deliveries.debtorId })
      .from(deliveries)
      .where(
        and(
          sql`+${deliveries.ownerId} = ${ownerId}`,
          inArray(deliveries.debtorId, ids),
          eq(deliveries.status, "deferred"),
        ),
      ),
  );
  const oneTime = slices.map((ids) =>
    db
      .select({ id: schedules.debtorId, scheduleId: schedules.id })
      .from(schedules)
      .where(
        and(
          sql`+${schedules.ownerId} = ${ownerId}`,
          inArray(schedules.debtorId, ids),
          sql`+${schedules.state} = 'ENABLED'`,
          eq(schedules.frequency, "now"),
        ),
      ),
  );
  const account = db
    .select({ at: deliveries.createdAt })
    .from(deliveries)
    .where(and(eq(deliveries.ownerId, ownerId), gt(deliveries.createdAt, since), counted));
  const [accountRows, ...rest] = await db.batch([account, ...owned, ...latest, ...deferred, ...oneTime]);
  // The batch answers in order: one result per slice for each of the four queries.
  const part = <T>(k: number) => rest.slice(k * slices.length, (k + 1) * slices.length).flat() as T[];

  const found = new Map(part<{ id: number; name: string; email: string }>(0).map((r) => [r.id, r]));
  const latestAt = new Map(part<{ id: number; at: number | null }>(1).map((r) => [r.id, r.at]));
  const waiting = new Set([
    ...part<{ id: number }>(2).map((r) => r.id),
    // A one-time schedule not yet fired is a reminder on its way, unless this request fires it.
    ...part<{ id: number; scheduleId: string }>(3)
      .filter((r) => !firing.includes(r.scheduleId))
      .map((r) => r.id),
  ]);
  const targets: ManualTarget[] = debtorIds.flatMap((id) => {
    const debtor = found.get(id);
    return debtor
      ? [{ name: debtor.name, email: debtor.email, lastReminderAt: latestAt.get(id) ?? null, waiting: waiting.has(id) }]
      : [];
  });

  const addresses = unique(targets.map((t) => recipientKey(t.email)));
  const recipients: Record<string, number[]> = {};
  const [first, ...others] = chunk(addresses, IDS_PER_STATEMENT).map((slice) =>
    db
      .select({ recipient: deliveries.recipient, at: deliveries.createdAt })
      .from(deliveries)
      .where(and(inArray(deliveries.recipient, slice), gt(deliveries.createdAt, since), counted)),
  );
  if (first) {
    for (const r of (await db.batch([first, ...others])).flat()) {
      if (r.recipient === null) continue;
      const list = recipients[r.recipient] ?? [];
      list.push(r.at);
      recipients[r.recipient] = list;
    }
  }
  return { targets, account: accountRows.map((r) => r.at), recipients };
}

/** The provider accepted the e-mail. */
export async function markDeliverySent(db: Db, id: number, providerId: string | null, sentAt = Date.now()) {
  await db.update(deliveries).set({ status: "sent", providerId, error: null, sentAt }).where(eq(deliveries.id, id));
}

/** The e-mail will not be sent: the error says why. */
export async function markDeliveryFailed(db: Db, id: number, error: string) {
  await db.update(deliveries).set({ status: "failed", error }).where(eq(deliveries.id, id));
}

/** A failed attempt that will be retried: the row stays 'sending', its error visible meanwhile. */
export async function recordDeliveryError(db: Db, id: number, error: string) {
  await db.update(deliveries).set({ error }).where(eq(deliveries.id, id));
}

/** Local month number (year × 12 + month − 1) of an instant in a zone. */
function localMonthIndex(ms: number, timeZone: string) {
  const [y, m] = localDateString(ms, timeZone).split("-").map(Number) as [number, number];
  return y * 12 + (m - 1);
}

/**
 * The first instant of a local month (by localMonthIndex). A month's start in a zone never changes,
 * so each is worked out once per isolate (the dashboard chart needs seven on every visit, each a
 * handful of Intl calls: a CPU profile found them); the cache is bounded.
 */
const monthStarts = new Map<string, number>();
function monthStart(index: number, timeZone: string) {
  const key = `${timeZone}|${index}`;
  let start = monthStarts.get(key);
  if (start === undefined) {
    const year = Math.floor(index / 12);
    // Noon UTC of the 1st is on the 1st in every zone within ±12 h; take that day's local midnight.
    start = startOfLocalDay(Date.UTC(year, index - year * 12, 1, 12), timeZone);
    if (monthStarts.size >= 5_000) monthStarts.clear();
    monthStarts.set(key, start);
  }
  return start;
}

/** The first instant of the local month `monthsBack` months before the month of `now`. */
function startOfLocalMonth(now: number, timeZone: string, monthsBack = 0) {
  return monthStart(localMonthIndex(now, timeZone) - monthsBack, timeZone);
}

/** Where the chart's window starts: the first instant of the local month `months - 1` before `now`'s. */
export function monthlySentSince(timeZone: string, now = Date.now(), months = 6) {
  return startOfLocalMonth(now, timeZone, months - 1);
}

/**
 * Reminders sent to one of the owner's debtors since `since` (monthlySentSince: the last `months`
 * local months up to this one): one query over the indexed range, not yet run (a statement of the
 * dashboard's batch). monthlySeries counts them per month, oldest first: the dashboard chart's series.
 */
export function monthlySentQuery(
  db: Db,
  ownerId: Bindable<string>,
  debtorId: Bindable<number>,
  since: Bindable<number>,
) {
  return db
    .select({ sentAt: deliveries.sentAt })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.ownerId, ownerId),
        eq(deliveries.debtorId, debtorId),
        eq(deliveries.status, "sent"),
        gte(deliveries.createdAt, since),
        NOT_TEST_SEND,
      ),
    );
}

/**
 * SQL: a reminder reached the debtor `debtorId` before (test sends aside: they go to the user),
 * through deliveries_debtor_sent_idx. A first one speaks of no earlier reminder.
 */
export const remindedBeforeSql = (debtorId: SQLWrapper) =>
  sql<number>`EXISTS (SELECT 1 FROM "deliveries" AS r WHERE r."debtor_id" = ${debtorId} AND r."status" IN ('sent', 'bounced', 'complained') AND NOT (r."occurrence_key" >= 'test:' AND r."occurrence_key" < 'test;'))`;

/** Whether a reminder reached the owner's debtor before (the preview asks, as the consumer's read does). */
export async function debtorRemindedBefore(db: Db, ownerId: string, debtorId: number): Promise<boolean> {
  const row = await db
    // Qualified by hand: in a one-table query drizzle leaves "id" bare, and inside the subquery it is r's.
    .select({ reminded: remindedBeforeSql(sql`"debtors"."id"`) })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
    .get();
  return Boolean(row?.reminded);
}

/**
 * The account's reminders sent since `since`, counted per quarter hour of their creation (every
 * zone's month starts on a quarter hour): the dashboard's chart of the whole account, a few rows
 * however many reminders went out, through deliveries_owner_idx.
 */
export function accountSentQuery(db: Db, ownerId: Bindable<string>, since: Bindable<number>) {
  return db
    .select({ sentAt: sql<number>`min(${deliveries.createdAt})`.mapWith(Number), n: count() })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.ownerId, ownerId),
        gte(deliveries.createdAt, since),
        eq(deliveries.status, "sent"),
        NOT_TEST_SEND,
      ),
    )
    .groupBy(sql`${deliveries.createdAt} / 900000`);
}

/**
 * The chart's series from monthlySentQuery's rows, or accountSentQuery's counted ones (the same
 * `timeZone`, `now` and `months`).
 */
export function monthlySeries(
  rows: { sentAt: number | null; n?: number }[],
  timeZone: string,
  now = Date.now(),
  months = 6,
) {
  const first = localMonthIndex(now, timeZone) - (months - 1);
  const buckets = Array.from({ length: months }, (_, i) => ({
    start: monthStart(first + i, timeZone),
    end: monthStart(first + i + 1, timeZone),
    value: 0,
  }));
  // Each row falls in the month whose [start, end) holds it: compared as numbers, not formatted.
  for (const row of rows) {
    const at = row.sentAt ?? buckets[0]?.start ?? now;
    const bucket = buckets.find((b) => at >= b.start && at < b.end);
    if (bucket) bucket.value += row.n ?? 1;
  }
  const label = dateTimeFormat("en-US", { month: "short", year: "numeric", timeZone });
  return buckets.map((b) => ({ month: label.format(b.start), value: b.value }));
}

export interface DeliveryFilter {
  debtorId?: Bindable<number> | null;
  from?: Bindable<number> | null;
  before?: Bindable<number> | null;
  limit?: Bindable<number>;
  offset?: Bindable<number>;
  /** Keyset: only rows after this one in the newest-first order (a streamed export's next page). */
  after?: { createdAt: number; id: number } | null;
}

function deliveryWhere(ownerId: Bindable<string>, filter: DeliveryFilter) {
  const where = [eq(deliveries.ownerId, ownerId)];
  if (filter.debtorId) where.push(eq(deliveries.debtorId, filter.debtorId));
  if (filter.from != null) where.push(gte(deliveries.createdAt, filter.from));
  if (filter.before != null) where.push(lt(deliveries.createdAt, filter.before));
  // A row value: SQLite walks the index from the key on ((owner_id | debtor_id), created_at, id).
  if (filter.after)
    where.push(sql`(${deliveries.createdAt}, ${deliveries.id}) < (${filter.after.createdAt}, ${filter.after.id})`);
  return and(...where);
}

/** One page of the owner's deliveries, newest first, with the debtor's name (kept if deleted); unrun. */
export function listDeliveries(db: Db, ownerId: Bindable<string>, filter: DeliveryFilter = {}) {
  return db
    .select({
      id: deliveries.id,
      createdAt: deliveries.createdAt,
      sentAt: deliveries.sentAt,
      template: deliveries.template,
      tone: deliveries.tone,
      status: deliveries.status,
      error: deliveries.error,
      providerId: deliveries.providerId,
      debtorId: deliveries.debtorId,
      debtorName: debtors.fullName,
      // A test send went to the user (app/domain/delivery-labels.ts).
      occurrenceKey: deliveries.occurrenceKey,
      recipient: deliveries.recipient,
      // An e-mail or a text (decisions/070): the report and its export say which.
      channel: deliveries.channel,
    })
    .from(deliveries)
    .leftJoin(debtors, eq(debtors.id, deliveries.debtorId))
    .where(deliveryWhere(ownerId, filter))
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
    .limit(filter.limit ?? DELIVERY_PAGE_SIZE)
    .offset(filter.offset ?? 0);
}

/**
 * The owner's deliveries for the filter, newest first, one page of `size` at a time as a streamed
 * export takes them: each page keyed after the last row of the one
 * before (created_at, id), so every statement is one index range however deep the export is, where
 * an offset would read and skip every row before it.
 */
export async function* deliveryPages(
  db: Db,
  ownerId: string,
  filter: Omit<DeliveryFilter, "limit" | "offset" | "after">,
  size: number,
) {
  let after: DeliveryFilter["after"] = null;
  for (;;) {
    const page = await listDeliveries(db, ownerId, { ...filter, after, limit: size });
    yield page;
    const last = page.at(-1);
    if (!last || page.length < size) return;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * Counts per status for the same filter (the report's summary), unrun; totalsOf sums them. All of
 * the owner's: the counts the triggers keep (deliveryStatusCounts, archived months included, and
 * apart the texts among them, textStatusCounts), one short read however many deliveries the
 * account holds. Filtered by debtor or period: one grouped query over those, plus the debtor's
 * archived counts. Each row says whether it counts in the totals (`total`) and whether its
 * deliveries are texts (`text`): the all-time texts are a second count of rows already in the totals.
 */
export function deliveryTotals(db: Db, ownerId: Bindable<string>, filter: DeliveryFilter = {}) {
  // `archived`: 1 on the rows of archived months (archivedOf), where the statement tells them apart.
  if (!filter.debtorId && filter.from == null && filter.before == null) {
    return db
      .select({
        status: deliveryStatusCounts.status,
        n: deliveryStatusCounts.n,
        archived: ARCHIVED(0),
        total: FLAG("total", 1),
        text: FLAG("text", 0),
      })
      .from(deliveryStatusCounts)
      .where(eq(deliveryStatusCounts.ownerId, ownerId))
      .unionAll(
        db
          .select({
            status: textStatusCounts.status,
            n: textStatusCounts.n,
            archived: ARCHIVED(0),
            total: FLAG("total", 0),
            text: FLAG("text", 1),
          })
          .from(textStatusCounts)
          .where(eq(textStatusCounts.ownerId, ownerId)),
      );
  }
  const live = db
    .select({
      status: deliveries.status,
      n: count(),
      archived: ARCHIVED(0),
      total: FLAG("total", 1),
      text: sql<number>`(${deliveries.channel} = 'text')`.mapWith(Number).as("text"),
    })
    .from(deliveries)
    .where(deliveryWhere(ownerId, filter))
    .groupBy(deliveries.status, deliveries.channel);
  // A debtor's archived months count too: their
  // rollups, one more arm of the same statement (totalsOf adds a status's rows up). A period
  // reaches back 90 days at most, never to the archive's 13 months. The rollups keep no channel:
  // an archived text counts in the totals, not among the texts.
  if (!filter.debtorId || filter.from != null || filter.before != null) return live;
  return live.unionAll(
    db
      .select({
        status: deliveryRollups.status,
        n: sql<number>`sum(${deliveryRollups.n})`.mapWith(Number),
        archived: ARCHIVED(1),
        total: FLAG("total", 1),
        text: FLAG("text", 0),
      })
      .from(deliveryRollups)
      .where(and(eq(deliveryRollups.ownerId, ownerId), eq(deliveryRollups.debtorId, filter.debtorId)))
      .groupBy(deliveryRollups.status),
  );
}

/** deliveryTotals' flag column, named: D1 names an unnamed literal column by its text. */
const ARCHIVED = (flag: 0 | 1) => FLAG("archived", flag);
function FLAG(name: string, flag: 0 | 1) {
  return sql<number>`${sql.raw(String(flag))}`.mapWith(Number).as(name);
}

/**
 * How many of deliveryTotals' rows are in archived months, where its statement tells them apart
 * (a debtor's report); the all-time counts include them and say nothing (delivery_archives does).
 */
export function archivedOf(rows: { n: number; archived: number }[]) {
  return rows.reduce((sum, r) => sum + (r.archived ? r.n : 0), 0);
}

type StatusTotals = { all: number; sent: number; sending: number; failed: number; bounced: number; skipped: number };
const noTotals = (): StatusTotals => ({ all: 0, sent: 0, sending: 0, failed: 0, bounced: 0, skipped: 0 });

/** The report's totals from deliveryTotals' rows, and apart the texts among them (decisions/070). */
export function totalsOf(
  rows: { status: (typeof deliveries.$inferSelect)["status"]; n: number; total?: number; text?: number }[],
) {
  const totals = { ...noTotals(), texts: noTotals() };
  for (const r of rows) {
    // A deferred reminder is still to be sent: it counts as sending; a complaint is a bounce's kin.
    const bucket = r.status === "deferred" ? "sending" : r.status === "complained" ? "bounced" : r.status;
    if (r.total !== 0) {
      totals[bucket] += r.n;
      totals.all += r.n;
    }
    if (r.text) {
      totals.texts[bucket] += r.n;
      totals.texts.all += r.n;
    }
  }
  return totals;
}

/** What an occurrence whose schedule stopped or moved on while its message was lost says. */
export const STRANDED_MESSAGE = "Not sent: its schedule was paused, changed or deleted before it went out.";
