import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { debtorEventWhere, noticeInsert } from "~/activity/index.server";
import { chunk, IDS_PER_STATEMENT } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { bindParam, OWNER_ID, preparedQuery } from "~/db/prepared.server";
import { chargePauses, debtors, invoices, paymentPlans, planInstalments, planInvoices } from "~/db/schema";
import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import {
  type Instalment,
  LIVE_PLAN_STATUSES,
  type PlanRuleError,
  type PlanShape,
  type PlanStatus,
  planInstalments as splitPlan,
} from "~/domain/payment-plan";
import { localDateString } from "~/domain/schedule-time";
import { safeTimeZone } from "~/domain/time-zone";
import type { OwnerScope } from "~/platform/scope.server";
import { commit, releaseDisputeHolds, replanDueSchedules, resumeHeld } from "~/reminders/index.server";
import { accrueAfterWrite } from "../charges/accrual.server";

/**
 * Payment plans (decisions/066): the debtor asks for one from their page, or the user offers one;
 * the other side accepts or declines; an accepted plan is 'active' until the ledger covers every
 * instalment ('completed') or an instalment is missed past its grace ('broken'). Every change and
 * its timeline event (and the user's notice, when the debtor acted) are one batch whose statements
 * each check the plan is still in the state read, so a repeat, a race or a stale page changes
 * nothing. What is paid on a plan is read from the ledger: what its invoices have paid beyond what
 * they had paid when it was made (`paid_at_start_cents`). Every read and write is the owner's.
 */

type Statement = BatchItem<"sqlite">;

/** A plan as the pages show it, with what the ledger says is paid on it. */
export interface PlanView {
  id: number;
  debtorId: number;
  status: PlanStatus;
  proposedBy: "debtor" | "user";
  currency: string;
  totalCents: number;
  /** Paid on the plan since it was made, from the ledger (never above the total). */
  paidCents: number;
  askedCount: number | null;
  askedPerMonthCents: number | null;
  firstOn: string;
  graceDays: number;
  autoBreak: boolean;
  startedOn: string | null;
  message: string | null;
  missedSeq: number | null;
  createdAt: number;
  decidedAt: number | null;
  endedAt: number | null;
  instalments: Instalment[];
}

/** What its invoices have paid beyond what they had paid when the plan was made (the ledger's word). */
// Spelled out: in a one-table query drizzle leaves columns unqualified, and inside the subquery "id" would be ambiguous.
const ledgerPaidSql = sql<number>`max(0, coalesce((SELECT sum(i.paid_cents) FROM plan_invoices AS pi JOIN invoices AS i ON i.id = pi.invoice_id WHERE pi.plan_id = "payment_plans"."id"), 0) - "payment_plans"."paid_at_start_cents")`;

const planColumns = {
  id: paymentPlans.id,
  debtorId: paymentPlans.debtorId,
  status: paymentPlans.status,
  proposedBy: paymentPlans.proposedBy,
  currency: paymentPlans.currency,
  totalCents: paymentPlans.totalCents,
  paidCents: ledgerPaidSql,
  askedCount: paymentPlans.askedCount,
  askedPerMonthCents: paymentPlans.askedPerMonthCents,
  firstOn: paymentPlans.firstOn,
  graceDays: paymentPlans.graceDays,
  autoBreak: paymentPlans.autoBreak,
  startedOn: paymentPlans.startedOn,
  message: paymentPlans.message,
  missedSeq: paymentPlans.missedSeq,
  createdAt: paymentPlans.createdAt,
  decidedAt: paymentPlans.decidedAt,
  endedAt: paymentPlans.endedAt,
};

/** The most plans a debtor's pages list (the newest; the live ones are always among them). */
export const PLANS_LISTED = 10;

