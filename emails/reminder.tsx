import { Heading, Link, Section, Text } from "@react-email/components";
import { Fragment, useContext } from "react";
import type { BankTransfer } from "../app/domain/bank-transfer";
import { type MessageBrand, signatureLines } from "../app/domain/brand";
import { parseCalendarDate } from "../app/domain/calendar-date";
import { formatDate } from "../app/domain/dates";
import { oneLine, safeDisplayName, safeLines } from "../app/domain/header-safe";
import { type Translate, translator } from "../app/domain/i18n";
import { CHARGE_COPY, type ChargeCopyKey } from "../app/domain/i18n/charges";
import { DEFAULT_LANGUAGE, type Language } from "../app/domain/languages";
import { formatMoney } from "../app/domain/money";
import type { TemplateId } from "../app/domain/presets";
import {
  type CurrencyTotal,
  daysOverdue as daysBetween,
  formatAmount,
  invoiceCount,
  MAX_STATEMENT_LINES,
  orderStatement,
  type StatementLine,
  statementTiming,
  statementTotals,
} from "../app/domain/statement";
import {
  type ChargeLine,
  type ChargeSummaryRow,
  chargeSummary,
  chargesOfLine,
  chargesOfPaidInvoices,
  chargeWords,
  type StatementCharges,
} from "../app/domain/statement-charges";
import type { Tone } from "../app/domain/strategies";
import {
  type Block,
  type Inline,
  inlineText,
  type PlaceholderValues,
  parseStepText,
  type StepText,
  withStatement,
} from "../app/domain/template-body";
import { AccentContext, EmailButton, EmailLayout } from "./components/layout";
import { bankLabel } from "./copy/bank";
import { type LabelKey, REMINDER_COPY_SETS, type ResolvedCopy, reminderLabels, resolveCopy } from "./reminder-copy";
import { REMINDER_SAMPLE } from "./reminder-sample";

export interface ReminderEmailProps {
  template: TemplateId;
  tone: Tone;
  /** The debtor. */
  receiverName: string;
  /** The debtor's primary contact person (decisions/057): the greeting names them; none: the debtor. */
  contactName?: string | null;
  /** The user's full name, or the organization's name when sent as a company. */
  senderName: string;
  /** Where replies go (the user's address); shown as the contact line. */
  senderEmail: string;
  /** When set, the signature shows the organization's name and address. */
  senderCompany?: { name: string; address: string } | null;
  /**
   * The statement: the debtor's open invoices, oldest due first (disputed,
   * paid and void ones are never on it). At least one: a reminder without an open invoice is not
   * rendered. At most MAX_STATEMENT_LINES are listed, then "and N more invoices". No reminder
   * links to an invoice: there is no invoice page to link to.
   */
  statement: StatementLine[];
  /**
   * The totals per currency over every open invoice, when `statement` holds only the first of
   * them (the engine's query caps it, app/reminders/statement.server.ts); default: `statement`'s own.
   */
  statementTotals?: CurrencyTotal[] | null;
  /** Open invoices the user said not to chase: named apart, outside the total. */
  notChased?: StatementLine[] | null;
  /** Open invoices the debtor said they paid, while the sender checks: named apart, outside the total. */
  claimedPaid?: StatementLine[] | null;
  /**
   * Late-payment charges still owed (decisions/067): each under its listed invoice (`line`), those of
   * invoices paid in full apart, and their totals per currency. None: the statement as it always was.
   */
  statementCharges?: StatementCharges | null;
  /** No reminder reached this debtor before: the copy speaks of no earlier one (reminder-copy.ts asFirstContact). */
  firstContact?: boolean;
  /** "YYYY-MM-DD": today in the debtor's time zone, for "12 days overdue" and "due in 3 days". */
  today: string;
  /**
   * Whether more reminders follow while it stays unpaid (a daily or weekly schedule). False for a
   * one-time ('now') reminder: the copy then says nothing of further reminders. Default true.
   */
  repeats?: boolean;
  /**
   * The language the debtor is written to in (app/domain/languages.ts debtorLanguage): every word of
   * the e-mail, Dunly's copy and its fixed labels. Default English.
   */
  language?: Language;
  /**
   * The debtor's locale (app/domain/languages.ts debtorLocale: the user's number and date format
   * when it is of the debtor's language, else the language's own): the dates are written in it,
   * and, in a language other than English, the amounts ("1.234,56 €"). English amounts keep
   * Dunly's one format ("€1,234.56").
   */
  locale?: string;
  /**
   * The debtor's signed opt-out page (app/links/signed-links.server.ts): the footer's "Stop them here"
   * link. The mail Worker never sends a reminder without it; only the in-app preview may lack one.
   */
  unsubscribeUrl?: string | null;
  /**
   * The sender's payment page (the organization's when sent as one, else the user's): a 'Pay now'
   * button. https only; none without it.
   */
  payUrl?: string | null;
  /**
   * The debtor's signed "I've paid" page (app/responses/paid-claims.server.ts): a visible link under the
   * buttons. Every reminder the engine sends has one; the in-app preview shows a sample.
   */
  paidUrl?: string | null;
  /** The debtor's signed page (app/links/debtor-pages.server.ts): "View your statement / respond". */
  portalUrl?: string | null;
  /**
   * Bank-transfer details in the statement's currencies, each with the reference to quote
   * (app/reminders/statement-bank.server.ts); none: no bank transfer is offered.
   */
  bankTransfer?: BankTransfer[] | null;
  /**
   * The user's own subject and body for this step and language (app/domain/template-body.ts,
   * decisions/056), rendered instead of Dunly's copy; the statement and the footer stay. None, or
   * one that no longer parses: Dunly's text.
   */
  custom?: StepText | null;
  /**
   * The user's brand (docs/decisions/058): logo and name above, accent on the buttons and links,
   * the signature under the sign-off, "Powered by Dunly" under the footer. None: Dunly's own look.
   */
  brand?: MessageBrand | null;
}

