import { oneLine } from "../app/domain/header-safe";
import type { TemplateId } from "../app/domain/presets";
import type { StatementTiming } from "../app/domain/statement";
import { type Tone, toTone } from "../app/domain/strategies";

/**
 * The wording of every reminder: five templates × three tones.
 *
 * Rules for anyone editing this file (reminder.test.ts enforces the checkable ones):
 * - Firm is fine; threats, invented fees or interest, false statements and insults are not.
 *   The firmest tone only demands payment and says further reminders will follow.
 * - A sentence that announces further reminders must match REPEAT_NOTICE, so a one-time reminder
 *   (repeats: false) leaves it out.
 * - Plain text with `{placeholder}`s only; the component renders it as escaped React text.
 * - The escalating sequence must read as escalating: initial → follow up → second → final.
 * - Write "due on {dueDate}" as a phrase that works whether that date is past or future.
 * - A reminder is a statement: one open invoice fills {invoiceNumber} (when it
 *   has one) and {dueDate} from it; several fill {invoiceCount} ("3 invoices") and leave both out,
 *   so a subject and the first paragraph offer an {invoiceCount} alternative before the last one.
 *   {amount} is the total ("$1,234.00", "$100.00 + €50.00" over two currencies).
 * - The copy follows the statement's timing on the debtor's today (*   app/domain/statement.ts statementTiming). Before the due date and on it, NOT_YET_DUE_COPY: a
 *   plain "is due on" note that never says overdue, past due, late, final or "as soon as possible"
 *   (the escalating templates then read as their tone's initial note: nothing is late yet). Once
 *   overdue, REMINDER_COPY, whose first paragraph says how late: "{daysOverdue} overdue" (the most
 *   any listed invoice is), its alternatives without it after.
 */

/** Values the copy can reference; blank or missing ones make a line use its next alternative. */
export interface CopyValues {
  /** The debtor (a person's or a company's name); the statement is theirs. */
  receiverName?: string | null;
  /** The debtor's primary contact person (decisions/057): the greeting names them when known. */
  contactName?: string | null;
  senderName?: string | null;
  /** Formatted, e.g. "$1,234.50", or "$100.00 + €50.00" across currencies; always present. */
  amount: string;
  /** Formatted, e.g. "March 5, 2027": the one invoice's due date; none for several. */
  dueDate?: string | null;
  /** The one invoice's number; none for several, or when it has none. */
  invoiceNumber?: string | null;
  /** "3 invoices" when the reminder lists several; none for one. */
  invoiceCount?: string | null;
  /** "1 day", "30 days": how late the most overdue invoice is; none unless one is overdue. */
  daysOverdue?: string | null;
}

export type Placeholder = keyof CopyValues;
export const PLACEHOLDERS: readonly Placeholder[] = [
  "receiverName",
  "contactName",
  "senderName",
  "amount",
  "dueDate",
  "invoiceNumber",
  "invoiceCount",
  "daysOverdue",
];
/** The only placeholder a last alternative may use: every reminder has an amount. */
export const REQUIRED_PLACEHOLDERS: readonly Placeholder[] = ["amount"];

/**
 * One line of copy. An array lists alternatives, best first: the first whose placeholders all
 * have values is used, so the last must only use REQUIRED_PLACEHOLDERS.
 */
export type Line = string | readonly [string, ...string[]];

export interface TemplateCopy {
  subject: Line;
  heading: Line;
  paragraphs: readonly Line[];
}

/** Greeting and sign-off depend on the tone only. */
export interface ToneFrame {
  greeting: Line;
  signOff: string;
}

export const TONE_FRAME: Record<Tone, ToneFrame> = {
  1: { greeting: ["Hi {contactName},", "Hi {receiverName},", "Hi,"], signOff: "Thank you and kind regards," },
  2: { greeting: ["Hello {contactName},", "Hello {receiverName},", "Hello,"], signOff: "Kind regards," },
  3: { greeting: ["{contactName},", "{receiverName},", "Hello,"], signOff: "Regards," },
};