/** The owner's debtor's plans, newest first, with their instalments and what is paid on each. */
export async function debtorPlans(db: Db, ownerId: string, debtorId: number): Promise<PlanView[]> {
  const mine = and(eq(paymentPlans.ownerId, ownerId), eq(paymentPlans.debtorId, debtorId));
  const [plans, instalments] = await db.batch([
    db.select(planColumns).from(paymentPlans).where(mine).orderBy(desc(paymentPlans.id)).limit(PLANS_LISTED),
    db
      .select({
        planId: planInstalments.planId,
        seq: planInstalments.seq,
        dueOn: planInstalments.dueOn,
        amountCents: planInstalments.amountCents,
      })
      .from(planInstalments)
      .where(
        inArray(
          planInstalments.planId,
          db
            .select({ id: paymentPlans.id })
            .from(paymentPlans)
            .where(mine)
            .orderBy(desc(paymentPlans.id))
            .limit(PLANS_LISTED),
        ),
      )
      .orderBy(asc(planInstalments.planId), asc(planInstalments.seq)),
  ]);
  return plans.map((p) => ({
    ...p,
    paidCents: Math.min(Number(p.paidCents), p.totalCents),
    instalments: instalments
      .filter((i) => i.planId === p.id)
      .map((i) => ({ seq: i.seq, dueOn: i.dueOn, amountCents: i.amountCents })),
  }));
}

/** One plan of the owner's (any debtor's), or undefined: another owner's plan is not found. */
export async function ownedPlan(db: Db, ownerId: string, planId: number): Promise<PlanView | undefined> {
  const [row] = await db
    .select({ debtorId: paymentPlans.debtorId })
    .from(paymentPlans)
    .where(and(eq(paymentPlans.ownerId, ownerId), eq(paymentPlans.id, planId)));
  if (!row) return undefined;
  return (await debtorPlans(db, ownerId, row.debtorId)).find((p) => p.id === planId);
}

/** What a plan in `currency` may cover: the debtor's open invoices in it with principal unpaid, not said to be paid. */
function coverableWhere(ownerId: string, debtorId: number, currency: string) {
  return and(
    eq(invoices.debtorId, debtorId),
    eq(invoices.status, "open"),
    sql`+${invoices.ownerId} = ${ownerId}`,
    eq(invoices.currency, currency),
    sql`${invoices.amountCents} > ${invoices.paidCents}`,
    isNull(invoices.claimedAt),
  );
}

/** Per currency, the unpaid principal a new plan would cover (the forms' totals), currencies in code order. */
export async function planTotals(db: Db, ownerId: string, debtorId: number) {
  const rows = await db
    .select({
      currency: invoices.currency,
      cents: sql<number>`sum(${invoices.amountCents} - ${invoices.paidCents})`,
    })
    .from(invoices)
    .where(
      and(
        eq(invoices.debtorId, debtorId),
        eq(invoices.status, "open"),
        sql`+${invoices.ownerId} = ${ownerId}`,
        sql`${invoices.amountCents} > ${invoices.paidCents}`,
        isNull(invoices.claimedAt),
      ),
    )
    .groupBy(invoices.currency)
    .orderBy(invoices.currency);
  return rows.map((r) => ({ currency: r.currency, cents: Number(r.cents) }));
}

/** Why a plan is not made or changed. */
export type PlanRefusal =
  | PlanRuleError
  /** A plan in that currency is already waiting for an answer or running. */
  | "live"
  /** Not found: another owner's, or no such plan or debtor. */
  | "not-found"
  /** The plan is no longer in the state the page showed (answered meanwhile). */
  | "stale";

export interface NewPlan {
  currency: string;
  shape: PlanShape;
  firstOn: string;
  /** The debtor's today (their zone), for the first date's window. */
  today: string;
  /** The user's choices (an offer): grace days after a missed date, and whether the plan ends by itself. */
  graceDays?: number;
  autoBreak?: boolean;
}

/** The plan this batch made or reshaped: the owner's, in `status`, under this write's own random key. */
const writtenBy = (ownerId: string, status: PlanStatus, writeKey: string) =>
  and(eq(paymentPlans.ownerId, ownerId), eq(paymentPlans.status, status), eq(paymentPlans.writeKey, writeKey));

