import { type SQL, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtorEvents, debtors } from "~/db/schema";

/** The kinds of debtor event the timeline shows besides e-mails and payments (app/db/schema.ts). */
export type DebtorEventType =
  | "opted_out"
  // Text messages (decisions/068): the debtor's STOP, and their START.
  | "text_opted_out"
  | "text_opted_in"
  // A text step waits for next month's allowance (decisions/070).
  | "text_held"
  | "consent_renewed"
  | "bounced"
  | "complained"
  | "paid_claimed"
  | "paid_claim_confirmed"
  | "paid_claim_rejected"
  | "reminders_resumed"
  | "schedule_created"
  | "schedule_updated"
  | "schedule_paused"
  | "schedule_resumed"
  | "schedule_deleted"
  // A due-date schedule sent its last step.
  | "schedule_ended"
  | "imported"
  // The debtor's own answers from their page, and the user's to them.
  | "promised"
  | "promise_broken"
  | "promise_consent"
  | "disputed"
  | "dispute_resolved"
  // Payments online (decisions/018): a bank payment pending, failed; received; refunded or lost in a dispute.
  | "payment_pending"
  | "payment_failed"
  | "paid_online"
  | "payment_refunded"
  | "payment_dispute_lost"
  // E-mail replies to reminders (decisions/020): the debtor's, an automatic one, and the user's handling.
  | "replied"
  | "auto_replied"
  | "reply_handled"
  // A copied contact's address (decisions/057): it opted out of copies, or it bounced (detail: the address).
  | "contact_opted_out"
  | "contact_bounced"
  // A late-payment charge waived by the user, or owed again (decisions/065; detail: its label and amount).
  | "charge_waived"
  | "charge_restored"
  // Payment plans (decisions/066): asked, offered, changed into an offer, accepted, declined,
  // cancelled, an instalment missed, ended by a miss, paid in full.
  | "plan_requested"
  | "plan_offered"
  | "plan_accepted"
  | "plan_declined"
  | "plan_cancelled"
  | "plan_missed"
  | "plan_broken"
  | "plan_completed";

export interface DebtorEventInput {
  ownerId: string;
  debtorId: number;
  type: DebtorEventType;
  /** Short and already readable ("Weekly, Friendly Reminder"); "" when the type says it all. */
  detail?: string;
  at?: number;
}

/**
 * The insert of one timeline event, as a statement to put in the caller's `db.batch` (so the event
 * and the change it records are one transaction) or to await on its own.
 */
export function debtorEventInsert(db: Db, e: DebtorEventInput) {
  return db.insert(debtorEvents).values({
    ownerId: e.ownerId,
    debtorId: e.debtorId,
    type: e.type,
    detail: e.detail ?? "",
    createdAt: e.at ?? Date.now(),
  });
}

/**
 * The timeline event `type` with `detail` for the owner's debtor, as an INSERT … SELECT over the
 * debtors row when `where` holds: recorded exactly when the change it belongs to happens (put it
 * before the change in the batch; statements run in order).
 */
export function debtorEventWhere(db: Db, type: DebtorEventType, detail: string, where: SQL | undefined, now: number) {
  return db.insert(debtorEvents).select(
    db
      .select({
        // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
        id: sql<number>`null`.as("id"),
        ownerId: debtors.ownerId,
        debtorId: debtors.id,
        type: sql<string>`${type}`.as("type"),
        detail: sql<string>`${detail}`.as("detail"),
        createdAt: sql<number>`${now}`.as("created_at"),
      })
      .from(debtors)
      .where(where),
  );
}
