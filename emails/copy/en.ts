import type { Catalogue } from "../../app/domain/i18n";
import type { TemplateId } from "../../app/domain/presets";
import type { Tone } from "../../app/domain/strategies";
import type { FirstContactRule, LabelKey, Line, ReminderCopySet, TemplateCopy, ToneFrame } from "./types";

export type { LabelKey } from "./types";

/**
 * English: the source every other language translates (emails/reminder-copy.ts has the rules for
 * anyone editing it). The other languages have exactly its lines, alternatives and arguments
 * (catalogueProblems, emails/copy/copy.test.ts).
 */

const TONE_FRAME: Record<Tone, ToneFrame> = {
  1: { greeting: ["Hi {contactName},", "Hi {receiverName},", "Hi,"], signOff: "Thank you and kind regards," },
  2: { greeting: ["Hello {contactName},", "Hello {receiverName},", "Hello,"], signOff: "Kind regards," },
  3: { greeting: ["{contactName},", "{receiverName},", "Hello,"], signOff: "Regards," },
};

const REMINDER_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
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
const NOT_YET_DUE_COPY: Record<TemplateId, Record<Tone, TemplateCopy>> = {
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
const FOOTER_COPY: Line = [
  "Sent by {senderName}. To reach them, reply to this e-mail.",
  "To reach the sender, reply to this e-mail.",
];

/**
 * The opt-out line under the footer of every reminder: the question, then a
 * link to the signed opt-out page with `link` as its text.
 */
const OPT_OUT_COPY = { question: "Don't want these reminders?", link: "Stop them here" } as const;

/**
 * Paying from the reminder: the 'Pay now' button to the sender's payment page (only when
 * they set one), and the line with the "I've paid" link (every reminder), which tells the sender
 * and pauses the reminders. A one-time reminder's line (`paidQuestionOnce`) speaks of no reminders to
 * pause: none follows. The same words in every tone.
 */
const PAY_COPY = {
  button: "Pay now",
  paidQuestion: [
    "Already paid? Let {senderName} know and the reminders pause:",
    "Already paid? Let the sender know and the reminders pause:",
  ] as Line,
  paidQuestionOnce: ["Already paid? Let {senderName} know:", "Already paid? Let the sender know:"] as Line,
  paidLink: "I've paid",
} as const;

/**
 * The sentences that announce more reminders ("Further reminders will follow…", "Reminders will
 * continue…", "Reminders will be sent regularly…"): a one-time reminder leaves them out, since
 * none follows.
 */
const REPEAT_NOTICE =
  /(?:Further reminders will follow|Reminders will continue|Reminders will be sent regularly)[^.]*\.\s*/g;

/**
 * A debtor's first reminder may be a firmer one (an invoice that joins a cadence late gets the step
 * its age calls for, decisions/048): it must not speak of reminders the debtor never got. These
 * rewrite the firmer templates' mentions of earlier contact, keeping their tone.
 */
const FIRST_CONTACT: readonly FirstContactRule[] = [
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

/** The fixed texts of a reminder (emails/reminder.tsx) and its statement's labels: ICU messages. */
const LABELS = {
  invoiceHeading: "Invoice",
  dueDateHeading: "Due date",
  balanceHeading: "Balance",
  statusHeading: "Status",
  totalDue: "Total due",
  totalDueIn: "Total due in {currency}",
  moreInvoices: "and {count, plural, one {# more invoice} other {# more invoices}}, included in the total",
  invoiceDue: "Invoice due {date}",
  theInvoiceDue: "the invoice due {date}",
  apartLine: "{invoice} ({balance}, due {date})",
  notChased: "Not part of this reminder, by arrangement: {invoices}. It is not in the total above.",
  claimedPaid:
    "You told us you have paid {invoices}. {senderName} is checking {count, plural, one {it, so it is} other {them, so they are}} not in the total above.",
  payByBank: "Pay by bank transfer",
  payByBankIn: "Pay by bank transfer ({currency})",
  reference: "Reference",
  viewStatement: "View your statement / respond",
  contact: "Contact:",
  days: "{count, plural, one {# day} other {# days}}",
  invoices: "{count, plural, one {# invoice} other {# invoices}}",
  dueToday: "due today",
  daysOverdue: "{count, plural, one {# day} other {# days}} overdue",
  dueIn: "due in {count, plural, one {# day} other {# days}}",
  sentBy: "Sent by Dunly.",
} as const;

export { FOOTER_COPY, NOT_YET_DUE_COPY, OPT_OUT_COPY, PAY_COPY, REMINDER_COPY, REPEAT_NOTICE, TONE_FRAME };

export const EN: ReminderCopySet = {
  frame: TONE_FRAME,
  overdue: REMINDER_COPY,
  notYetDue: NOT_YET_DUE_COPY,
  footer: FOOTER_COPY,
  optOut: OPT_OUT_COPY,
  pay: PAY_COPY,
  repeatNotice: REPEAT_NOTICE,
  firstContact: FIRST_CONTACT,
  labels: LABELS satisfies Catalogue<LabelKey>,
};
