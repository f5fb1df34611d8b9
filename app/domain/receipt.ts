import type { MessageBrand } from "./brand";
import { debtorMailText } from "./debtor-mail-copy";
import type { Language } from "./languages";
/**
 * The debtor's receipt for a payment online (decisions/018): sent once per
 * payment (the Idempotency-Key is `receipt:<provider payment id>`) by the mail Worker's
 * `sendReceipt`. Pure: the message and its subject.
 */
export interface ReceiptMessage {
  /** The debtor's address. */
  to: string;
  /** Who was paid, as the reminders named them; From's display name. */
  senderName: string;
  /** The user's address: replies go to them. */
  replyTo: string;
  /**
   * The user's verified sending domain's address (docs/decisions/059-sending-domains.md), set as it
   * is sent (a retry reads it again); absent or null: Dunly's address.
   */
  fromAddress?: string | null;
  debtorName: string;
  /** "€42.00". */
  amount: string;
  /** "26 November 2026". */
  paidOn: string;
  /** The provider's payment id, for the debtor's records. */
  reference: string;
  /** The debtor's page (their statement). */
  portalUrl: string;
  /** The debtor's language (app/domain/debtor-mail-copy.ts debtorWriting); none: English. */
  language?: Language;
  /** The user's brand (docs/decisions/058): logo, name, accent, "Powered by Dunly". Absent: Dunly's look. */
  brand?: MessageBrand | null;
}

export function receiptSubject(m: Pick<ReceiptMessage, "senderName" | "amount" | "language">): string {
  return debtorMailText(m.language)("receiptSubject", { amount: m.amount, senderName: m.senderName });
}