/** INSERT … SELECT of each instalment of the plan `where` finds (none when it finds none). */
function instalmentInserts(db: Db, where: SQL | undefined, list: readonly Instalment[]): Statement[] {
  return list.map((i) =>
    db
      .insert(planInstalments)
      .select(
        db
          .select({
            id: sql<number>`null`.as("id"),
            ownerId: paymentPlans.ownerId,
            planId: sql<number>`${paymentPlans.id}`.as("plan_id"),
            seq: sql<number>`${i.seq}`.as("seq"),
            dueOn: sql<string>`${i.dueOn}`.as("due_on"),
            amountCents: sql<number>`${i.amountCents}`.as("amount_cents"),
          })
          .from(paymentPlans)
          .where(where),
      )
      .onConflictDoNothing(),
  );
}

/** English detail of a plan's event: "3 instalments, €1,200.00 in all, from 1 March 2027". */
function planEventDetail(list: readonly Instalment[], currency: string): string {
  const total = list.reduce((sum, i) => sum + i.amountCents, 0);
  const first = list[0]?.dueOn ?? "";
  return `${list.length} instalments, ${formatMoney(total, currency)} in all, from ${formatDate(first)}`;
}

/**
 * A new plan over the debtor's coverable invoices in the currency: the debtor's request
 * ('requested', their reminders held 'plan_requested' and the user told) or the user's offer
 * ('offered'). Refused with the rule it breaks, or 'live' when a plan in that currency is waiting or
 * running (the unique partial index: two requests at once make one plan).
 */
export async function createPlan(
  scope: OwnerScope,
  debtorId: number,
  by: "debtor" | "user",
  input: NewPlan,
): Promise<{ planId: number; instalments: Instalment[] } | { error: PlanRefusal }> {
  const { db, ownerId, now } = scope;
  const [[debtor], covered, [live]] = await db.batch([
    db
      .select({ id: debtors.id })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId))),
    db
      .select({ id: invoices.id, amountCents: invoices.amountCents, paidCents: invoices.paidCents })
      .from(invoices)
      .where(coverableWhere(ownerId, debtorId, input.currency)),
    db
      .select({ id: paymentPlans.id })
      .from(paymentPlans)
      .where(
        and(
          eq(paymentPlans.ownerId, ownerId),
          eq(paymentPlans.debtorId, debtorId),
          eq(paymentPlans.currency, input.currency),
          inArray(paymentPlans.status, [...LIVE_PLAN_STATUSES]),
        ),
      )
      .limit(1),
  ]);
  if (!debtor) return { error: "not-found" };
  if (live) return { error: "live" };
  const totalCents = covered.reduce((sum, i) => sum + i.amountCents - i.paidCents, 0);
  const paidAtStartCents = covered.reduce((sum, i) => sum + i.paidCents, 0);
  const split = splitPlan(totalCents, input.shape, input.firstOn, input.today);
  if ("error" in split) return split;
  const status = by === "debtor" ? "requested" : "offered";
  const writeKey = crypto.randomUUID();
  const made = writtenBy(ownerId, status, writeKey);
  const madeSql = sql`EXISTS (SELECT 1 FROM ${paymentPlans} WHERE ${made})`;
  const coverInserts = chunk(
    covered.map((i) => i.id),
    IDS_PER_STATEMENT,
  ).map((ids) =>
    db
      .insert(planInvoices)
      .select(
        db
          .select({
            id: sql<number>`null`.as("id"),
            ownerId: invoices.ownerId,
            planId: sql<number>`(SELECT ${paymentPlans.id} FROM ${paymentPlans} WHERE ${made})`.as("plan_id"),
            invoiceId: sql<number>`${invoices.id}`.as("invoice_id"),
          })
          .from(invoices)
          .where(and(inArray(invoices.id, ids), eq(invoices.ownerId, ownerId), madeSql)),
      )
      .onConflictDoNothing(),
  );
  const detail = planEventDetail(split.instalments, input.currency);
  const debtorWhere = and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId), madeSql);
  const { results } = await commit({ env: scope.env, db, now }, (consequences) => [
    db
      .insert(paymentPlans)
      .values({
        ownerId,
        debtorId,
        currency: input.currency,
        status,
        proposedBy: by,
        totalCents,
        askedCount: input.shape.mode === "count" ? input.shape.count : null,
        askedPerMonthCents: input.shape.mode === "amount" ? input.shape.perMonthCents : null,
        firstOn: input.firstOn,
        graceDays: input.graceDays ?? 7,
        autoBreak: input.autoBreak ?? false,
        paidAtStartCents,
        writeKey,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: paymentPlans.id }),
    ...instalmentInserts(db, made, split.instalments),
    ...coverInserts,
    debtorEventWhere(db, by === "debtor" ? "plan_requested" : "plan_offered", detail, debtorWhere, now),
    ...(by === "debtor"
      ? [
          consequences({ kind: "held", ownerId, debtorId, reason: "plan_requested", onlyIf: madeSql }),
          noticeInsert(db, { ownerId, debtorId, kind: "plan_requested", at: now }),
        ]
      : []),
  ]);
  const [inserted] = results[0] as { id: number }[];
  if (!inserted) return { error: "live" };
  return { planId: inserted.id, instalments: split.instalments };
}

