import PostalMime from "postal-mime";
import { isAutomaticMail, isDeliveryReport, MAX_REPLY_BYTES, oneLineOf, replyText } from "./inbound-mail";

/**
 * A reply as Dunly keeps it (docs/decisions/020-inbound-replies.md): who sent it, its subject and
 * date, its text (never its HTML as sent), the names and sizes of its attachments (never their
 * content), and whether a machine wrote it or it reports a failed delivery.
 */
export interface ParsedReply {
  /** The From address, lowercased; "" when none. */
  from: string;
  /** The From display name, one line; "" when none. */
  fromName: string;
  subject: string;
  /** The Date header in epoch ms; null when missing or unreadable. */
  sentAt: number | null;
  text: string;
  attachments: { name: string; size: number }[];
  /** Out-of-office, auto-responders, lists (isAutomaticMail). */
  automatic: boolean;
  /** A delivery-status notification (RFC 3464): counts as a bounce. */
  bounce: boolean;
}

function byteSize(content: ArrayBuffer | Uint8Array | string): number {
  if (typeof content === "string") return new TextEncoder().encode(content).length;
  return content.byteLength;
}

/** Parses a raw RFC 822 message with postal-mime. Throws on a message over MAX_REPLY_BYTES. */
export async function parseReply(raw: string | ArrayBuffer | Uint8Array): Promise<ParsedReply> {
  const size = typeof raw === "string" ? new TextEncoder().encode(raw).length : raw.byteLength;
  if (size > MAX_REPLY_BYTES) throw new Error("The message is larger than the size cap");
  const email = await PostalMime.parse(raw);
  const headers = email.headers.map((h) => ({ key: h.key, value: h.value }));
  const from = oneLineOf(email.from?.address ?? "", 254).toLowerCase();
  const date = email.date ? Date.parse(email.date) : Number.NaN;
  const bounce = isDeliveryReport(headers);
  return {
    from,
    fromName: oneLineOf(email.from?.name ?? "", 120),
    subject: oneLineOf(email.subject ?? "", 300),
    sentAt: Number.isFinite(date) ? date : null,
    text: replyText(email),
    attachments: email.attachments
      .filter((a) => !a.related)
      .slice(0, 50)
      .map((a) => ({ name: oneLineOf(a.filename ?? "(unnamed)", 200), size: byteSize(a.content) })),
    automatic: bounce || isAutomaticMail(headers, from),
    bounce,
  };
}