export const REMINDER_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
  initial: {
    1: {
      subject: [
        "Friendly reminder: invoice {invoiceNumber} for {amount}",
        "Friendly reminder: {invoiceCount}, {amount}",
        "Friendly reminder: payment of {amount}",
      ],
      heading: "A friendly reminder",
      paragraphs: [
        [
          "This is a friendly reminder about the payment of {amount}, due on {dueDate}, which is now {daysOverdue} overdue.",
          "This is a friendly reminder about the payment of {amount} for the {invoiceCount} listed below, the oldest now {daysOverdue} overdue.",
          "This is a friendly reminder about the payment of {amount}, due on {dueDate}.",
          "This is a friendly reminder about the payment of {amount} for the {invoiceCount} listed below.",
          "This is a friendly reminder about an open payment of {amount}.",
        ],
        "If you have already taken care of it, thank you, and please disregard this message.",
        "If you have any questions, just reply to this e-mail.",
      ],
    },
    2: {
      subject: [
        "Payment reminder: invoice {invoiceNumber} for {amount}",
        "Payment reminder: {invoiceCount}, {amount}",
        "Payment reminder: {amount}",
      ],
      heading: "Payment reminder",
      paragraphs: [
        [
          "This is a reminder that the payment of {amount}, due on {dueDate}, is {daysOverdue} overdue and has not been received yet.",
          "This is a reminder that the payment of {amount} for the {invoiceCount} listed below has not been received yet; the oldest is {daysOverdue} overdue.",
          "This is a reminder that the payment of {amount}, due on {dueDate}, has not been received yet.",
          "This is a reminder that the payment of {amount} for the {invoiceCount} listed below has not been received yet.",
          "This is a reminder that a payment of {amount} has not been received yet.",
        ],
        "Please arrange the payment at your earliest convenience. If you have already paid, please disregard this message.",
        "If you have any questions, reply to this e-mail.",
      ],
    },
    3: {
      subject: [
        "Payment due: invoice {invoiceNumber} for {amount}",
        "Payment due: {invoiceCount}, {amount}",
        "Payment due: {amount}",
      ],
      heading: "Payment due",
      paragraphs: [
        [
          "The payment of {amount}, due on {dueDate}, is {daysOverdue} overdue and has not been received.",
          "The payment of {amount} for the {invoiceCount} listed below has not been received; the oldest is {daysOverdue} overdue.",
          "The payment of {amount}, due on {dueDate}, has not been received.",
          "The payment of {amount} for the {invoiceCount} listed below has not been received.",
          "A payment of {amount} is outstanding and has not been received.",
        ],
        "Please pay the full amount without delay.",
        "Further reminders will follow until the payment is received.",
      ],
    },
  },

  "follow-up": {
    1: {
      subject: [
        "Following up: invoice {invoiceNumber} for {amount}",
        "Following up: {invoiceCount}, {amount}",
        "Following up on a payment of {amount}",
      ],
      heading: "Just following up",
      paragraphs: [
        [
          "Just following up on the payment of {amount}, due on {dueDate}, which is still open and now {daysOverdue} overdue.",
          "Just following up on the payment of {amount} for the {invoiceCount} listed below, which is still open; the oldest is now {daysOverdue} overdue.",
          "Just following up on the payment of {amount}, due on {dueDate}, which is still open.",
          "Just following up on the payment of {amount} for the {invoiceCount} listed below, which is still open.",
          "Just following up on the payment of {amount}, which is still open.",
        ],
        "It may simply have slipped through. Could you take care of it when you have a moment? If it is already on its way, thank you, and please disregard this message.",
        "If anything is unclear, just reply to this e-mail.",
      ],
    },
    2: {
      subject: [
        "Follow-up: invoice {invoiceNumber} ({amount}) is still outstanding",
        "Follow-up: {invoiceCount} ({amount}) are still outstanding",
        "Follow-up: {amount} is still outstanding",
      ],
      heading: "Payment still outstanding",
      paragraphs: [
        [
          "This is a follow-up: the payment of {amount}, due on {dueDate}, is still outstanding, now {daysOverdue} overdue.",
          "This is a follow-up: the payment of {amount} for the {invoiceCount} listed below is still outstanding; the oldest is now {daysOverdue} overdue.",
          "This is a follow-up: the payment of {amount}, due on {dueDate}, is still outstanding.",
          "This is a follow-up: the payment of {amount} for the {invoiceCount} listed below is still outstanding.",
          "This is a follow-up: the payment of {amount} is still outstanding.",
        ],
        "Please pay the full amount as soon as possible. If you have already paid, please disregard this message.",
        "If something prevents you from paying, reply to this e-mail so a solution can be found.",
      ],
    },
    3: {
      subject: [
        "Outstanding: invoice {invoiceNumber} for {amount}, pay now",
        "Outstanding: {invoiceCount}, {amount}, pay now",
        "Outstanding: {amount}, pay now",
      ],
      heading: "Payment still outstanding",
      paragraphs: [
        [
          "The payment of {amount}, due on {dueDate}, is {daysOverdue} overdue and still outstanding despite an earlier reminder.",
          "The payment of {amount} for the {invoiceCount} listed below is still outstanding despite an earlier reminder; the oldest is {daysOverdue} overdue.",
          "The payment of {amount}, due on {dueDate}, is still outstanding despite an earlier reminder.",
          "The payment of {amount} for the {invoiceCount} listed below is still outstanding despite an earlier reminder.",
          "The payment of {amount} is still outstanding despite an earlier reminder.",
        ],
        "Pay the full amount now.",
        "Further reminders will follow until the payment is received.",
      ],
    },
  },

  "second-follow-up": {
    1: {
      subject: [
        "Another reminder: invoice {invoiceNumber} for {amount}",
        "Another reminder: {invoiceCount}, {amount}",
        "Another reminder: {amount} is still open",
      ],
      heading: "Another reminder",
      paragraphs: [
        [
          "This is another reminder about the payment of {amount}, due on {dueDate}, which is still open and now {daysOverdue} overdue.",
          "This is another reminder about the payment of {amount} for the {invoiceCount} listed below, which is still open; the oldest is now {daysOverdue} overdue.",
          "This is another reminder about the payment of {amount}, due on {dueDate}, which is still open.",
          "This is another reminder about the payment of {amount} for the {invoiceCount} listed below, which is still open.",
          "This is another reminder about the payment of {amount}, which is still open.",
        ],
        "Please arrange the payment soon. If there is a problem with it, just reply to this e-mail so it can be sorted out together.",
        "If you have already paid, thank you, and please disregard this message.",
      ],
    },
    2: {
      subject: [
        "Action needed: invoice {invoiceNumber} ({amount}) is still unpaid",
        "Action needed: {invoiceCount} ({amount}) are still unpaid",
        "Action needed: {amount} is still unpaid",
      ],
      heading: "Action needed",
      paragraphs: [
        [
          "Despite previous reminders, the payment of {amount}, due on {dueDate}, is still outstanding, now {daysOverdue} overdue.",
          "Despite previous reminders, the payment of {amount} for the {invoiceCount} listed below is still outstanding; the oldest is now {daysOverdue} overdue.",
          "Despite previous reminders, the payment of {amount}, due on {dueDate}, is still outstanding.",
          "Despite previous reminders, the payment of {amount} for the {invoiceCount} listed below is still outstanding.",
          "Despite previous reminders, the payment of {amount} is still outstanding.",
        ],
        "Please pay the full amount now, or reply to this e-mail if there is a problem with the payment.",
        "If you have already paid, please disregard this message.",
      ],
    },
    3: {
      subject: [
        "Payment required: invoice {invoiceNumber} for {amount} is unpaid",
        "Payment required: {invoiceCount}, {amount} unpaid",
        "Payment required: {amount} is unpaid",
      ],
      heading: "Payment required",
      paragraphs: [
        [
          "Despite previous reminders, {amount}, due on {dueDate}, remains unpaid, {daysOverdue} overdue.",
          "Despite previous reminders, {amount} for the {invoiceCount} listed below remains unpaid; the oldest is {daysOverdue} overdue.",
          "Despite previous reminders, {amount}, due on {dueDate}, remains unpaid.",
          "Despite previous reminders, {amount} for the {invoiceCount} listed below remains unpaid.",
          "Despite previous reminders, {amount} remains unpaid.",
        ],
        "Pay the full amount today.",
        "Reminders will continue until the payment is received.",
      ],
    },
  },

  // The final notice repeats until the schedule is cancelled, so it never says "last e-mail".
  "final-notice": {
    1: {
      subject: [
        "Final notice: invoice {invoiceNumber} for {amount}",
        "Final notice: {invoiceCount}, {amount}",
        "Final notice: payment of {amount}",
      ],
      heading: "Final notice",
      paragraphs: [
        [
          "This is a final notice about the payment of {amount}, due on {dueDate}, which is still open and now {daysOverdue} overdue.",
          "This is a final notice about the payment of {amount} for the {invoiceCount} listed below, which is still open; the oldest is now {daysOverdue} overdue.",
          "This is a final notice about the payment of {amount}, due on {dueDate}, which is still open.",
          "This is a final notice about the payment of {amount} for the {invoiceCount} listed below, which is still open.",
          "This is a final notice about the payment of {amount}, which is still open.",
        ],
        "Please settle the full amount as soon as you can. If something is preventing you from paying, reply to this e-mail so it can be discussed.",
        "If you have already paid, thank you, and please disregard this notice.",
      ],
    },
    2: {
      subject: [
        "Final notice: invoice {invoiceNumber} ({amount}) is still unpaid",
        "Final notice: {invoiceCount} ({amount}) are still unpaid",
        "Final notice: {amount} is still unpaid",
      ],
      heading: "Final notice",
      paragraphs: [
        [
          "This is a final notice: the payment of {amount}, due on {dueDate}, is {daysOverdue} overdue and still outstanding after several reminders.",
          "This is a final notice: the payment of {amount} for the {invoiceCount} listed below is still outstanding after several reminders; the oldest is {daysOverdue} overdue.",
          "This is a final notice: the payment of {amount}, due on {dueDate}, is still outstanding after several reminders.",
          "This is a final notice: the payment of {amount} for the {invoiceCount} listed below is still outstanding after several reminders.",
          "This is a final notice: the payment of {amount} is still outstanding after several reminders.",
        ],
        "Please pay the full amount now. If you cannot pay in full, reply to this e-mail today to discuss it.",
        "If you have already paid, please disregard this notice.",
      ],
    },
    3: {
      subject: [
        "Final notice: pay invoice {invoiceNumber} ({amount}) today",
        "Final notice: pay {invoiceCount} ({amount}) today",
        "Final notice: pay {amount} today",
      ],
      heading: "Final notice: payment required today",
      paragraphs: [
        [
          "The payment of {amount}, due on {dueDate}, is {daysOverdue} overdue and still unpaid after several reminders.",
          "The payment of {amount} for the {invoiceCount} listed below is still unpaid after several reminders; the oldest is {daysOverdue} overdue.",
          "The payment of {amount}, due on {dueDate}, is still unpaid after several reminders.",
          "The payment of {amount} for the {invoiceCount} listed below is still unpaid after several reminders.",
          "The payment of {amount} is still unpaid after several reminders.",
        ],
        "This is a final request. Pay the full amount today.",
        "Reminders will continue until the payment is received. If you have already paid, disregard this notice.",
      ],
    },
  },

  // Sent again and again at a daily or weekly frequency, so it says reminders will repeat; sent once
  // ('now'), resolveCopy leaves those sentences out.
  single: {
    1: {
      subject: [
        "Reminder: invoice {invoiceNumber} for {amount}",
        "Reminder: {invoiceCount}, open balance of {amount}",
        "Reminder: open balance of {amount}",
      ],
      heading: "A friendly reminder",
      paragraphs: [
        [
          "This is a friendly reminder that a balance of {amount}, due on {dueDate}, is still open and now {daysOverdue} overdue.",
          "This is a friendly reminder that a balance of {amount} for the {invoiceCount} listed below is still open; the oldest is now {daysOverdue} overdue.",
          "This is a friendly reminder that a balance of {amount}, due on {dueDate}, is still open.",
          "This is a friendly reminder that a balance of {amount} for the {invoiceCount} listed below is still open.",
          "This is a friendly reminder that a balance of {amount} is still open.",
        ],
        "Whenever you have a moment, please arrange the payment. If you have already paid, thank you, and please disregard this message.",
        "If you have any questions, just reply to this e-mail.",
      ],
    },
    2: {
      subject: [
        "Reminder: invoice {invoiceNumber} ({amount}) is outstanding",
        "Reminder: {invoiceCount} ({amount}) are outstanding",
        "Reminder: outstanding balance of {amount}",
      ],
      heading: "Outstanding balance",
      paragraphs: [
        [
          "This is a reminder that a balance of {amount}, due on {dueDate}, is still outstanding, now {daysOverdue} overdue.",
          "This is a reminder that a balance of {amount} for the {invoiceCount} listed below is still outstanding; the oldest is now {daysOverdue} overdue.",
          "This is a reminder that a balance of {amount}, due on {dueDate}, is still outstanding.",
          "This is a reminder that a balance of {amount} for the {invoiceCount} listed below is still outstanding.",
          "This is a reminder that a balance of {amount} is still outstanding.",
        ],
        "Please pay the full amount as soon as possible. If you have already paid, please disregard this message.",
        "Reminders will be sent regularly until the balance is paid.",
      ],
    },
    3: {
      subject: [
        "Payment required: invoice {invoiceNumber} for {amount}",
        "Payment required: {invoiceCount}, balance of {amount}",
        "Payment required: balance of {amount}",
      ],
      heading: "Outstanding balance: payment required",
      paragraphs: [
        [
          "A balance of {amount}, due on {dueDate}, is {daysOverdue} overdue and still unpaid.",
          "A balance of {amount} for the {invoiceCount} listed below is still unpaid; the oldest is {daysOverdue} overdue.",
          "A balance of {amount}, due on {dueDate}, is still unpaid.",
          "A balance of {amount} for the {invoiceCount} listed below is still unpaid.",
          "A balance of {amount} is still unpaid.",
        ],
        "Pay the full amount now.",
        "Further reminders will follow until the balance is paid.",
      ],
    },
  },
};