/** One listed invoice, formatted. */
export interface StatementRow {
  /** Its number, or "Invoice due March 5, 2027" when it has none. */
  label: string;
  /** Whether the label is the invoice's own number (which may be one long word) or Dunly's words. */
  numbered: boolean;
  /** "March 5, 2027". */
  dueDate: string;
  /** "$1,234.50". */
  balance: string;
  /** "12 days overdue", "due today", "due in 3 days". */
  due: string;
}

/** One late-payment charge, formatted: its label, its legal basis in words, what is owed of it. */
export interface ChargeRow {
  /** "Statutory interest"; under "Charges still owed on paid invoices": "Statutory interest, invoice INV-7". */
  label: string;
  /** "Statutory interest under the Late Payment of Commercial Debts (Interest) Act 1998 at 12.75% a year on …"; null: none. */
  basis: string | null;
  /** What is still owed of it. */
  amount: string;
  /** "£10.00 of £32.00 paid"; null when nothing was paid of it. */
  paid: string | null;
}

/** The statement's charges, formatted (null on a statement without any). */
export interface ReminderCharges {
  /** The charges under each listed row (same order as `rows`). */
  byRow: ChargeRow[][];
  /** The charges of invoices paid in full. */
  onPaid: ChargeRow[];
  /** Charges owed but not listed (a statement lists at most MAX_CHARGE_LINES): "and N more charges". */
  moreCount: number;
  /** Per currency: "Invoices", "Charges", "Total" (with the currency when there are several). */
  summary: { label: string; amount: string; strong: boolean }[];
  /** The heading of the charges of paid invoices. */
  onPaidHeading: string;
  moreLine: string | null;
}

/** Everything the e-mail shows, derived once from the props. */
export interface ReminderContent extends ResolvedCopy {
  /** The total (per currency, joined with " + "), as the copy names it. */
  amount: string;
  /** The listed invoices (at most MAX_STATEMENT_LINES). */
  rows: StatementRow[];
  /** Open invoices not listed ("and N more invoices"); 0 when all are. */
  moreCount: number;
  /** "Not part of this reminder: INV-107 ($800.00, due March 5, 2027)", or null. */
  notChasedLine: string | null;
  claimedLine: string | null;
  /** One total per currency: "Total due" or, over several currencies, "Total due in EUR". */
  totals: { label: string; amount: string }[];
  /** Late-payment charges still owed, apart from the invoices (decisions/067); null: none. */
  charges: ReminderCharges | null;
  senderName: string;
  senderEmail: string | null;
  companyName: string | null;
  companyAddressLines: string[];
  /** The opt-out link (http/https only), or null. */
  unsubscribeUrl: string | null;
  /** The 'Pay now' link (https only), or null. */
  payUrl: string | null;
  /** The "I've paid" link (http/https only), or null. */
  paidUrl: string | null;
  /** The debtor's page (http/https only), or null. */
  portalUrl: string | null;
  /** Bank transfer, one block per currency, each line on one line of text. */
  bankTransfer: BankTransfer[];
  /** The user's own text, parsed, with the statement placed; null: Dunly's copy. */
  custom: { blocks: Block[]; values: PlaceholderValues } | null;
  /** The e-mail's language. */
  language: Language;
  /** Its fixed texts in that language: the statement's headings, the pay and bank lines, the links. */
  t: Translate<LabelKey>;
}

