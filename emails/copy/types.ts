import type { Catalogue } from "../../app/domain/i18n";
import type { TemplateId } from "../../app/domain/presets";
import type { Tone } from "../../app/domain/strategies";

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

/** A rewrite of a firmer template's mention of earlier contact, for a debtor's first reminder. */
export type FirstContactRule = readonly [RegExp, string | ((match: string, first: string) => string)];

/**
 * All of a reminder's wording in one language (emails/copy/<language>.ts): the five templates ×
 * three tones overdue and before the due date, the greeting and sign-off per tone, the footer,
 * opt-out and pay lines, the fixed labels (ICU messages), and the two mechanisms that rewrite
 * copy: the sentences that announce further reminders (dropped from a one-time reminder) and the
 * rewrites for a first contact.
 */
export interface ReminderCopySet {
  frame: Record<Tone, ToneFrame>;
  overdue: Record<TemplateId, Record<Tone, TemplateCopy>>;
  notYetDue: Record<TemplateId, Record<Tone, TemplateCopy>>;
  footer: Line;
  optOut: { readonly question: string; readonly link: string };
  pay: {
    readonly button: string;
    readonly paidQuestion: Line;
    readonly paidQuestionOnce: Line;
    readonly paidLink: string;
  };
  /** Matches each sentence (with its trailing space) that announces further reminders; global. */
  repeatNotice: RegExp;
  firstContact: readonly FirstContactRule[];
  labels: Catalogue<LabelKey>;
}

/** The keys of a reminder's fixed texts (each language's LABELS, ICU messages; emails/copy/en.ts has the English). */
export const LABEL_KEYS = [
  "invoiceHeading",
  "dueDateHeading",
  "balanceHeading",
  "statusHeading",
  "totalDue",
  "totalDueIn",
  "moreInvoices",
  "invoiceDue",
  "theInvoiceDue",
  "apartLine",
  "notChased",
  "claimedPaid",
  "payByBank",
  "payByBankIn",
  "reference",
  "viewStatement",
  "contact",
  "days",
  "invoices",
  "dueToday",
  "daysOverdue",
  "dueIn",
  "sentBy",
] as const;
export type LabelKey = (typeof LABEL_KEYS)[number];