/**
 * The wording before the due date (and on it) of the initial reminder and the escalating ones,
 * per tone: a note that a payment is due, nothing late about it, so no escalation either (a
 * follow-up or a final notice before the due date would say what is not true).
 */
const DUE_SOON_COPY: Record<Tone, TemplateCopy> = {
  1: {
    subject: [
      "Upcoming payment: invoice {invoiceNumber} for {amount}",
      "Upcoming payment: {amount}, due on {dueDate}",
      "Upcoming payment: {invoiceCount}, {amount}",
      "Upcoming payment of {amount}",
    ],
    heading: "A friendly note",
    paragraphs: [
      [
        "A friendly note that {amount} is due on {dueDate}.",
        "A friendly note that {amount} for the {invoiceCount} listed below is due on the dates shown.",
        "A friendly note that a payment of {amount} is coming due.",
      ],
      "If you have already taken care of it, thank you, and please disregard this message.",
      "If you have any questions, just reply to this e-mail.",
    ],
  },
  2: {
    subject: [
      "Upcoming due date: invoice {invoiceNumber} for {amount}",
      "Upcoming due date: {amount} on {dueDate}",
      "Upcoming due dates: {invoiceCount}, {amount}",
      "Upcoming due date: {amount}",
    ],
    heading: "Upcoming due date",
    paragraphs: [
      [
        "This is a reminder that the payment of {amount} is due on {dueDate}.",
        "This is a reminder that the payment of {amount} for the {invoiceCount} listed below is due on the dates shown.",
        "This is a reminder that a payment of {amount} is coming due.",
      ],
      "Please arrange the payment by the due date. If you have already paid, please disregard this message.",
      "If you have any questions, reply to this e-mail.",
    ],
  },
  3: {
    subject: [
      "Payment due on {dueDate}: invoice {invoiceNumber}, {amount}",
      "Payment due on {dueDate}: {amount}",
      "Payments due: {invoiceCount}, {amount}",
      "Payment coming due: {amount}",
    ],
    heading: "Payment due",
    paragraphs: [
      [
        "The payment of {amount} is due on {dueDate}.",
        "The payment of {amount} for the {invoiceCount} listed below is due on the dates shown.",
        "A payment of {amount} is coming due.",
      ],
      "Pay the full amount by the due date.",
      "Further reminders will follow until the payment is received.",
    ],
  },
};

