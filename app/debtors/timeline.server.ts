import { and, asc, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { type Bound, bindParam, OWNER_ID, preparedQuery, type Rows, runBatch } from "~/db/prepared.server";
import {
  debtorEvents,
  type debtorReplies,
  debtors,
  deliveries,
  invoices,
  payments,
  schedules,
  users,
} from "~/db/schema";
import { CONTACT_DEFAULTS, contactRules, nextContactSlot } from "~/domain/contact-rules";
import { scheduleStatus } from "~/domain/schedule-status";
import { safeTimeZone } from "~/domain/time-zone";
import {
  type ChargeRowRead,
  debtorChargesQuery,
  debtorInvoicesQuery,
  debtorPlansRowQuery,
  type InvoiceRow,
  type PlanView,
  plansOfRow,
} from "~/ledger/index.server";
import { nextRunWhat, openInvoicesSql } from "~/reminders/index.server";
import { debtorRepliesQuery, type ReplyView, replyViewsOf } from "~/responses/index.server";
import { type ContactRow, contactRowOf, debtorContactsQuery } from "./contacts.server";

/**
 * A debtor's timeline: every e-mail (deliveries), payment and debtor event
 * (opt-out, bounce, "I've paid", promises, disputes, schedule changes, …), newest first, the next
 * reminders of their enabled schedules with the time they will really go, and what the debtor
 * asked of the user (a pending or broken promise, disputed invoices). One owner-scoped batch, each
 * read through the debtor's index on its table.
 */

/** The most entries a timeline shows; the page says when there are more. */
export const TIMELINE_LIMIT = 200;
/** The compact timeline in the debtor's modal. */
export const TIMELINE_COMPACT = 10;

const DAY_MS = 86_400_000;
/** The statuses the per-debtor contact cap counts (as the engine's claim). */
const COUNTED = ["sending", "sent", "bounced", "complained"] as const;

export type TimelineEntry =
  | {
      kind: "email";
      key: string;
      at: number;
      template: string;
      tone: number;
      status: string;
      error: string | null;
      sentAt: number | null;
      deliveredAt: number | null;
      /** A test send's starts with "test:" (to the user, app/domain/delivery-labels.ts). */
      occurrenceKey: string;
      recipient: string | null;
      /** 'text': a text message (decisions/070), to the E.164 number in `recipient`. */
      channel: string;
    }
  | { kind: "payment"; key: string; at: number; amountCents: number; paidOn: string; note: string }
  | { kind: "event"; key: string; at: number; type: string; detail: string };

export interface UpcomingSend {
  scheduleId: string;
  preset: string;
  frequency: string;
  /** When the schedule is due. */
  dueAt: number;
  /** When it will really go: after the debtor's quiet hours and contact cap. */
  goesAt: number;
  /** Why it goes later than due: the held-back occurrence's reason, or the contact rule that moves it. */
  heldBack: string | null;
  /** The contact rule that moves a send that is not held back yet. */
  waitsFor: "quiet-hours" | "contact-cap" | null;
  /** A due-date schedule's next e-mail and the invoices it carries ("Final Notice for C-1"). */
  what: string | null;
}

export interface DebtorTimeline {
  debtor: {
    id: number;
    fullName: string;
    email: string;
    debtCents: number;
    paidCents: number;
    currency: string;
    status: "active" | "paid" | "opted_out" | "bouncing";
    timeZone: string;
    /** The date the debtor promised to pay by, while the promise is pending. */
    promisedOn: string | null;
    /** When their last promise passed unpaid: a new one waits for the user's consent. */
    promiseBrokenAt: number | null;
    /** The earliest due date of their open invoices: "Overdue · N days". */
    oldestDueOn: string | null;
    /** The primary contact (decisions/057). */
    contactName: string | null;
    contactRole: string | null;
    /** The mobile in E.164 and when the user confirmed they may text it (decisions/069). */
    phone: string | null;
    textConsentAt: number | null;
  };
  /** The debtor's invoices under dispute, for "Resolve dispute" (the oldest dispute first). */
  disputes: DisputedInvoice[];
  entries: TimelineEntry[];
  /**
   * The months whose e-mails to the debtor moved to the account's archive (decisions/022), oldest
   * first, with how many each holds: the timeline says so and links each month's file.
   */
  archived: { month: string; n: number }[];
  /** True when older entries exist beyond `limit`. */
  more: boolean;
  /** The debtor's enabled schedules' next sends, soonest first. */
  upcoming: UpcomingSend[];
}

export interface DisputedInvoice {
  id: number;
  number: string | null;
  dueOn: string;
  reason: string | null;
  disputedAt: number | null;
}

/** The values the timeline's queries are given on each request, by name. */
const P = {
  ownerId: OWNER_ID,
  debtorId: bindParam("debtorId"),
  take: bindParam("take"),
  since: bindParam("since"),
};

/**
 * The debtor page's queries, built once per isolate: their SQL
 * never changes, only the owner, the debtor, the row limit and the contact window's start do.
 */
const TIMELINE = {
  // The debtor's page's contacts (decisions/057), through debtor_contacts (owner_id, debtor_id, id).
  contacts: preparedQuery((db) => debtorContactsQuery(db, P.ownerId, P.debtorId)),
  debtor: preparedQuery((db) =>
    db
      .select({
        id: debtors.id,
        fullName: debtors.fullName,
        email: debtors.email,
        debtCents: debtors.debtCents,
        paidCents: debtors.paidCents,
        currency: debtors.currency,
        status: debtors.status,
        timeZone: debtors.timeZone,
        promisedOn: debtors.promisedOn,
        promiseBrokenAt: debtors.promiseBrokenAt,
        contactName: debtors.contactName,
        contactRole: debtors.contactRole,
        phone: debtors.phone,
        textConsentAt: debtors.textConsentAt,
        oldestDueOn: sql<
          string | null
        >`(SELECT min(inv.due_on) FROM invoices AS inv WHERE inv.debtor_id = "debtors"."id" AND inv.status = 'open')`.as(
          "oldest_due_on",
        ),
        // The debtor's archived months and how many of their e-mails each holds (decisions/022):
        // read with the debtor (delivery_rollups' key starts with owner and debtor), no statement more.
        archived: sql<string>`(SELECT json_group_array(json_array(month, n)) FROM (SELECT month, sum(n) AS n FROM delivery_rollups WHERE owner_id = ${debtors.ownerId} AND debtor_id = ${debtors.id} GROUP BY month ORDER BY month))`,
      })
      .from(debtors)
      .where(and(eq(debtors.ownerId, P.ownerId), eq(debtors.id, P.debtorId)))
      .limit(1),
  ),
  // invoices (debtor_id, status, …): the disputes waiting for the user's answer.
  disputes: preparedQuery((db) =>
    db
      .select({
        id: invoices.id,
        number: invoices.number,
        dueOn: invoices.dueOn,
        reason: invoices.disputeReason,
        disputedAt: invoices.disputedAt,
      })
      .from(invoices)
      // A unary + keeps the owner's condition but not its index (invoices (owner_id, id) would read them all).
      .where(
        and(
          eq(invoices.debtorId, P.debtorId),
          eq(invoices.status, "disputed"),
          sql`+${invoices.ownerId} = ${P.ownerId}`,
        ),
      )
      .orderBy(asc(invoices.disputedAt), asc(invoices.id))
      .limit(100),
  ),
  // deliveries (debtor_id, created_at)
  mail: preparedQuery((db) =>
    db
      .select({
        id: deliveries.id,
        createdAt: deliveries.createdAt,
        template: deliveries.template,
        tone: deliveries.tone,
        status: deliveries.status,
        error: deliveries.error,
        sentAt: deliveries.sentAt,
        deliveredAt: deliveries.deliveredAt,
        occurrenceKey: deliveries.occurrenceKey,
        recipient: deliveries.recipient,
        channel: deliveries.channel,
      })
      .from(deliveries)
      .where(and(eq(deliveries.debtorId, P.debtorId), eq(deliveries.ownerId, P.ownerId)))
      .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
      .limit(P.take),
  ),
  // payments (debtor_id, paid_on); a debtor keeps at most 1,000 of them.
  payments: preparedQuery((db) =>
    db
      .select({
        id: payments.id,
        createdAt: payments.createdAt,
        amountCents: payments.amountCents,
        paidOn: payments.paidOn,
        note: payments.note,
      })
      .from(payments)
      .where(and(eq(payments.debtorId, P.debtorId), eq(payments.ownerId, P.ownerId)))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(P.take),
  ),
  // debtor_events (debtor_id, created_at)
  events: preparedQuery((db) =>
    db
      .select({
        id: debtorEvents.id,
        createdAt: debtorEvents.createdAt,
        type: debtorEvents.type,
        detail: debtorEvents.detail,
      })
      .from(debtorEvents)
      .where(and(eq(debtorEvents.debtorId, P.debtorId), eq(debtorEvents.ownerId, P.ownerId)))
      .orderBy(desc(debtorEvents.createdAt), desc(debtorEvents.id))
      .limit(P.take),
  ),
  // schedules (debtor_id); the held-back occurrence through deliveries' unique occurrence key.
  schedules: preparedQuery((db) =>
    db
      .select({
        id: schedules.id,
        preset: schedules.preset,
        frequency: schedules.frequency,
        nextRunAt: schedules.nextRunAt,
        lastRunAt: schedules.lastRunAt,
        coveredAt: schedules.coveredAt,
        cadenceSteps: schedules.cadenceSteps,
        cadenceRepeatDays: schedules.cadenceRepeatDays,
        cadenceVoices: schedules.cadenceVoices,
        sendHour: schedules.sendHour,
        // A due-date schedule's: its debtor's open invoices, for what its next e-mail carries.
        openInvoices: sql<
          string | null
        >`(CASE WHEN schedules.frequency = 'due' THEN ${openInvoicesSql(sql`schedules.debtor_id`)} END)`,
        // Qualified by hand: drizzle leaves a one-table query's columns bare, and a bare "id" here is d's.
        waiting: sql<
          string | null
        >`(SELECT d.error FROM deliveries AS d WHERE d.occurrence_key = schedules.id || ':' || schedules.next_run_at AND d.status = 'deferred')`,
      })
      .from(schedules)
      // A unary + keeps the state's condition but not its index: SQLite would otherwise walk the
      // index on schedules (state, next_run_at) for its order, over every account's enabled schedules.
      .where(
        and(eq(schedules.debtorId, P.debtorId), eq(schedules.ownerId, P.ownerId), sql`+${schedules.state} = 'ENABLED'`),
      )
      .orderBy(asc(schedules.nextRunAt))
      .limit(100),
  ),
  user: preparedQuery((db) =>
    db
      .select({
        quietStartHour: users.quietStartHour,
        quietEndHour: users.quietEndHour,
        contactCap: users.contactCap,
      })
      .from(users)
      .where(eq(users.id, P.ownerId))
      .limit(1),
  ),
  // The debtor's reminders the contact cap counts now (deliveries (debtor_id, created_at)).
  counted: preparedQuery((db) =>
    db
      .select({ at: deliveries.createdAt })
      .from(deliveries)
      .where(
        and(
          eq(deliveries.debtorId, P.debtorId),
          eq(deliveries.ownerId, P.ownerId),
          gt(deliveries.createdAt, P.since),
          inArray(deliveries.status, [...COUNTED]),
        ),
      ),
  ),
};

/**
 * The owner's debtor's timeline, newest first and at most `limit` entries, or undefined when the
 * debtor is not the owner's (another user's id looks exactly like a missing one).
 */
export async function getDebtorTimeline(
  db: Db,
  ownerId: string,
  debtorId: number,
  {
    limit = TIMELINE_LIMIT,
    now = Date.now(),
    invoices = false,
    run = (queries) => runBatch(db, queries),
  }: {
    limit?: number;
    now?: number /** Also the debtor's invoices (the page's Invoices section), in the same batch. */;
    invoices?: boolean;
    /**
     * Runs the batch: by default as it is; the debtor's page runs it with the session's statement
     * (its owner SESSION_OWNER, docs/decisions/025).
     */
    run?: <T extends readonly Bound<unknown>[]>(queries: T) => Promise<Rows<T>>;
  } = {},
): Promise<
  | (DebtorTimeline & {
      invoices: InvoiceRow[];
      replies: ReplyView[];
      contacts: ContactRow[];
      charges: ChargeRowRead[];
      /** The debtor's payment plans and what a new one would cover (decisions/066). */
      plans: PlanView[];
      planTotals: { currency: string; cents: number }[];
    })
  | undefined
> {
  const values = { ownerId, debtorId, take: limit + 1, since: now - CONTACT_DEFAULTS.windowDays * DAY_MS };
  const [
    debtorRows,
    mailRows,
    paymentRows,
    eventRows,
    scheduleRows,
    userRows,
    counted,
    disputes,
    invoiceRows = [],
    replyRows = [],
    contactRows = [],
    chargeRows = [],
    planRows = [],
  ] = await run([
    TIMELINE.debtor(db, values),
    TIMELINE.mail(db, values),
    TIMELINE.payments(db, values),
    TIMELINE.events(db, values),
    TIMELINE.schedules(db, values),
    TIMELINE.user(db, values),
    TIMELINE.counted(db, values),
    TIMELINE.disputes(db, values),
    // The debtor's page also lists their invoices and their e-mail replies (docs/decisions/020).
    ...(invoices
      ? [
          debtorInvoicesQuery(db, values),
          debtorRepliesQuery(db, values),
          TIMELINE.contacts(db, values),
          // Their invoices' late-payment charges (decisions/065).
          debtorChargesQuery(db, values),
          debtorPlansRowQuery(db, values),
        ]
      : []),
  ] as const);
  const found = debtorRows[0];
  if (!found) return undefined;
  const { archived: archivedJson, ...debtor } = found;
  const archived = (JSON.parse(archivedJson ?? "[]") as [string, number][]).map(([month, n]) => ({ month, n }));

  const all: TimelineEntry[] = [
    ...mailRows.map(
      (d): TimelineEntry => ({
        kind: "email",
        key: `email-${d.id}`,
        at: d.createdAt,
        template: d.template,
        tone: d.tone,
        status: d.status,
        error: d.error,
        sentAt: d.sentAt,
        deliveredAt: d.deliveredAt,
        occurrenceKey: d.occurrenceKey,
        recipient: d.recipient,
        channel: d.channel,
      }),
    ),
    ...paymentRows.map(
      (p): TimelineEntry => ({
        kind: "payment",
        key: `payment-${p.id}`,
        at: p.createdAt,
        amountCents: p.amountCents,
        paidOn: p.paidOn,
        note: p.note,
      }),
    ),
    ...eventRows.map(
      (e): TimelineEntry => ({ kind: "event", key: `event-${e.id}`, at: e.createdAt, type: e.type, detail: e.detail }),
    ),
  ];
  // Newest first; at the same instant the change comes after what caused it (events last in, first shown).
  const rank = { email: 0, payment: 1, event: 2 } as const;
  const idOf = (e: TimelineEntry) => Number(e.key.slice(e.key.indexOf("-") + 1));
  all.sort((a, b) => b.at - a.at || rank[b.kind] - rank[a.kind] || idOf(b) - idOf(a));

  const owner = userRows[0];
  const rules = contactRules({
    startHour: owner?.quietStartHour ?? undefined,
    endHour: owner?.quietEndHour ?? undefined,
    maxPerWindow: owner?.contactCap ?? undefined,
  });
  const instants = counted.map((r) => r.at);
  const zone = safeTimeZone(debtor.timeZone);
  // Only what will really send: an enabled schedule of a debtor who opted out or paid sends nothing.
  const upcoming = scheduleRows
    .filter(
      (s) =>
        scheduleStatus({ ...s, state: "ENABLED", stoppedReason: null, debtorStatus: debtor.status }).nextRunAt != null,
    )
    .map((s): UpcomingSend => {
      const dueAt = s.nextRunAt ?? now;
      const slot = nextContactSlot(Math.max(dueAt, now), zone, instants, rules);
      return {
        scheduleId: s.id,
        preset: s.preset,
        frequency: s.frequency,
        dueAt,
        goesAt: slot.at,
        what: nextRunWhat({ ...s, nextRunAt: dueAt, debtorTimeZone: debtor.timeZone }),
        heldBack: s.waiting,
        waitsFor: s.waiting ? null : slot.reason,
      };
    })
    .sort((a, b) => a.goesAt - b.goesAt);

  return {
    debtor,
    disputes,
    archived,
    entries: all.slice(0, limit),
    more: all.length > limit,
    upcoming,
    invoices: invoiceRows as InvoiceRow[],
    replies: replyViewsOf(replyRows as (typeof debtorReplies.$inferSelect)[]),
    // The debtor's other contacts with their state (decisions/057).
    contacts: (contactRows as Parameters<typeof contactRowOf>[0][]).map(contactRowOf),
    charges: chargeRows as ChargeRowRead[],
    ...(({ plans, totals }) => ({ plans, planTotals: totals }))(
      plansOfRow((planRows as { plans: string | null; totals: string | null }[])[0]),
    ),
  };
}