/**
 * "2027-03-05" → "Mar 5, 2027" in the user's format (app/domain/dates.ts); null for missing or
 * impossible dates. No time zone can shift the day.
 */
export function formatDueDate(value: string | null | undefined, locale?: string): string | null {
  const date = value?.trim() ?? "";
  if (!parseCalendarDate(date)) return null;
  return formatDate(date, locale);
}

/** Only http(s) links become buttons: a user-supplied javascript: URL must never be clickable. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Only https links to a payment page: money is never sent over a plain-http page. */
export function safeHttpsUrl(value: string | null | undefined): string | null {
  const url = safeHttpUrl(value);
  return url?.startsWith("https:") ? url : null;
}

function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** A reminder without an open invoice: never rendered, so never sent. */
export class EmptyStatementError extends Error {
  constructor() {
    super("A reminder needs at least one open invoice");
  }
}

/** The language of a reminder, its fixed texts, and the locale its amounts are written in. */
export function reminderLanguage(props: Pick<ReminderEmailProps, "language" | "locale">) {
  const language = props.language && REMINDER_COPY_SETS[props.language] ? props.language : DEFAULT_LANGUAGE;
  const locale = props.locale ?? "en-US";
  return {
    language,
    t: reminderLabels(language, locale),
    // English amounts keep the one format reminders always had; other languages write their own.
    moneyLocale: language === DEFAULT_LANGUAGE ? "en-US" : locale,
  };
}

/** "12 days overdue", "due today", "due in 3 days" in the reminder's language; "" without valid dates. */
function dueText(t: Translate<LabelKey>, dueOn: string, today: string): string {
  const days = daysBetween(dueOn, today);
  if (days === null) return "";
  if (days === 0) return t("dueToday");
  return days > 0 ? t("daysOverdue", { count: days }) : t("dueIn", { count: -days });
}

/**
 * The statement's rows and totals: the lines oldest due first, at most MAX_STATEMENT_LINES of them,
 * each with its balance and how overdue it is on `today`; the totals over every open invoice.
 */
function statementContent(props: ReminderEmailProps) {
  const { t, moneyLocale } = reminderLanguage(props);
  const lines = orderStatement(props.statement);
  const totals = props.statementTotals?.length ? props.statementTotals : statementTotals(lines);
  const count = invoiceCount(totals);
  if (lines.length === 0 || count === 0) throw new EmptyStatementError();
  const listed = lines.slice(0, MAX_STATEMENT_LINES);
  const rows = listed.map((line) => {
    const dueDate = formatDueDate(line.dueOn, props.locale) ?? line.dueOn;
    const number = blankToNull(oneLine(line.number ?? ""));
    return {
      label: number ?? t("invoiceDue", { date: dueDate }),
      numbered: number !== null,
      dueDate,
      balance: formatMoney(line.balanceCents, line.currency, moneyLocale),
      due: dueText(t, line.dueOn, props.today),
    };
  });
  const only = count === 1 ? lines[0] : undefined;
  // Oldest due first, so the listed lines hold the most overdue one.
  const timing = statementTiming(lines, props.today);
  return {
    charges: chargesContent(props, rows.length, totals),
    timing: timing?.kind ?? "overdue",
    daysOverdue: timing?.kind === "overdue" ? t("days", { count: timing.daysOverdue }) : null,
    rows,
    moreCount: Math.max(0, count - listed.length),
    totals: totals.map((total) => ({
      label: totals.length === 1 ? t("totalDue") : t("totalDueIn", { currency: total.currency }),
      amount: formatMoney(total.cents, total.currency, moneyLocale),
    })),
    amount: formatAmount(totals, moneyLocale),
    // One invoice: its number and due date, as before statements; several: how many.
    invoiceNumber: only ? blankToNull(only.number) : null,
    dueDate: only ? formatDueDate(only.dueOn, props.locale) : null,
    invoiceCount: only ? null : t("invoices", { count }),
    oldestDueDate: rows[0]?.dueDate ?? "",
    daysOverdueOrNone: t("days", { count: timing?.kind === "overdue" ? timing.daysOverdue : 0 }),
  };
}

