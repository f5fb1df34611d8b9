/**
 * What the user is told about their debtors: one
 * e-mail to the user's own address for each debtor action and each delivery problem. Pure: the
 * kinds, which Settings switch covers each, and the words of each notice (the mail Worker renders
 * them, app/activity/notices.server.ts writes and sends them).
 */

/** A notice's kind: the debtor_events type it tells about. */
export type NoticeKind =
  | "paid_claimed"
  | "promised"
  | "disputed"
  | "opted_out"
  | "bounced"
  | "complained"
  | "schedule_ended"
  // A debtor's payment online (decisions/018): received, refunded, or lost in a dispute.
  | "paid_online"
  | "payment_refunded"
  | "payment_dispute_lost"
  // Payment plans (decisions/066): the debtor asked for one, accepted or declined the user's offer,
  // missed an instalment; a plan ended by itself after the grace days.
  | "plan_requested"
  | "plan_accepted"
  | "plan_declined"
  | "plan_missed"
  | "plan_broken"
  // The debtor texted STOP (or another opt-out keyword): no more texts to that number (decisions/068).
  | "text_opted_out"
  // A text step waits: the plan's monthly text messages are used up (decisions/070).
  | "text_held";

/** The debtor's own answers (Settings switch notify_debtor_actions); Reply-To is the debtor. */
export const DEBTOR_ACTION_KINDS = [
  "paid_claimed",
  "promised",
  "disputed",
  "opted_out",
  // A payment online is the debtor's act too (decisions/018); its reversal is told under the same switch.
  "paid_online",
  "payment_refunded",
  "payment_dispute_lost",
  "plan_requested",
  "plan_accepted",
  "plan_declined",
  "plan_missed",
  "plan_broken",
  "text_opted_out",
] as const;
/** What the provider reported about a reminder (switch notify_delivery_problems). */
export const DELIVERY_PROBLEM_KINDS = ["bounced", "complained"] as const;
/** A due-date schedule sent its last step and ended (switch notify_schedule_ends). */
export const SCHEDULE_KINDS = ["schedule_ended"] as const;

export function isDebtorAction(kind: NoticeKind): boolean {
  return (DEBTOR_ACTION_KINDS as readonly string[]).includes(kind);
}

/** One notice as the mail Worker's `sendNotice` takes it. */
export interface NoticeMessage {
  /** The user's own address: a notice never goes to a debtor. */
  to: string;
  kind: NoticeKind;
  debtorName: string;
  /** The debtor's address: Reply-To of a debtor action's notice. */
  debtorEmail: string;
  /** The event's detail ("Promised to pay by 30 December 2026", "INV-7: …", the bounce message), or "". */
  detail: string;
  /** The debtor's page in the app (/debtors/:id). */
  debtorUrl: string;
  /** Settings, where the switches are. */
  settingsUrl: string;
}

/** The subject and the one sentence that says what happened. */
export function noticeCopy(kind: NoticeKind, debtorName: string): { subject: string; headline: string } {
  switch (kind) {
    case "paid_claimed":
      return {
        subject: `${debtorName} says they have paid`,
        headline: `${debtorName} says they have paid. Their reminders are paused until you confirm the payment or resume them.`,
      };
    case "promised":
      return {
        subject: `${debtorName} promised to pay`,
        headline: `${debtorName} promised to pay. Their reminders wait until the promised date has passed.`,
      };
    case "disputed":
      return {
        subject: `${debtorName} disputed an invoice`,
        headline: `${debtorName} disputed an invoice. Reminders leave it out until you resolve the dispute.`,
      };
    case "opted_out":
      return {
        subject: `${debtorName} opted out of your reminders`,
        headline: `${debtorName} opted out: they get no more reminders from you unless you record their renewed consent.`,
      };
    case "bounced":
      return {
        subject: `A reminder to ${debtorName} bounced`,
        headline: `A reminder to ${debtorName} bounced: their address does not take mail. Their reminders are paused until the address is changed.`,
      };
    case "schedule_ended":
      return {
        subject: `Reminders to ${debtorName} have ended`,
        headline: `The due-date schedule for ${debtorName} sent its last step and has ended. No more reminders go out unless you start a new schedule; what is still owed stays on your dashboard.`,
      };
    case "paid_online":
      return {
        subject: `${debtorName} paid online`,
        headline: `${debtorName} paid online through your Stripe account. The payment is recorded against their invoices; paid in full, their reminders have stopped.`,
      };
    case "payment_refunded":
      return {
        subject: `A payment by ${debtorName} was refunded`,
        headline: `A payment online by ${debtorName} was refunded: the amount is owed again. Reminders do not restart by themselves; resume them from the debtor if you want to.`,
      };
    case "payment_dispute_lost":
      return {
        subject: `${debtorName} won a dispute of their payment`,
        headline: `A payment online by ${debtorName} was disputed and the dispute was lost: the amount is owed again. Reminders do not restart by themselves.`,
      };
    case "plan_requested":
      return {
        subject: `${debtorName} asked for a payment plan`,
        headline: `${debtorName} asked to pay in instalments. Their reminders are paused until you accept, change or decline the plan on their page.`,
      };
    case "plan_accepted":
      return {
        subject: `${debtorName} accepted your payment plan`,
        headline: `${debtorName} accepted the payment plan you offered. Its invoices leave the regular reminders; each instalment gets its own reminder.`,
      };
    case "plan_declined":
      return {
        subject: `${debtorName} declined your payment plan`,
        headline: `${debtorName} declined the payment plan you offered. Their invoices are chased as before.`,
      };
    case "plan_missed":
      return {
        subject: `${debtorName} missed an instalment`,
        headline: `${debtorName} has not paid an instalment of their payment plan by its date. After the grace days you chose, the plan can end and the full amount is chased again.`,
      };
    case "plan_broken":
      return {
        subject: `The payment plan of ${debtorName} has ended`,
        headline: `An instalment of ${debtorName}'s payment plan stayed unpaid past its grace days, so the plan ended as you chose: the full amount, with its interest, is chased again.`,
      };
    case "text_opted_out":
      return {
        subject: `${debtorName} asked for no more text messages`,
        headline: `${debtorName} replied STOP to a text message, so their number gets no more texts from you. E-mail reminders go on as before; if they text START, texts may resume.`,
      };
    case "text_held":
      return {
        subject: `A text message to ${debtorName} waits: this month's texts are used up`,
        headline: `A text message step to ${debtorName} is waiting: your plan's text messages for this month are used up. It goes when the allowance renews, or choose a plan with more texts; e-mail steps go on as before.`,
      };
    case "complained":
      return {
        subject: `${debtorName} marked your reminder as spam`,
        headline: `${debtorName} marked your reminder as spam, so their address is opted out of your reminders.`,
      };
  }
}

/** One line of the daily digest: an event of the last 24 hours. */
export interface DigestItem {
  kind: NoticeKind;
  debtorName: string;
  detail: string;
  debtorUrl: string;
}

/** The daily digest as the mail Worker's `sendDigest` takes it. */
export interface DigestMessage {
  /** The user's own address. */
  to: string;
  /** The UTC day it covers the 24 hours before ("2026-11-26"). */
  day: string;
  /** The newest first, at most DIGEST_MAX_ITEMS; `total` counts them all. */
  items: DigestItem[];
  total: number;
  settingsUrl: string;
}

/** The most events one digest lists; the rest are counted ("and 12 more"). */
export const DIGEST_MAX_ITEMS = 50;

/** The digest's subject: how many events. */
export function digestSubject(total: number): string {
  return `Dunly: ${total} ${total === 1 ? "update" : "updates"} about your debtors today`;
}
