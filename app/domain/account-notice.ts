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
  | "sending_domain_removed";

/** One account notice as the mail Worker's `sendAccountNotice` takes it. */
export interface AccountNoticeMessage {
  /** The user's own address. */
  to: string;
  kind: AccountNoticeKind;
  /** The date it is about, already written ("29 November 2026"): the trial's end, the retry's. */
  date: string;
  /** /pricing (choose a plan), /iam/subscription (update the card) or /iam/domain. */
  actionUrl: string;
  /** The sending domain it is about (its two kinds). */
  domain?: string;
}

export function accountNoticeCopy(
  kind: AccountNoticeKind,
  date: string,
  domain = "",
): { subject: string; headline: string; detail: string; action: string } {
  switch (kind) {
    case "sending_domain_failed":
      return {
        subject: `Your reminders no longer go from ${domain}`,
        headline: `${domain} failed its DNS check on ${date}, so your e-mails now go from Dunly's address with your name.`,
        detail:
          'Nothing stops: reminders, receipts and answers to your debtors keep going, from Dunly\'s address, until the domain is verified again. Check that the DNS records in Settings → Sending domain are still published at your DNS provider, then choose "Check verification".',
        action: "See the DNS records",
      };
    case "sending_domain_removed":
      return {
        subject: `Your reminders no longer go from ${domain}`,
        headline: `${domain} is no longer set up for sending (noticed on ${date}), so your e-mails now go from Dunly's address with your name.`,
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