/** The plan `planId` of the owner still in `status` (and of `debtorId`, when given). */
const planIn = (ownerId: string, planId: number, status: PlanStatus, debtorId?: number) =>
  and(
    eq(paymentPlans.ownerId, ownerId),
    eq(paymentPlans.id, planId),
    eq(paymentPlans.status, status),
    debtorId === undefined ? undefined : eq(paymentPlans.debtorId, debtorId),
  );

/** The timeline event `type` of the plan's debtor, recorded when `planWhere` finds the plan (put it first). */
function planEvent(
  db: Db,
  type: Parameters<typeof debtorEventWhere>[1],
  detail: string,
  planWhere: SQL | undefined,
  now: number,
) {
  return debtorEventWhere(
    db,
    type,
    detail,
    sql`${debtors.id} = (SELECT ${paymentPlans.debtorId} FROM ${paymentPlans} WHERE ${planWhere})`,
    now,
  );
}

export interface Decision {
  /** Who answers: the user a request, the debtor an offer. */
  by: "user" | "debtor";
  /** The debtor's page answers only for its own debtor. */
  debtorId?: number;
  /** The debtor's today (their zone): the plan starts, and its charges pause, from it. */
  today: string;
  /** The user's choices when accepting a request. */
  graceDays?: number;
  autoBreak?: boolean;
}

/**
 * Accepts the plan: the user a debtor's request, the debtor the user's offer. In one batch: the
 * plan 'active' from the debtor's today, the charges of its invoices paused from that day
 * (charge_pauses 'plan'), 'plan_accepted' recorded (and the user told when the debtor accepted).
 * Then the reminders the request held run again (its invoices are left out of them now) and a
 * plan the ledger already covers completes. Returns the plan as it is now.
 */