/**
 * Every template's wording before its due date (and on it): the initial and escalating templates
 * their tone's DUE_SOON_COPY, the single reminder a balance note of its own (it repeats).
 */
export const NOT_YET_DUE_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
  initial: DUE_SOON_COPY,
  "follow-up": DUE_SOON_COPY,
  "second-follow-up": DUE_SOON_COPY,
  "final-notice": DUE_SOON_COPY,
  single: {
    1: {
      subject: [
        "Reminder: invoice {invoiceNumber} for {amount}, due on {dueDate}",
        "Reminder: {amount}, due on {dueDate}",
        "Reminder: {invoiceCount}, balance of {amount} coming due",
        "Reminder: balance of {amount} coming due",
      ],
      heading: "A friendly reminder",
      paragraphs: [
        [
          "This is a friendly reminder that a balance of {amount} is due on {dueDate}.",
          "This is a friendly reminder that a balance of {amount} for the {invoiceCount} listed below is due on the dates shown.",
          "This is a friendly reminder that a balance of {amount} is coming due.",
        ],
        "Whenever you have a moment, please arrange the payment by the due date. If you have already paid, thank you, and please disregard this message.",
        "If you have any questions, just reply to this e-mail.",
      ],
    },
    2: {
      subject: [
        "Reminder: invoice {invoiceNumber} ({amount}) is due on {dueDate}",
        "Reminder: {amount} is due on {dueDate}",
        "Reminder: {invoiceCount} ({amount}) coming due",
        "Reminder: balance of {amount} coming due",
      ],
      heading: "Balance coming due",
      paragraphs: [
        [
          "This is a reminder that a balance of {amount} is due on {dueDate}.",
          "This is a reminder that a balance of {amount} for the {invoiceCount} listed below is due on the dates shown.",
          "This is a reminder that a balance of {amount} is coming due.",
        ],
        "Please arrange the payment by the due date. If you have already paid, please disregard this message.",
        "Reminders will be sent regularly until the balance is paid.",
      ],
    },
    3: {
      subject: [
        "Payment required by {dueDate}: invoice {invoiceNumber}, {amount}",
        "Payment required by {dueDate}: {amount}",
        "Payment required: {invoiceCount}, balance of {amount} coming due",
        "Payment required: balance of {amount} coming due",
      ],
      heading: "Balance coming due: payment required",
      paragraphs: [
        [
          "A balance of {amount} is due on {dueDate}.",
          "A balance of {amount} for the {invoiceCount} listed below is due on the dates shown.",
          "A balance of {amount} is coming due.",
        ],
        "Pay the full amount by the due date.",
        "Further reminders will follow until the balance is paid.",
      ],
    },
  },
};

