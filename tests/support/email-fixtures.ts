import type { StatementLine } from "../../app/domain/statement";
import type { ReminderMessage } from "../../emails/reminder-message";

/**
 * E-mail fixtures shared by the unit tests of emails/ and the integration tests: plain data that
 * imports nothing at run time, so it loads in Node and in workerd alike. (The template preview's
 * own sample values are app code: emails/reminder-sample.ts.)
 */

/** A message of the dev mailbox (`GET /dev/mailbox.json`, the dev outbox). */
export interface MailboxMessage {
  to: string;
  from: string;
  replyTo: string | null;
  /** The copies, comma-separated (a reminder's CC'd contacts, decisions/057); null: none. */
  cc?: string | null;
  subject: string;
  html: string;
  text: string;
}

/** The sentences that announce further reminders (emails/reminder-copy.ts REPEAT_NOTICE, unanchored). */
export const REPEAT = /Further reminders will follow|Reminders will continue|Reminders will be sent regularly/;

/** The template and tone pairs whose repeating copy announces more: every Aggressive template and the Standard single reminder. */
export const ANNOUNCING_REPEATS = [
  ["initial", 3],
  ["follow-up", 3],
  ["second-follow-up", 3],
  ["final-notice", 3],
  ["single", 2],
  ["single", 3],
] as const;

/** An "I've paid" link as app/links/debtor-pages.server.ts makes them: origin, /p/, key "." signature. */
export const PAID_URL =
  "https://dunly.test/p/0123456789abcdef0123456789abcdef.ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210_-ZyXw";

/** A debtor's page link as app/links/debtor-pages.server.ts makes them: origin, /d/, key "." signature. */
export const PORTAL_URL =
  "https://dunly.test/d/0123456789abcdef0123456789abcdef.QwErTyUiOpAsDfGhJkLzXcVbNm0123456789-_QwEr";

/** An opt-out link as app/links/signed-links.server.ts makes them: origin, /u/, key "." signature. */
export const UNSUBSCRIBE_URL =
  "https://dunly.test/u/0123456789abcdef0123456789abcdef.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCd";

/** One open invoice on a statement: €50.00 due March 5, 2027, without a number unless given. */
export function statementLine(over: Partial<StatementLine> = {}): StatementLine {
  return { number: null, dueOn: "2027-03-05", balanceCents: 5000, currency: "EUR", ...over };
}

/**
 * A reminder as the engine hands it to the mail Worker (`MAILER.sendReminder`), to `to`: one open
 * invoice of €50.00 due March 5, 2027 (four days before its `today`).
 */
export function reminderMessage(to: string, over: Partial<ReminderMessage> = {}): ReminderMessage {
  return {
    to,
    template: "initial",
    tone: 1,
    receiverName: "Pat Payer",
    senderName: "Sally Sender",
    senderEmail: "sally@example.com",
    senderCompany: null,
    statement: [statementLine()],
    today: "2027-03-09",
    locale: "en",
    unsubscribeUrl: UNSUBSCRIBE_URL,
    payUrl: null,
    paidUrl: PAID_URL,
    portalUrl: PORTAL_URL,
    ...over,
  };
}