export async function acceptPlan(
  scope: OwnerScope,
  planId: number,
  d: Decision,
): Promise<{ plan: PlanView } | { error: PlanRefusal }> {
  const { db, ownerId, now } = scope;
  const from = d.by === "user" ? "requested" : "offered";
  const waiting = planIn(ownerId, planId, from, d.debtorId);
  const writeKey = crypto.randomUUID();
  const accepted = and(eq(paymentPlans.id, planId), writtenBy(ownerId, "active", writeKey));
  const plan = await ownedPlan(db, ownerId, planId);
  if (!plan || (d.debtorId !== undefined && plan.debtorId !== d.debtorId)) return { error: "not-found" };
  if (plan.status !== from) return { error: "stale" };
  const [, updated] = await db.batch([
    planEvent(db, "plan_accepted", planEventDetail(plan.instalments, plan.currency), waiting, now),
    db
      .update(paymentPlans)
      .set({
        status: "active",
        writeKey,
        startedOn: d.today,
        decidedAt: now,
        updatedAt: now,
        ...(d.graceDays !== undefined ? { graceDays: d.graceDays } : {}),
        ...(d.autoBreak !== undefined ? { autoBreak: d.autoBreak } : {}),
      })
      .where(waiting)
      .returning({ id: paymentPlans.id }),
    db.insert(chargePauses).select(
      db
        .select({
          id: sql<number>`null`.as("id"),
          ownerId: planInvoices.ownerId,
          invoiceId: planInvoices.invoiceId,
          reason: sql<string>`'plan'`.as("reason"),
          planId: sql<number>`${planInvoices.planId}`.as("plan_id"),
          fromOn: sql<string>`${d.today}`.as("from_on"),
          toOn: sql<string | null>`null`.as("to_on"),
          createdAt: sql<number>`${now}`.as("created_at"),
        })
        .from(planInvoices)
        .where(and(eq(planInvoices.planId, planId), sql`EXISTS (SELECT 1 FROM ${paymentPlans} WHERE ${accepted})`)),
    ),
    ...(d.by === "debtor"
      ? [noticeInsert(db, { ownerId, debtorId: plan.debtorId, kind: "plan_accepted", at: now })]
      : []),
  ]);
  if (updated.length === 0) return { error: "stale" };
  await afterAnswer(scope, plan.debtorId);
  await completePaidPlans(scope, plan.debtorId, d.today);
  // Its invoices' interest pauses from today (decisions/065): the charges as they are now.
  await accrueAfterWrite(scope, [plan.debtorId]);
  return { plan: (await ownedPlan(db, ownerId, planId)) ?? plan };
}

/** The request is answered: the reminders it held run again (the lifecycle's rules), due-date steps follow. */
async function afterAnswer(scope: OwnerScope, debtorId: number) {
  await resumeHeld(scope, debtorId, "plan_requested");
  await replanDueSchedules(scope, [debtorId]);
}

/**
 * Declines the plan: the user a debtor's request (with an optional message for the debtor), the
 * debtor the user's offer (the user is told). The reminders a request held run again.
 */
export async function declinePlan(
  scope: OwnerScope,
  planId: number,
  d: Pick<Decision, "by" | "debtorId"> & { message?: string },
): Promise<{ plan: PlanView } | { error: PlanRefusal }> {
  const { db, ownerId, now } = scope;
  const from = d.by === "user" ? "requested" : "offered";
  const plan = await ownedPlan(db, ownerId, planId);
  if (!plan || (d.debtorId !== undefined && plan.debtorId !== d.debtorId)) return { error: "not-found" };
  if (plan.status !== from) return { error: "stale" };
  const waiting = planIn(ownerId, planId, from, d.debtorId);
  const [, updated] = await db.batch([
    planEvent(db, "plan_declined", d.message ?? "", waiting, now),
    db
      .update(paymentPlans)
      .set({ status: "declined", message: d.message || null, decidedAt: now, endedAt: now, updatedAt: now })
      .where(waiting)
      .returning({ id: paymentPlans.id }),
    ...(d.by === "debtor"
      ? [noticeInsert(db, { ownerId, debtorId: plan.debtorId, kind: "plan_declined", at: now })]
      : []),
  ]);
  if (updated.length === 0) return { error: "stale" };
  if (d.by === "user") await afterAnswer(scope, plan.debtorId);
  return { plan: { ...plan, status: "declined", message: d.message || null } };
}

/** The user withdraws an offer the debtor has not answered. */
export async function cancelOffer(scope: OwnerScope, planId: number): Promise<{ ok: true } | { error: PlanRefusal }> {
  const { db, ownerId, now } = scope;
  const plan = await ownedPlan(db, ownerId, planId);
  if (!plan) return { error: "not-found" };
  const offered = planIn(ownerId, planId, "offered");
  const [, updated] = await db.batch([
    planEvent(db, "plan_cancelled", "", offered, now),
    db
      .update(paymentPlans)
      .set({ status: "cancelled", endedAt: now, updatedAt: now })
      .where(offered)
      .returning({ id: paymentPlans.id }),
  ]);
  return updated.length > 0 ? { ok: true } : { error: "stale" };
}

