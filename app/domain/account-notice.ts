/**
 * Dunly's e-mails to a user about their own plan (docs/decisions/019): the trial ends in three days,
 * the trial has ended, a renewal payment failed. Pure: the words; the mail Worker renders them
 * and app/billing/ sends them.
 */
export type AccountNoticeKind =
  | "trial_ending"
  | "trial_ended"
  | "payment_failed"
  /** The user's own sending domain stopped being verified (docs/decisions/059-sending-domains.md). */
  | "sending_domain_failed"
  /** The provider no longer has the user's sending domain. */
  | "sending_domain_removed"
  /** The accounting tool refused the connection's tokens: the user must connect again (decisions/060). */
  | "books_reconnect";

/** One account notice as the mail Worker's `sendAccountNotice` takes it. */
export interface AccountNoticeMessage {
  /** The user's own address. */
  to: string;
  kind: AccountNoticeKind;
  /** The date it is about, already written ("29 November 2026"): the trial's end, the retry's. */
  date: string;
  /** /pricing (choose a plan), /iam/subscription (update the card), /iam/domain or /iam/accounting. */
  actionUrl: string;
  /** What it is about: the sending domain (its two kinds), the accounting tool's name ("Xero"). */
  about?: string;
}

export function accountNoticeCopy(
  kind: AccountNoticeKind,
  date: string,
  about = "",
): { subject: string; headline: string; detail: string; action: string } {
  switch (kind) {
    case "books_reconnect":
      return {
        subject: `Connect ${about} to Dunly again`,
        headline: `${about} no longer accepts Dunly's connection (noticed on ${date}), so your invoices and payments there no longer reach Dunly.`,
        detail: `Nothing wrong is sent: after 24 hours without a sync, reminders of invoices from ${about} wait, so nobody is chased for an invoice paid there meanwhile. Reminders of the invoices you added in Dunly go on. Connect ${about} again in Settings → Accounting and everything resumes.`,
        action: `Connect ${about} again`,
      };
    case "sending_domain_failed":
      return {
        subject: `Your reminders no longer go from ${about}`,
        headline: `${about} failed its DNS check on ${date}, so your e-mails now go from Dunly's address with your name.`,
        detail:
          'Nothing stops: reminders, receipts and answers to your debtors keep going, from Dunly\'s address, until the domain is verified again. Check that the DNS records in Settings → Sending domain are still published at your DNS provider, then choose "Check verification".',
        action: "See the DNS records",
      };
    case "sending_domain_removed":
      return {
        subject: `Your reminders no longer go from ${about}`,
        headline: `${about} is no longer set up for sending (noticed on ${date}), so your e-mails now go from Dunly's address with your name.`,
        detail:
          "Nothing stops: reminders, receipts and answers to your debtors keep going, from Dunly's address. To send from your domain again, add it once more in Settings → Sending domain and publish the DNS records it shows.",
        action: "Open Sending domain",
      };
    case "trial_ending":
      return {
        subject: "Your Dunly trial ends in 3 days",
        headline: `Your free trial of the Medium plan ends on ${date}.`,
        detail:
          "Choose a plan before then to keep your reminders going. Without one, reminders hold when the trial ends: nothing is deleted, and they resume when you choose a plan.",
        action: "Choose a plan",
      };
    case "trial_ended":
      return {
        subject: "Your Dunly trial has ended: reminders are on hold",
        headline: `Your free trial ended on ${date}, so your reminders are on hold.`,
        detail:
          "Nothing was deleted: your debtors, invoices and schedules are as you left them. Choose a plan and your reminders resume.",
        action: "Choose a plan",
      };
    case "payment_failed":
      return {
        subject: "Your Dunly payment failed",
        headline: "The payment for your Dunly plan failed.",
        detail: `Your plan stays active while the card is tried again${date ? ` (next attempt ${date})` : ""}. Update your card in Settings → Subscription, "Manage billing". If every attempt fails the subscription ends and reminders hold until you choose a plan again.`,
        action: "Update your card",
      };
  }
}
