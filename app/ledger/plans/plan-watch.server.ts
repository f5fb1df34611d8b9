import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { debtorEventWhere, noticeInsert, sendNotices } from "~/activity/index.server";
import { chunk, IDS_PER_STATEMENT } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { debtors, emails, paymentPlans } from "~/db/schema";
import { contactRules, nextContactSlot } from "~/domain/contact-rules";
import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import { firstMissed, graceOver, instalmentStates, PLAN_REMINDER_DAYS_BEFORE } from "~/domain/payment-plan";
import type { PlanLetterKind } from "~/domain/plan-letter";
import { addDays } from "~/domain/promise";
import { safeTimeZone } from "~/domain/time-zone";
import type { AppConfig } from "~/platform/config.server";
import { sendPlanLetter } from "./plan-letters.server";
import { breakPlan, completePaidPlans, debtorPlans, debtorToday, type PlanView } from "./plans.server";

/**
 * Chasing instalments (decisions/066), on the watchdog's cron: while a plan is active its invoices
 * are left out of the regular reminders, and each instalment instead gets a gentle reminder
 * PLAN_REMINDER_DAYS_BEFORE days before its date and a nudge the day after it if still unpaid.
 * Each is one recorded e-mail under its key `plan:<plan>:<instalment>:before|after`, so it goes at
 * most once (sendRecorded), and only while the debtor's contact rules allow (08:00–21:00 in their
 * zone: outside them it waits for a later run), never to a debtor who paid, opted out, bounces, or
 * is held (an "I've paid" being checked, a pending promise, an unhandled reply). A missed
 * instalment tells the user once (missed_seq, 'plan_missed' and its notice); once its grace days
 * have passed, a plan the user set to end by itself breaks ('broken', its charge pauses deleted,
 * its invoices chased again in full). A plan the ledger covers in full completes.
 */

/** Active plans looked at per run (the least recently looked at first). */
export const PLANS_PER_RUN = 100;

export interface PlanWatch {
  read: number;
  sent: number;
  missed: number;
  broken: number;
}

/** Why a debtor gets no plan e-mail now: they paid, opted out, bounce, or are held; null: they may. */
const heldSql = (now: number) => sql<number>`(
  "debtors"."status" IN ('paid', 'opted_out', 'bouncing')
  OR "debtors"."paid_claimed_at" IS NOT NULL
  OR ("debtors"."promise_ends_at" IS NOT NULL AND "debtors"."promise_ends_at" > ${now})
  OR EXISTS (SELECT 1 FROM opt_outs AS o WHERE o.owner_id = "debtors"."owner_id" AND o.email = lower("debtors"."email"))
  OR EXISTS (SELECT 1 FROM debtor_replies AS r WHERE r.debtor_id = "debtors"."id" AND r.handled_at IS NULL AND r.auto = 0)
)`;

export async function watchPlans(env: Env, db: Db, config: AppConfig, now = Date.now()): Promise<PlanWatch> {
  const active = await db
    .select({
      id: paymentPlans.id,
      ownerId: paymentPlans.ownerId,
      debtorId: paymentPlans.debtorId,
      timeZone: debtors.timeZone,
      held: heldSql(now),
    })
    .from(paymentPlans)
    .innerJoin(debtors, eq(debtors.id, paymentPlans.debtorId))
    .where(eq(paymentPlans.status, "active"))
    .orderBy(asc(paymentPlans.updatedAt), asc(paymentPlans.id))
    .limit(PLANS_PER_RUN);
  const out: PlanWatch = { read: active.length, sent: 0, missed: 0, broken: 0 };
  if (active.length === 0) return out;
  // Looked at: the next run starts with the others.
  for (const ids of chunk(
    active.map((p) => p.id),
    IDS_PER_STATEMENT,
  )) {
    await db.update(paymentPlans).set({ updatedAt: now }).where(inArray(paymentPlans.id, ids));
  }
  const told = new Set<string>();
  for (const row of active) {
    const scope = { env, db, ownerId: row.ownerId, now };
    const plan = (await debtorPlans(db, row.ownerId, row.debtorId)).find((p) => p.id === row.id);
    if (plan?.status !== "active") continue;
    const zone = safeTimeZone(row.timeZone);
    const today = debtorToday(now, zone);
    if (plan.paidCents >= plan.totalCents) {
      await completePaidPlans(scope, plan.debtorId, today);
      continue;
    }
    const missed = firstMissed(plan.instalments, plan.paidCents, today);
    if (
      missed &&
      (plan.missedSeq ?? 0) < missed.seq &&
      (await tellMissed(db, { ...plan, ownerId: row.ownerId }, missed.seq, missed, now))
    ) {
      out.missed += 1;
      told.add(row.ownerId);
    }
    if (missed && plan.autoBreak && graceOver(missed, plan.graceDays, today)) {
      const broken = await breakPlan(scope, plan.id, {
        byItself: true,
        reason: `Instalment ${missed.seq} unpaid ${plan.graceDays} days after ${formatDate(missed.dueOn)}`,
      });
      if (!("error" in broken)) {
        out.broken += 1;
        told.add(row.ownerId);
        if (!row.held) await sendPlanLetter(scope, config, plan, "broken", { seq: missed.seq });
      }
      continue;
    }
    // The debtor's e-mails: not to one who paid, opted out, bounces or is held; only in their daytime.
    if (row.held) continue;
    if (nextContactSlot(now, zone, [], contactRules()).at > now) continue;
    const due = lettersDue(plan, today);
    if (due.length === 0) continue;
    const sent = await alreadySent(
      db,
      due.map((d) => d.key),
    );
    for (const d of due) {
      if (sent.has(d.key)) continue;
      if (await sendPlanLetter(scope, config, plan, d.kind, { seq: d.seq, dueCents: d.unpaidCents })) out.sent += 1;
    }
  }
  for (const ownerId of told) await sendNotices(env, db, config, { ownerId }, now);
  return out;
}