/**
 * The statement's charges in the reminder's language: each charge's label and legal basis in words
 * (app/domain/statement-charges.ts chargeWords), what is owed, and Invoices / Charges / Total per
 * currency. Null without charges: the statement then reads exactly as it always did.
 */
function chargesContent(
  props: ReminderEmailProps,
  rowCount: number,
  invoiceTotals: readonly CurrencyTotal[],
): ReminderCharges | null {
  const charges = props.statementCharges;
  if (!charges || charges.totals.length === 0) return null;
  const { language, moneyLocale } = reminderLanguage(props);
  const t = translator(CHARGE_COPY, language, props.locale ?? "en-US", { grouping: false });
  const money = (cents: number, currency: string) => formatMoney(cents, currency, moneyLocale);
  const date = (iso: string) => formatDueDate(iso, props.locale) ?? iso;
  const row = (charge: ChargeLine, onPaid: boolean): ChargeRow => {
    const words = chargeWords(charge, language, { money, date });
    const number = blankToNull(oneLine(charge.invoiceNumber ?? ""));
    return {
      label: oneLine(
        onPaid
          ? number
            ? t("charges.ofInvoice", { label: words.label, number })
            : t("charges.ofInvoiceDue", { label: words.label, date: date(charge.invoiceDueOn) })
          : words.label,
      ),
      basis: words.basis === null ? null : oneLine(words.basis),
      amount: money(charge.owedCents, charge.currency),
      paid:
        charge.paidCents > 0
          ? t("charges.partlyPaid", {
              paid: money(charge.paidCents, charge.currency),
              amount: money(charge.amountCents, charge.currency),
            })
          : null,
    };
  };
  const listed = Array.from({ length: rowCount }, (_, i) => chargesOfLine(charges.lines, i).map((c) => row(c, false)));
  const onPaid = chargesOfPaidInvoices(charges.lines).map((c) => row(c, true));
  const shown = listed.reduce((n, r) => n + r.length, 0) + onPaid.length;
  const moreCount = Math.max(0, invoiceCount(charges.totals) - shown);
  const summary = chargeSummary(invoiceTotals, charges.totals);
  const several = summary.length > 1;
  const label = (one: ChargeCopyKey, many: ChargeCopyKey, r: ChargeSummaryRow) =>
    several ? t(many, { currency: r.currency }) : t(one);
  return {
    byRow: listed,
    onPaid,
    moreCount,
    moreLine: moreCount > 0 ? t("charges.more", { count: moreCount }) : null,
    onPaidHeading: t("charges.onPaid"),
    summary: summary.flatMap((r) => [
      {
        label: label("charges.invoices", "charges.invoicesIn", r),
        amount: money(r.invoicesCents, r.currency),
        strong: false,
      },
      {
        label: label("charges.charges", "charges.chargesIn", r),
        amount: money(r.chargesCents, r.currency),
        strong: false,
      },
      { label: label("charges.total", "charges.totalIn", r), amount: money(r.totalCents, r.currency), strong: true },
    ]),
  };
}

/** The user's own text when it parses (it was checked on save), with its placeholders' values. */
function customContent(props: ReminderEmailProps, values: PlaceholderValues) {
  if (!props.custom) return null;
  const parsed = parseStepText(props.custom);
  if (!parsed.ok) return null;
  return { subject: oneLine(inlineText(parsed.subject, values)), blocks: withStatement(parsed.body), values };
}

/**
 * Formats the values and fills in the copy; shared by the component and renderReminder. Names are
 * shown on one line without invisible characters, and the sender's and the company's without
 * anything that looks like an address or a link (app/domain/header-safe.ts), whoever calls.
 * Throws EmptyStatementError for a statement without an open invoice.
 */