/**
 * The user changes a debtor's request (count or amount, first date, grace): it becomes the user's
 * offer, which the debtor accepts or declines on their page (decisions/066: the debtor agreed to
 * what they asked, not to the change). The total stays what the request covered. The reminders the
 * request held run again meanwhile.
 */
export async function editRequest(
  scope: OwnerScope,
  planId: number,
  input: Omit<NewPlan, "currency">,
): Promise<{ plan: PlanView } | { error: PlanRefusal }> {
  const { db, ownerId, now } = scope;
  const plan = await ownedPlan(db, ownerId, planId);
  if (!plan) return { error: "not-found" };
  if (plan.status !== "requested") return { error: "stale" };
  // What is still unpaid of what it covers: paid meanwhile lowers the new split.
  const left = plan.totalCents - plan.paidCents;
  const split = splitPlan(left, input.shape, input.firstOn, input.today);
  if ("error" in split) return split;
  const requested = planIn(ownerId, planId, "requested");
  const writeKey = crypto.randomUUID();
  const changed = and(eq(paymentPlans.id, planId), writtenBy(ownerId, "offered", writeKey));
  const [, updated] = await db.batch([
    planEvent(db, "plan_offered", planEventDetail(split.instalments, plan.currency), requested, now),
    db
      .update(paymentPlans)
      .set({
        status: "offered",
        proposedBy: "user",
        // The split is of what is unpaid now: what was paid before counts as paid at the start.
        totalCents: left,
        paidAtStartCents: sql`${paymentPlans.paidAtStartCents} + ${plan.paidCents}`,
        askedCount: input.shape.mode === "count" ? input.shape.count : null,
        askedPerMonthCents: input.shape.mode === "amount" ? input.shape.perMonthCents : null,
        firstOn: input.firstOn,
        graceDays: input.graceDays ?? plan.graceDays,
        autoBreak: input.autoBreak ?? plan.autoBreak,
        writeKey,
        decidedAt: now,
        updatedAt: now,
      })
      .where(requested)
      .returning({ id: paymentPlans.id }),
    db
      .delete(planInstalments)
      .where(and(eq(planInstalments.planId, planId), sql`EXISTS (SELECT 1 FROM ${paymentPlans} WHERE ${changed})`)),
    ...instalmentInserts(db, changed, split.instalments),
  ]);
  if (updated.length === 0) return { error: "stale" };
  await afterAnswer(scope, plan.debtorId);
  return { plan: (await ownedPlan(db, ownerId, planId)) ?? plan };
}

/**
 * Ends an active plan as broken (the user's "End the plan", or by itself after the grace days): in
 * one batch the plan 'broken', its charge pauses deleted (so the interest of those days is charged
 * after all) and 'plan_broken' recorded (the user told when it ended by itself). Then its invoices
 * are chased again in full: the schedules held for want of a chased invoice run again.
 */