/** The instalment e-mails due on the debtor's `today`: a reminder in the days before a date, a nudge after it. */
function lettersDue(plan: PlanView, today: string) {
  const due: { key: string; kind: PlanLetterKind; seq: number; unpaidCents: number }[] = [];
  for (const i of instalmentStates(plan.instalments, plan.paidCents, today)) {
    if (i.state === "paid") continue;
    const from = addDays(i.dueOn, -PLAN_REMINDER_DAYS_BEFORE) ?? i.dueOn;
    if (today >= from && today <= i.dueOn) {
      due.push({ key: `plan:${plan.id}:${i.seq}:before`, kind: "before", seq: i.seq, unpaidCents: i.unpaidCents });
    }
    if (i.state === "missed") {
      due.push({ key: `plan:${plan.id}:${i.seq}:after`, kind: "after", seq: i.seq, unpaidCents: i.unpaidCents });
    }
  }
  return due;
}

/** Which of `keys` were recorded already (sent, pending a retry, or failed): none is recorded twice. */
async function alreadySent(db: Db, keys: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunk(keys, IDS_PER_STATEMENT)) {
    const rows = await db.select({ key: emails.idemKey }).from(emails).where(inArray(emails.idemKey, part));
    for (const r of rows) found.add(r.key);
  }
  return found;
}

/**
 * The user is told of the plan's first missed instalment `seq`, once: in one batch its event
 * ('plan_missed', "Instalment 2 of €466.66 due 10 February 2027 is unpaid"), the notice, and the
 * plan's missed_seq, each only while missed_seq is still below `seq`. Returns whether it was told.
 */
async function tellMissed(
  db: Db,
  plan: PlanView & { ownerId: string },
  seq: number,
  missed: { dueOn: string; unpaidCents: number },
  now: number,
) {
  const notYet = and(
    eq(paymentPlans.id, plan.id),
    eq(paymentPlans.status, "active"),
    or(sql`${paymentPlans.missedSeq} IS NULL`, sql`${paymentPlans.missedSeq} < ${seq}`),
  );
  const detail = `Instalment ${seq} of ${formatMoney(missed.unpaidCents, plan.currency)} due ${formatDate(missed.dueOn)} is unpaid`;
  const [, , updated] = await db.batch([
    debtorEventWhere(
      db,
      "plan_missed",
      detail,
      and(
        eq(debtors.ownerId, plan.ownerId),
        eq(debtors.id, plan.debtorId),
        sql`EXISTS (SELECT 1 FROM ${paymentPlans} WHERE ${notYet})`,
      ),
      now,
    ),
    noticeInsert(db, { ownerId: plan.ownerId, debtorId: plan.debtorId, kind: "plan_missed", at: now }),
    db.update(paymentPlans).set({ missedSeq: seq }).where(notYet).returning({ id: paymentPlans.id }),
  ]);
  return updated.length > 0;
}