export function reminderContent(props: ReminderEmailProps): ReminderContent {
  const {
    rows,
    moreCount,
    totals,
    charges,
    amount,
    invoiceNumber,
    dueDate,
    invoiceCount,
    timing,
    daysOverdue,
    oldestDueDate,
    daysOverdueOrNone,
  } = statementContent(props);
  const { language, t, moneyLocale } = reminderLanguage(props);
  const senderEmail = blankToNull(props.senderEmail);
  // A re-sent reminder may carry an empty sender name; the address still says who it is.
  const senderName = blankToNull(safeDisplayName(props.senderName)) ?? senderEmail ?? "";
  const copy = resolveCopy(
    props.template,
    props.tone,
    {
      receiverName: oneLine(props.receiverName),
      contactName: props.contactName ? oneLine(props.contactName) : null,
      senderName,
      amount,
      dueDate,
      invoiceNumber,
      invoiceCount,
      daysOverdue,
    },
    { repeats: props.repeats ?? true, timing, firstContact: props.firstContact ?? false },
    language,
  );
  const debtorName = oneLine(props.receiverName);
  const custom = customContent(props, {
    debtorName,
    contactName: blankToNull(oneLine(props.contactName ?? "")) ?? debtorName,
    total: amount,
    oldestDueDate,
    daysOverdue: daysOverdueOrNone,
  });
  const company = props.senderCompany ?? null;
  const apart = (line: StatementLine) => {
    const due = formatDueDate(line.dueOn, props.locale) ?? line.dueOn;
    const number = blankToNull(oneLine(line.number ?? ""));
    return t("apartLine", {
      invoice: number ?? t("theInvoiceDue", { date: due }),
      balance: formatMoney(line.balanceCents, line.currency, moneyLocale),
      date: due,
    });
  };
  const notChased = (props.notChased ?? []).map(apart);
  const claimed = (props.claimedPaid ?? []).map(apart);
  return {
    ...copy,
    ...(custom ? { subject: custom.subject } : {}),
    custom: custom && { blocks: custom.blocks, values: custom.values },
    language,
    t,
    amount,
    rows,
    moreCount,
    notChasedLine: notChased.length > 0 ? t("notChased", { invoices: notChased.join("; ") }) : null,
    claimedLine:
      claimed.length > 0 ? t("claimedPaid", { invoices: claimed.join("; "), senderName, count: claimed.length }) : null,
    totals,
    charges,
    senderName,
    senderEmail,
    companyName: blankToNull(safeDisplayName(company?.name ?? "")),
    companyAddressLines: safeLines(company?.address ?? ""),
    unsubscribeUrl: safeHttpUrl(props.unsubscribeUrl),
    // The sender's own payment page must be https; Dunly's own Pay link (/d/<token>/pay, decisions/018)
    // has the origin of the debtor's page, as the other signed links.
    payUrl:
      props.portalUrl && props.payUrl?.startsWith(`${props.portalUrl}/`)
        ? safeHttpUrl(props.payUrl)
        : safeHttpsUrl(props.payUrl),
    paidUrl: safeHttpUrl(props.paidUrl),
    portalUrl: safeHttpUrl(props.portalUrl),
    // Typed by the user: one line each, never markup (React escapes it).
    bankTransfer: (props.bankTransfer ?? []).map((b) => ({
      currency: oneLine(b.currency),
      lines: b.lines.map((l) => ({
        label: oneLine(bankLabel(l.label, language)),
        shown: oneLine(l.shown),
        copy: oneLine(l.copy),
      })),
      reference: oneLine(b.reference),
    })),
  };
}

const text = { fontSize: 15, lineHeight: "22px", color: "#1f1f1f", margin: "0 0 14px" } as const;
const cell = {
  fontSize: 14,
  lineHeight: "20px",
  color: "#1f1f1f",
  padding: "4px 12px 4px 0",
  verticalAlign: "top",
} as const;
/**
 * The card lets any word break anywhere (emails/components/layout.tsx), which also lets a table
 * column shrink to one letter: on a phone the headings, dates and statuses broke mid-word ("Balanc"
 * over "e"). These cells hold Dunly's own short words, so they wrap only between words; an
 * invoice's number keeps the card's rule, so a long one still wraps instead of widening the card
 * ("Invoice due March 5, 2027", for an invoice without one, is Dunly's words too).
 */
const wholeWords = { wordBreak: "normal", overflowWrap: "break-word" } as const;
const wordCell = { ...cell, ...wholeWords } as const;
const headCell = { ...wordCell, fontWeight: 600, textAlign: "left" } as const;
const amountCell = { ...cell, textAlign: "right", whiteSpace: "nowrap" } as const;
const signature = { fontSize: 14, lineHeight: "20px", color: "#1f1f1f", margin: 0 } as const;

/**
 * The statement as a data table: the plain-text part lays it out in columns (render-reminder.ts
 * formats `table[data-statement]` as a data table).
 */