/** Footer of every reminder: who sent it and how to reach them. */
export const FOOTER_COPY: Line = [
  "Sent by {senderName}. To reach them, reply to this e-mail.",
  "To reach the sender, reply to this e-mail.",
];

/**
 * The opt-out line under the footer of every reminder: the question, then a
 * link to the signed opt-out page with `link` as its text.
 */
export const OPT_OUT_COPY = { question: "Don't want these reminders?", link: "Stop them here" } as const;

/**
 * Paying from the reminder: the 'Pay now' button to the sender's payment page (only when
 * they set one), and the line with the "I've paid" link (every reminder), which tells the sender
 * and pauses the reminders. A one-time reminder's line (`paidQuestionOnce`) speaks of no reminders to
 * pause: none follows. The same words in every tone.
 */
export const PAY_COPY = {
  button: "Pay now",
  paidQuestion: [
    "Already paid? Let {senderName} know and the reminders pause:",
    "Already paid? Let the sender know and the reminders pause:",
  ] as Line,
  paidQuestionOnce: ["Already paid? Let {senderName} know:", "Already paid? Let the sender know:"] as Line,
  paidLink: "I've paid",
} as const;

const PLACEHOLDER_RE = /\{(\w+)\}/g;

/** The placeholder names a text refers to, e.g. ["amount", "dueDate"]. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER_RE)].map((m) => m[1] ?? "");
}

function present(value: string | null | undefined): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/**
 * Picks the first alternative whose placeholders all have values and fills it in.
 * `clean` maps each value before insertion (the subject uses it to keep one line).
 */