export async function breakPlan(
  scope: OwnerScope,
  planId: number,
  how: { byItself: boolean; reason: string },
): Promise<{ plan: PlanView } | { error: PlanRefusal }> {
  const { db, ownerId, now } = scope;
  const plan = await ownedPlan(db, ownerId, planId);
  if (!plan) return { error: "not-found" };
  if (plan.status !== "active") return { error: "stale" };
  const active = planIn(ownerId, planId, "active");
  const writeKey = crypto.randomUUID();
  const broken = and(eq(paymentPlans.id, planId), writtenBy(ownerId, "broken", writeKey));
  const [, updated] = await db.batch([
    planEvent(db, "plan_broken", how.reason, active, now),
    db
      .update(paymentPlans)
      .set({ status: "broken", writeKey, message: how.reason, endedAt: now, updatedAt: now })
      .where(active)
      .returning({ id: paymentPlans.id }),
    db
      .delete(chargePauses)
      .where(
        and(
          eq(chargePauses.ownerId, ownerId),
          eq(chargePauses.reason, "plan"),
          eq(chargePauses.planId, planId),
          sql`EXISTS (SELECT 1 FROM ${paymentPlans} WHERE ${broken})`,
        ),
      ),
    ...(how.byItself ? [noticeInsert(db, { ownerId, debtorId: plan.debtorId, kind: "plan_broken", at: now })] : []),
  ]);
  if (updated.length === 0) return { error: "stale" };
  await releaseDisputeHolds(scope, plan.debtorId);
  await replanDueSchedules(scope, [plan.debtorId]);
  // The plan's days are charged after all: the interest restored.
  await accrueAfterWrite(scope, [plan.debtorId]);
  return { plan: { ...plan, status: "broken", message: how.reason, endedAt: now } };
}

/** The debtor's active plans the ledger now covers in full. */
const paidInFull = (ownerId: string, debtorId: number | SQL) =>
  and(
    eq(paymentPlans.ownerId, ownerId),
    sql`${paymentPlans.debtorId} = ${debtorId}`,
    eq(paymentPlans.status, "active"),
    sql`${ledgerPaidSql} >= ${paymentPlans.totalCents}`,
  );

/**
 * Statements for a ledger write's own batch (put them after its allocations): the debtor's active
 * plans the ledger now covers in full complete ('plan_completed' recorded, their charge pauses
 * closed on `today`, exclusive). A payment settles a plan in the very batch that records it.
 */
export function completePlansStatements(db: Db, ownerId: string, debtorId: number, now: number, today: string) {
  const done = paidInFull(ownerId, debtorId);
  return [
    debtorEventWhere(
      db,
      "plan_completed",
      "",
      and(
        eq(debtors.ownerId, ownerId),
        eq(debtors.id, debtorId),
        sql`EXISTS (SELECT 1 FROM ${paymentPlans} WHERE ${done})`,
      ),
      now,
    ),
    db
      .update(chargePauses)
      .set({ toOn: today })
      .where(
        and(
          eq(chargePauses.ownerId, ownerId),
          eq(chargePauses.reason, "plan"),
          isNull(chargePauses.toOn),
          sql`${chargePauses.planId} IN (SELECT ${paymentPlans.id} FROM ${paymentPlans} WHERE ${done})`,
        ),
      ),
    db.update(paymentPlans).set({ status: "completed", endedAt: now, updatedAt: now }).where(done),
  ] as const;
}

/** Completes the debtor's plans the ledger covers, on its own (after an acceptance). */
export async function completePaidPlans(scope: OwnerScope, debtorId: number, today: string) {
  const [first, ...rest] = completePlansStatements(scope.db, scope.ownerId, debtorId, scope.now, today);
  await scope.db.batch([first, ...rest]);
}

/** The debtor's today in their zone. */
export function debtorToday(now: number, timeZone: string | null | undefined): string {
  return localDateString(now, safeTimeZone(timeZone ?? "UTC"));
}

/** The owner's debtor's zone (for their today), or undefined for a debtor that is not the owner's. */
export async function debtorZone(db: Db, ownerId: string, debtorId: number): Promise<string | undefined> {
  const [row] = await db
    .select({ timeZone: debtors.timeZone })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)));
  return row?.timeZone;
}

// The debtor's page: the plans and what a new one would cover, one statement of its batch --------

/**
 * The owner's debtor's plans (the newest PLANS_LISTED, each with its instalments and what the ledger
 * says is paid on it) and, per currency, what a new plan would cover, as JSON in one row: one
 * statement of the debtor page's batch (plansOfRow reads it back). No row: not the owner's debtor.
 */