function StatementTable({ c }: { c: ReminderContent }) {
  return (
    <table data-statement="" width="100%" cellPadding={0} cellSpacing={0} style={{ borderCollapse: "collapse" }}>
      <thead>
        <tr>
          <th scope="col" className="dunly-text" style={headCell}>
            {c.t("invoiceHeading")}
          </th>
          <th scope="col" className="dunly-text" style={headCell}>
            {c.t("dueDateHeading")}
          </th>
          <th scope="col" className="dunly-text" style={{ ...headCell, textAlign: "right" }}>
            {c.t("balanceHeading")}
          </th>
          <th scope="col" className="dunly-text" style={headCell}>
            {c.t("statusHeading")}
          </th>
        </tr>
      </thead>
      <tbody>
        {c.rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static e-mail markup; two invoices may read the same.
          <Fragment key={i}>
            <tr>
              <td className="dunly-text" style={row.numbered ? cell : wordCell}>
                {row.label}
              </td>
              <td className="dunly-text" style={wordCell}>
                {row.dueDate}
              </td>
              <td className="dunly-text" style={amountCell}>
                {row.balance}
              </td>
              <td className="dunly-text" style={wordCell}>
                {row.due}
              </td>
            </tr>
            {c.charges?.byRow[i]?.map((charge, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static e-mail markup, rendered once.
              <ChargeTableRow key={j} charge={charge} />
            ))}
          </Fragment>
        ))}
        {c.moreCount > 0 && (
          <tr>
            <td colSpan={4} className="dunly-text" style={cell}>
              {c.t("moreInvoices", { count: c.moreCount })}
            </td>
          </tr>
        )}
        {c.charges && c.charges.onPaid.length > 0 && (
          <tr>
            <td colSpan={4} className="dunly-text" style={{ ...wordCell, fontWeight: 600, paddingTop: 10 }}>
              {c.charges.onPaidHeading}
            </td>
          </tr>
        )}
        {c.charges?.onPaid.map((charge, j) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static e-mail markup, rendered once.
          <ChargeTableRow key={j} charge={charge} />
        ))}
        {c.charges?.moreLine && (
          <tr>
            <td colSpan={4} className="dunly-text" style={cell}>
              {c.charges.moreLine}
            </td>
          </tr>
        )}
        {c.charges?.summary.map((total, j) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: static e-mail markup; labels repeat per currency.
          <tr key={j} data-charge-total="">
            <td colSpan={2} className="dunly-text" style={{ ...wordCell, fontWeight: total.strong ? 600 : 400 }}>
              {total.label}
            </td>
            <td className="dunly-text" style={{ ...amountCell, fontWeight: total.strong ? 600 : 400 }}>
              {total.amount}
            </td>
            <td style={cell} />
          </tr>
        ))}
        {!c.charges &&
          c.totals.map((total) => (
            <tr key={total.label}>
              <td colSpan={2} className="dunly-text" style={{ ...wordCell, fontWeight: 600 }}>
                {total.label}
              </td>
              <td className="dunly-text" style={{ ...amountCell, fontWeight: 600 }}>
                {total.amount}
              </td>
              <td style={cell} />
            </tr>
          ))}
      </tbody>
    </table>
  );
}

const chargeLabelCell = { ...wordCell, paddingLeft: 14 } as const;
const basisText = { fontSize: 12, lineHeight: "17px", color: "#555555" } as const;

/**
 * A late-payment charge under its invoice (decisions/067): its label, what is owed and what was
 * paid, then its legal basis on a row of its own across the table (so the text part wraps it
 * instead of widening a column).
 */
function ChargeTableRow({ charge }: { charge: ChargeRow }) {
  return (
    <>
      <tr data-charge="">
        <td colSpan={2} className="dunly-text" style={chargeLabelCell}>
          {charge.label}
        </td>
        <td className="dunly-text" style={amountCell}>
          {charge.amount}
        </td>
        <td className="dunly-muted" style={{ ...wordCell, ...basisText }}>
          {charge.paid ?? ""}
        </td>
      </tr>
      {charge.basis && (
        <tr data-charge-basis="">
          <td colSpan={4} className="dunly-muted" style={{ ...chargeLabelCell, ...basisText, paddingTop: 0 }}>
            {charge.basis}
          </td>
        </tr>
      )}
    </>
  );
}

/** A link in the sender's accent (docs/decisions/058), set by the layout. */
function useLinkStyle() {
  return { color: useContext(AccentContext), fontWeight: 600, textDecoration: "underline" } as const;
}
const apartLine = { ...text, fontSize: 13, color: "#555555" } as const;
const detailBox = { backgroundColor: "#f6f5fb", borderRadius: 6 } as const;