function fillLine(line: Line, values: CopyValues, clean: (value: string) => string = (v) => v): string {
  const alternatives: readonly string[] = typeof line === "string" ? [line] : line;
  const lookup = values as unknown as Record<string, string | null | undefined>;
  const usable = alternatives.find((text) => placeholdersOf(text).every((name) => present(lookup[name])));
  // Fall back to the last alternative; its required placeholders are always set.
  const text = usable ?? alternatives.at(-1) ?? "";
  return text.replace(PLACEHOLDER_RE, (_, name: string) => clean((lookup[name] ?? "").trim()));
}

export interface ResolvedCopy {
  subject: string;
  greeting: string;
  heading: string;
  paragraphs: string[];
  signOff: string;
  footer: string;
  /** The sentence before the "I've paid" link. */
  paidQuestion: string;
}

/**
 * The sentences that announce more reminders ("Further reminders will follow…", "Reminders will
 * continue…", "Reminders will be sent regularly…"): a one-time reminder leaves them out, since
 * none follows.
 */
export const REPEAT_NOTICE =
  /(?:Further reminders will follow|Reminders will continue|Reminders will be sent regularly)[^.]*\.\s*/g;

/** A paragraph without its repeat notice; null when nothing else was in it. */
function withoutRepeatNotice(paragraph: string): string | null {
  const rest = paragraph.replace(REPEAT_NOTICE, "").trim();
  return rest === "" ? null : rest;
}

