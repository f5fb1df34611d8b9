import type { MessageBrand } from "./brand";
/**
 * The debtor's e-mail when the user could not find the payment they said they made ("Not
 * received"): polite, naming what they said, and how to settle it. Sent once per claim (its
 * Idempotency-Key is `claim-rejected:<debtor>:<claimed at>`) by the mail Worker's `sendClaimAnswer`.
 * Pure: the message and its subject.
 */
export interface ClaimAnswerMessage {
  /** The debtor's address. */
  to: string;
  /** Who they were paying, as the reminders named them; From's display name. */
  senderName: string;
  /** The user's address: the debtor's answer goes to them. */
  replyTo: string;
  /**
   * The user's verified sending domain's address (docs/decisions/059-sending-domains.md), set as it
   * is sent (a retry reads it again); absent or null: Dunly's address.
   */
  fromAddress?: string | null;
  debtorName: string;
  /** What they said they paid, in words: "€600.50 on 20 November 2026 (reference RF18)". */
  claimed: string;
  /** The invoices chased again ("INV-7 (€600.50)"), or empty when the claim named none. */
  invoices: string[];
  /** The debtor's page: their statement and the ways to pay. */
  portalUrl: string;
  /** The user's brand (docs/decisions/058): logo, name, accent, "Powered by Dunly". Absent: Dunly's look. */
  brand?: MessageBrand | null;
}

export function claimAnswerSubject(m: Pick<ClaimAnswerMessage, "senderName">): string {
  return `About your payment to ${m.senderName}`;
}

/** The e-mail's paragraphs, shared by its HTML and plain text. */
export function claimAnswerText(m: Omit<ClaimAnswerMessage, "to" | "replyTo" | "portalUrl">) {
  const named = m.invoices.length > 0 ? ` for ${m.invoices.join(", ")}` : "";
  return [
    `Hello ${m.debtorName},`,
    `Thank you for letting ${m.senderName} know that you paid ${m.claimed}${named}.`,
    `${m.senderName} has not been able to find this payment yet, so the ${m.invoices.length === 1 ? "invoice remains" : "amount remains"} open and reminders continue.`,
    "If you have paid, please reply to this e-mail with a proof of payment (a bank statement or transfer confirmation), and it will be matched as soon as possible. If not, you can see what is open and the ways to pay on your statement.",
  ];
}