/** The statement with what is named apart from it: never left out of a reminder. */
function StatementPart({ c }: { c: ReminderContent }) {
  return (
    <>
      <Section className="dunly-detail" style={{ ...detailBox, padding: "14px 18px", margin: "4px 0 18px" }}>
        <StatementTable c={c} />
      </Section>
      {c.notChasedLine && (
        <Text className="dunly-muted" style={apartLine} data-not-chased="">
          {c.notChasedLine}
        </Text>
      )}
      {c.claimedLine && (
        <Text className="dunly-muted" style={apartLine} data-claimed="">
          {c.claimedLine}
        </Text>
      )}
    </>
  );
}

function PayButton({ c }: { c: ReminderContent }) {
  if (!c.payUrl) return null;
  return (
    <Section style={{ margin: "0 0 18px" }}>
      <EmailButton href={c.payUrl} data-pay="">
        {REMINDER_COPY_SETS[c.language].pay.button}
      </EmailButton>
    </Section>
  );
}

function BankDetails({ c }: { c: ReminderContent }) {
  return c.bankTransfer.map((b) => (
    <Section
      key={b.currency}
      data-bank=""
      className="dunly-detail"
      style={{ ...detailBox, padding: "12px 18px", margin: "0 0 18px" }}
    >
      <Text className="dunly-text" style={{ ...text, margin: "0 0 6px", fontWeight: 600 }}>
        {c.bankTransfer.length > 1 ? c.t("payByBankIn", { currency: b.currency }) : c.t("payByBank")}
      </Text>
      {[...b.lines, { label: c.t("reference"), shown: b.reference, copy: b.reference }].map((l) => (
        <Text key={l.label} className="dunly-text" style={{ ...text, fontSize: 14, margin: "0 0 2px" }}>
          {`${l.label}: `}
          <span style={{ fontFamily: "ui-monospace, Menlo, Consolas, monospace" }}>{l.shown}</span>
        </Text>
      ))}
    </Section>
  ));
}

/** "Already paid? … I've paid": every reminder has it, beside the statement. */
function PaidLine({ c }: { c: ReminderContent }) {
  const link = useLinkStyle();
  if (!c.paidUrl) return null;
  return (
    <Text className="dunly-text" style={text}>
      {c.paidQuestion}{" "}
      <Link href={c.paidUrl} data-paid="" className="dunly-link" style={link}>
        {REMINDER_COPY_SETS[c.language].pay.paidLink}
      </Link>
    </Text>
  );
}

function PortalLink({ c }: { c: ReminderContent }) {
  const link = useLinkStyle();
  if (!c.portalUrl) return null;
  return (
    <Text className="dunly-text" style={text}>
      <Link href={c.portalUrl} data-portal="" className="dunly-link" style={link}>
        {c.t("viewStatement")}
      </Link>
    </Text>
  );
}

/** The sender's name, company, address and contact; Dunly's copy puts its sign-off above. */
function Signature({ c, signOff, brand }: { c: ReminderContent; signOff: string | null; brand?: MessageBrand | null }) {
  const accent = useContext(AccentContext);
  const signatureText = signatureLines(brand?.signature);
  return (
    <Section style={{ marginTop: 8 }}>
      {signOff && (
        <Text className="dunly-text" style={signature}>
          {signOff}
        </Text>
      )}
      {c.senderName && (
        <Text className="dunly-text" style={{ ...signature, fontWeight: 600 }}>
          {c.senderName}
        </Text>
      )}
      {signatureText.length > 0 && (
        <Text data-signature="" className="dunly-text" style={{ ...signature, marginTop: 8 }}>
          {signatureText.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static e-mail markup; lines may repeat.
            <span key={i}>
              {i > 0 && <br />}
              {line}
            </span>
          ))}
        </Text>
      )}
      {c.companyName && c.companyName !== c.senderName && (
        <Text className="dunly-text" style={signature}>
          {c.companyName}
        </Text>
      )}
      {c.companyAddressLines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static e-mail markup; address lines may repeat.
        <Text key={i} className="dunly-muted" style={{ ...signature, color: "#555555" }}>
          {line}
        </Text>
      ))}
      {c.senderEmail && (
        <Text className="dunly-muted" style={{ ...signature, color: "#555555", marginTop: 8 }}>
          {c.t("contact")}{" "}
          <Link href={`mailto:${c.senderEmail}`} className="dunly-link" style={{ color: accent }}>
            {c.senderEmail}
          </Link>
        </Text>
      )}
    </Section>
  );
}