export const debtorPlansRowQuery = preparedQuery((db) =>
  db
    .select({
      plans: sql<string | null>`(SELECT json_group_array(json_object(
        'id', p.id, 'debtorId', p.debtor_id, 'status', p.status, 'proposedBy', p.proposed_by, 'currency', p.currency,
        'totalCents', p.total_cents,
        'paidCents', max(0, coalesce((SELECT sum(i.paid_cents) FROM plan_invoices AS pi JOIN invoices AS i ON i.id = pi.invoice_id WHERE pi.plan_id = p.id), 0) - p.paid_at_start_cents),
        'askedCount', p.asked_count, 'askedPerMonthCents', p.asked_per_month_cents, 'firstOn', p.first_on,
        'graceDays', p.grace_days, 'autoBreak', p.auto_break, 'startedOn', p.started_on, 'message', p.message,
        'missedSeq', p.missed_seq, 'createdAt', p.created_at, 'decidedAt', p.decided_at, 'endedAt', p.ended_at,
        'instalments', json((SELECT json_group_array(json_object('seq', pl.seq, 'dueOn', pl.due_on, 'amountCents', pl.amount_cents))
          FROM (SELECT * FROM plan_instalments AS x WHERE x.plan_id = p.id ORDER BY x.seq) AS pl))))
        FROM (SELECT * FROM payment_plans AS y WHERE y.owner_id = "debtors"."owner_id" AND y.debtor_id = "debtors"."id" ORDER BY y.id DESC LIMIT ${sql.raw(String(PLANS_LISTED))}) AS p)`,
      totals: sql<string | null>`(SELECT json_group_array(json_object('currency', t.currency, 'cents', t.cents)) FROM (
        SELECT i.currency AS currency, sum(i.amount_cents - i.paid_cents) AS cents FROM invoices AS i
        WHERE i.debtor_id = "debtors"."id" AND i.status = 'open' AND i.amount_cents > i.paid_cents AND i.claimed_at IS NULL
        GROUP BY i.currency ORDER BY i.currency) AS t)`,
    })
    .from(debtors)
    .where(and(eq(debtors.ownerId, OWNER_ID), eq(debtors.id, bindParam("debtorId")))),
);

/** The plans and totals of a debtorPlansRowQuery row. */
export function plansOfRow(row: { plans: string | null; totals: string | null } | undefined): {
  plans: PlanView[];
  totals: { currency: string; cents: number }[];
} {
  if (!row) return { plans: [], totals: [] };
  const plans = (JSON.parse(row.plans ?? "[]") as (Omit<PlanView, "autoBreak"> & { autoBreak: number })[]).map((p) => ({
    ...p,
    autoBreak: Boolean(p.autoBreak),
    paidCents: Math.min(p.paidCents, p.totalCents),
  }));
  const totals = JSON.parse(row.totals ?? "[]") as { currency: string; cents: number }[];
  return { plans, totals };
}

/**
 * For the end-to-end tests' dev route only: the owner's active plans' instalments (and their start)
 * moved `days` earlier, as if that many days had passed. Returns the plans moved.
 */
export async function skipPlanDays(db: Db, ownerId: string, days: number): Promise<number> {
  const active = await db
    .select({ id: paymentPlans.id })
    .from(paymentPlans)
    .where(and(eq(paymentPlans.ownerId, ownerId), eq(paymentPlans.status, "active")));
  const ids = active.map((p) => p.id);
  const shift = `-${days} days`;
  for (const part of chunk(ids, IDS_PER_STATEMENT)) {
    await db.batch([
      db
        .update(planInstalments)
        .set({ dueOn: sql`date(${planInstalments.dueOn}, ${shift})` })
        .where(and(eq(planInstalments.ownerId, ownerId), inArray(planInstalments.planId, part))),
      db
        .update(paymentPlans)
        .set({ startedOn: sql`date(${paymentPlans.startedOn}, ${shift})`, updatedAt: 0 })
        .where(and(eq(paymentPlans.ownerId, ownerId), inArray(paymentPlans.id, part))),
    ]);
  }
  return ids.length;
}
