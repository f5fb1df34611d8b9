import { oneLine } from "../app/domain/header-safe";
import { type Catalogues, type Translate, translator } from "../app/domain/i18n";
import { DEFAULT_LANGUAGE, type Language } from "../app/domain/languages";
import type { TemplateId } from "../app/domain/presets";
import type { StatementTiming } from "../app/domain/statement";
import { toTone } from "../app/domain/strategies";
import { DE } from "./copy/de";
import { EN, type LabelKey } from "./copy/en";
import { ES } from "./copy/es";
import { FR } from "./copy/fr";
import { NL } from "./copy/nl";
import type { Line, ReminderCopySet } from "./copy/types";

export type { LabelKey } from "./copy/en";
export {
  FOOTER_COPY,
  NOT_YET_DUE_COPY,
  OPT_OUT_COPY,
  PAY_COPY,
  REMINDER_COPY,
  REPEAT_NOTICE,
  TONE_FRAME,
} from "./copy/en";
export type { Line, ReminderCopySet, TemplateCopy, ToneFrame } from "./copy/types";

/** Every language's wording (emails/copy/<language>.ts); English is the source. */
export const REMINDER_COPY_SETS: Readonly<Record<Language, ReminderCopySet>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  nl: NL,
};

/** The fixed texts of every language as message catalogues (emails/copy/en.ts LABELS). */
export const REMINDER_LABELS: Catalogues<LabelKey> = {
  en: EN.labels,
  de: DE.labels,
  fr: FR.labels,
  es: ES.labels,
  nl: NL.labels,
};

/**
 * The fixed texts of a reminder in `language`, numbers (and plural rules) in `locale` (the
 * debtor's, app/domain/languages.ts debtorLocale): "Total due", "3 days overdue", "and 2 more invoices".
 */
export function reminderLabels(language: Language = DEFAULT_LANGUAGE, locale = "en-US"): Translate<LabelKey> {
  // Counts as reminders always wrote them: "1557 days".
  return translator(REMINDER_LABELS, language, locale, { grouping: false });
}

/**
 * The wording of every reminder: five templates × three tones, in each of the five languages
 * (emails/copy/<language>.ts; English is the source, the others translate it line for line).
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

/** A paragraph without its repeat notice (in its language); null when nothing else was in it. */
function withoutRepeatNotice(paragraph: string, repeatNotice: RegExp): string | null {
  const rest = paragraph.replace(repeatNotice, "").trim();
  return rest === "" ? null : rest;
}

/**
 * A debtor's first reminder may be a firmer one (an invoice that joins a cadence late gets the step
 * its age calls for, decisions/048): it must not speak of reminders the debtor never got. Each
 * language's `firstContact` rules rewrite the firmer templates' mentions of earlier contact,
 * keeping their tone. `text` as a first reminder says it.
 */
export function asFirstContact(text: string, language: Language = DEFAULT_LANGUAGE): string {
  return REMINDER_COPY_SETS[language].firstContact.reduce(
    (out, [pattern, replacement]) =>
      typeof replacement === "string" ? out.replace(pattern, replacement) : out.replace(pattern, replacement),
    text,
  );
}

export interface CopyOptions {
  /** More reminders follow (default); false: the sentences announcing them are left out. */
  repeats?: boolean;
  /** The statement's timing (app/domain/statement.ts statementTiming); default "overdue". */
  timing?: StatementTiming["kind"];
  /** No reminder reached the debtor before: no mention of earlier ones. */
  firstContact?: boolean;
}

/**
 * All the wording of one reminder, filled in, in `language` (default English; the values are
 * already written in the debtor's locale and language: "3 Rechnungen", "1.234,56 €").
 * `repeats: false` (a one-time reminder) drops the sentences that announce further reminders (the
 * language's `repeatNotice`) and says nothing of reminders pausing. `timing` picks the wording:
 * before the due date and on it, the language's `notYetDue`; overdue or unknown, its `overdue`.
 * Throws on an unknown template id. The user's own templates start from this: Dunly's text in that language.
 */
export function resolveCopy(
  template: TemplateId,
  tone: number,
  values: CopyValues,
  { repeats = true, timing = "overdue", firstContact = false }: CopyOptions = {},
  language: Language = DEFAULT_LANGUAGE,
): ResolvedCopy {
  const set = REMINDER_COPY_SETS[language] ?? EN;
  const lang = REMINDER_COPY_SETS[language] ? language : DEFAULT_LANGUAGE;
  const first = (text: string) => (firstContact ? asFirstContact(text, lang) : text);
  const dueSoon = timing === "not-yet-due" || timing === "due-today";
  const byTone = (dueSoon ? set.notYetDue : set.overdue)[template];
  if (!byTone) throw new Error(`Unknown reminder template ${template}`);
  // Unknown tones (e.g. a bad stored strategy) read as Polite, like strategyLabel does.
  const t = toTone(tone);
  const copy = byTone[t];
  return {
    subject: first(oneLine(fillLine(copy.subject, values, oneLine))),
    greeting: fillLine(set.frame[t].greeting, values),
    heading: first(fillLine(copy.heading, values)),
    paragraphs: copy.paragraphs
      .map((p) => first(fillLine(p, values)))
      .flatMap((p) => {
        if (repeats) return [p];
        const rest = withoutRepeatNotice(p, set.repeatNotice);
        return rest === null ? [] : [rest];
      }),
    signOff: set.frame[t].signOff,
    footer: fillLine(set.footer, values),
    paidQuestion: fillLine(repeats ? set.pay.paidQuestion : set.pay.paidQuestionOnce, values),
  };
}
