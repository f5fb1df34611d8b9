import type { MessageBrand } from "./brand";
import { debtorMailText } from "./debtor-mail-copy";
import type { Language } from "./languages";
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
  /** The debtor's language (app/domain/debtor-mail-copy.ts debtorWriting); none: English. */
  language?: Language;
  /** The user's brand (docs/decisions/058): logo, name, accent, "Powered by Dunly". Absent: Dunly's look. */
  brand?: MessageBrand | null;
}

export function claimAnswerSubject(m: Pick<ClaimAnswerMessage, "senderName" | "language">): string {
  return debtorMailText(m.language)("claimSubject", { senderName: m.senderName });
}

/** The e-mail's paragraphs, shared by its HTML and plain text. */
export function claimAnswerText(m: Omit<ClaimAnswerMessage, "to" | "replyTo" | "portalUrl">) {
  const t = debtorMailText(m.language);
  const { senderName, claimed } = m;
  return [
    t("claimHello", { debtorName: m.debtorName }),
    m.invoices.length > 0
      ? t("claimThanksFor", { senderName, claimed, invoices: m.invoices.join(", ") })
      : t("claimThanks", { senderName, claimed }),
    t("claimNotFound", { senderName, what: m.invoices.length === 1 ? "invoice" : "amount" }),
    t("claimNext"),
  ];
}

/**
 * What the debtor said they paid, in their language: "€600.50 on 20 November 2026 (reference RF18)",
 * "your payment" without an amount. Values already written in their locale.
 */
export function claimedWords(
  language: Language,
  parts: { amount: string | null; paidOn: string | null; reference: string | null },
): string {
  const t = debtorMailText(language);
  return [
    parts.amount ?? t("claimYourPayment"),
    parts.paidOn ? t("claimOn", { date: parts.paidOn }) : null,
    parts.reference ? t("claimReference", { reference: parts.reference }) : null,
  ]
    .filter(Boolean)
    .join(" ");
}
