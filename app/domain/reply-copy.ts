import { oneLine } from "./header-safe";

/**
 * The copy of a debtor's reply sent to the user (docs/decisions/020-inbound-replies.md): to the
 * user's own address, From "Dunly", Reply-To the debtor's own address so the user answers from
 * their mailbox; the reply quoted as text (never its HTML).
 */
export interface ReplyCopyMessage {
  /** The user's own address. */
  to: string;
  debtorName: string;
  /** The debtor's address on file: the copy's Reply-To. */
  debtorEmail: string;
  /** The address the reply came from. */
  from: string;
  subject: string;
  /** The reply's text (at most 64 KB). */
  text: string;
  attachments: { name: string; size: number }[];
  /** The debtor's page in the app (/debtors/:id), where the reply is handled. */
  debtorUrl: string;
}

/** "Ana Ruiz replied: Re: Invoice INV-7 is overdue". */
export function replyCopySubject(m: Pick<ReplyCopyMessage, "debtorName" | "subject">): string {
  const who = oneLine(m.debtorName) || "A debtor";
  const subject = oneLine(m.subject);
  return (subject ? `${who} replied: ${subject}` : `${who} replied`).slice(0, 250);
}

/** The reply as quoted text: every line prefixed "> ". */
export function quoteText(text: string): string {
  return text
    .split("\n")
    .map((line) => (line ? `> ${line}` : ">"))
    .join("\n");
}