/**
 * All the wording of one reminder, filled in. `repeats: false` (a one-time reminder) drops the
 * sentences that announce further reminders and says nothing of reminders pausing. `timing` (the
 * statement's, app/domain/statement.ts statementTiming) picks the wording: before the due date
 * and on it, NOT_YET_DUE_COPY; overdue or unknown, REMINDER_COPY. Throws on an unknown template id.
 */
/**
 * A debtor's first reminder may be a firmer one (an invoice that joins a cadence late gets the step
 * its age calls for, decisions/048): it must not speak of reminders the debtor never got. These
 * rewrite the firmer templates' mentions of earlier contact, keeping their tone.
 */
const FIRST_CONTACT: readonly (readonly [RegExp, string | ((match: string, first: string) => string)])[] = [
  [/^Following up: /, "Reminder: "],
  [/^Following up on a payment of /, "Reminder: payment of "],
  [/^Just following up$/, "Payment reminder"],
  [/^Just following up on the payment/, "This is a reminder about the payment"],
  [/^Follow-up: /, "Reminder: "],
  [/^This is a follow-up: the payment/, "The payment"],
  [/ despite an earlier reminder/g, ""],
  [/^Another reminder: /, "Reminder: "],
  [/^Another reminder$/, "A reminder"],
  [/^This is another reminder about/, "This is a reminder about"],
  [/^Despite previous reminders, (\S)/, (_match, first) => first.toUpperCase()],
  [/ after several reminders/g, ""],
];

/** `text` as a first reminder says it (FIRST_CONTACT). */
export function asFirstContact(text: string): string {
  return FIRST_CONTACT.reduce(
    (out, [pattern, replacement]) =>
      typeof replacement === "string" ? out.replace(pattern, replacement) : out.replace(pattern, replacement),
    text,
  );
}

export function resolveCopy(
  template: TemplateId,
  tone: number,
  values: CopyValues,
  {
    repeats = true,
    timing = "overdue",
    firstContact = false,
  }: { repeats?: boolean; timing?: StatementTiming["kind"]; firstContact?: boolean } = {},
): ResolvedCopy {
  const first = (text: string) => (firstContact ? asFirstContact(text) : text);
  const dueSoon = timing === "not-yet-due" || timing === "due-today";
  const byTone = (dueSoon ? NOT_YET_DUE_COPY : REMINDER_COPY)[template];
  if (!byTone) throw new Error(`Unknown reminder template ${template}`);
  // Unknown tones (e.g. a bad stored strategy) read as Polite, like strategyLabel does.
  const t = toTone(tone);
  const copy = byTone[t];
  return {
    subject: first(oneLine(fillLine(copy.subject, values, oneLine))),
    greeting: fillLine(TONE_FRAME[t].greeting, values),
    heading: first(fillLine(copy.heading, values)),
    paragraphs: copy.paragraphs
      .map((p) => first(fillLine(p, values)))
      .flatMap((p) => {
        if (repeats) return [p];
        const rest = withoutRepeatNotice(p);
        return rest === null ? [] : [rest];
      }),
    signOff: TONE_FRAME[t].signOff,
    footer: fillLine(FOOTER_COPY, values),
    paidQuestion: fillLine(repeats ? PAY_COPY.paidQuestion : PAY_COPY.paidQuestionOnce, values),
  };
}