/** The user's words: text, bold, links (http, https, mailto only) and placeholders, all as React text. */
function Words({ parts, values }: { parts: readonly Inline[]; values: PlaceholderValues }) {
  const link = useLinkStyle();
  return parts.map((part, i) => {
    const key = `${i}`;
    if (part.kind === "text") return part.text;
    if (part.kind === "placeholder") return values[part.name];
    if (part.kind === "bold")
      return (
        <strong key={key}>
          <Words parts={part.children} values={values} />
        </strong>
      );
    return (
      <Link key={key} href={part.href} className="dunly-link" style={link}>
        <Words parts={part.children} values={values} />
      </Link>
    );
  });
}

/** The user's own text (decisions/056): their paragraphs, and each part where they placed it. */
function CustomBody({
  c,
  custom,
  brand,
}: {
  c: ReminderContent;
  custom: NonNullable<ReminderContent["custom"]>;
  brand?: MessageBrand | null;
}) {
  return custom.blocks.map((block, i) => {
    const key = `${i}`;
    if (block.kind === "paragraph")
      return (
        <Text key={key} className="dunly-text" style={text}>
          {block.lines.map((line, j) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static e-mail markup, rendered once.
            <Fragment key={j}>
              {j > 0 && <br />}
              <Words parts={line} values={custom.values} />
            </Fragment>
          ))}
        </Text>
      );
    switch (block.name) {
      case "statement":
        return (
          <Fragment key={key}>
            <StatementPart c={c} />
            <PaidLine c={c} />
          </Fragment>
        );
      case "payButton":
        return <PayButton key={key} c={c} />;
      case "bankDetails":
        return <BankDetails key={key} c={c} />;
      case "portalLink":
        return <PortalLink key={key} c={c} />;
      default:
        return <Signature key={key} c={c} signOff={null} brand={brand} />;
    }
  });
}

/** The first words a mail client shows beside the subject. */
function previewLine(c: ReminderContent): string {
  if (!c.custom) return c.paragraphs[0] ?? c.heading;
  const { blocks, values } = c.custom;
  const first = blocks.find((b) => b.kind === "paragraph");
  return first?.kind === "paragraph" ? first.lines.map((line) => inlineText(line, values)).join(" ") : c.heading;
}

/** A payment reminder sent on behalf of a user or their organization. */
export default function ReminderEmail(props: ReminderEmailProps) {
  const c = reminderContent(props);
  const optOut = REMINDER_COPY_SETS[c.language].optOut;
  const footer = (
    <>
      {c.footer}
      {c.unsubscribeUrl && (
        <>
          <br />
          {optOut.question}{" "}
          <Link
            href={c.unsubscribeUrl}
            data-opt-out=""
            className="dunly-muted"
            style={{ color: "#555555", textDecoration: "underline" }}
          >
            {optOut.link}
          </Link>
          .
        </>
      )}
    </>
  );
  // Every value below is React text, so names and numbers from users are HTML-escaped.
  if (c.custom)
    return (
      <EmailLayout title={c.subject} preview={previewLine(c)} footer={footer} brand={props.brand} language={c.language}>
        <CustomBody c={c} custom={c.custom} brand={props.brand} />
      </EmailLayout>
    );
  return (
    <EmailLayout title={c.subject} preview={previewLine(c)} footer={footer} brand={props.brand} language={c.language}>
      <Text className="dunly-text" style={text}>
        {c.greeting}
      </Text>
      <Heading
        as="h1"
        className="dunly-text"
        style={{ fontSize: 22, lineHeight: "28px", margin: "0 0 16px", color: "#1f1f1f" }}
      >
        {c.heading}
      </Heading>
      <Text className="dunly-text" style={text}>
        {c.paragraphs[0]}
      </Text>
      <StatementPart c={c} />
      <PayButton c={c} />
      <BankDetails c={c} />
      <PaidLine c={c} />
      <PortalLink c={c} />
      {c.paragraphs.slice(1).map((paragraph, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static e-mail markup, rendered once and never reordered.
        <Text key={i} className="dunly-text" style={text}>
          {paragraph}
        </Text>
      ))}
      <Signature c={c} signOff={c.signOff} brand={props.brand} />
    </EmailLayout>
  );
}

ReminderEmail.PreviewProps = { ...REMINDER_SAMPLE, template: "initial", tone: 1 } satisfies ReminderEmailProps;
