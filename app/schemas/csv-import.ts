import Papa from "papaparse";
import * as v from "valibot";
import { type AmountReading, readAmount } from "~/domain/amount-input";
import { formatCount } from "~/domain/intl";
import type { Language } from "~/domain/languages";
import { toCents } from "~/domain/money";
import { amountExample, DEFAULT_NUMBER_LOCALE } from "~/domain/number-locale";
import type { MobileParse } from "~/domain/phone";
import { DEFAULT_STRATEGY, STRATEGIES, type Tone } from "~/domain/strategies";
import { safeTimeZone } from "~/domain/time-zone";
import { IMPORT_TOO_LARGE, MAX_IMPORT_BYTES } from "~/domain/upload-limits";
import { DebtorJsonSchema } from "~/schemas/debtor";
import {
  CURRENCIES,
  DUE_BEFORE_ISSUE_MESSAGE,
  INVOICE_NUMBER_MAX,
  InvoiceJsonSchema,
  NUMBER_TAKEN_MESSAGE,
} from "~/schemas/invoice";

/**
 * CSV import of debtors and their invoices: the file parsed with
 * papaparse (a string, in the Worker; no workers or streams) and every row validated with the
 * schemas the forms and the JSON API use (DebtorJsonSchema for the debtor's columns,
 * InvoiceJsonSchema for the invoice's), with its line number. Each row is an invoice: rows with the
 * same e-mail (case-insensitive) are invoices of one debtor, created from its first row when the
 * address is new, so a file with one row per debtor imports one debtor each. Pure: the caller
 * passes what the account already has (planImport's options) and the user's zone.
 */

/** The most data rows one file may have. */
export const MAX_IMPORT_ROWS = 5000;
/** A new debtor's currency when their first row has none and no account currency is given. */
export const DEFAULT_CURRENCY = "USD";

export const TOO_MANY_ROWS = `The file has more than ${formatCount(MAX_IMPORT_ROWS)} rows. Please split it into smaller files.`;
export const EMPTY_FILE =
  "The file has no rows to import. Please choose a CSV file with a header row and one debtor or invoice per row.";

/** What a column of the file can import as: one of the debtor's or the invoice's fields. */
export type ImportField =
  | "name"
  | "email"
  | "amount"
  | "kind"
  | "strategy"
  | "currency"
  | "invoice"
  | "timeZone"
  | "language"
  | "contactName"
  | "phone"
  | "issuedOn"
  | "dueOn";

/** The fields a column can import as, in the order the preview offers them, with their labels. */
export const IMPORT_FIELDS: readonly { field: ImportField; label: string }[] = [
  { field: "name", label: "Name" },
  { field: "email", label: "Email" },
  { field: "amount", label: "Amount" },
  { field: "kind", label: "Kind" },
  { field: "strategy", label: "Strategy" },
  { field: "currency", label: "Currency" },
  { field: "invoice", label: "Invoice number" },
  { field: "issuedOn", label: "Issue date" },
  { field: "dueOn", label: "Due date" },
  { field: "timeZone", label: "Time zone" },
  { field: "language", label: "Language" },
  // The primary contact's name: reminders greet them (decisions/057).
  { field: "contactName", label: "Contact person" },
  // The debtor's mobile, in E.164 once read (decisions/069); consent to text is the user's, given on the debtor.
  { field: "phone", label: "Mobile number" },
];
const FIELD_NAMES = IMPORT_FIELDS.map((f) => f.field);

/**
 * Header names as normalizeHeader writes them (no case, accents, spaces or punctuation: "E-mail"
 * is "email", "Fällig am" is "falligam"), with the German, Dutch and French headers spreadsheets
 * and accounting tools commonly write. A header matches a field only when it is one of these:
 * anything else is offered as "Don't import" rather than guessed wrong.
 */
const ALIASES: Record<ImportField, readonly string[]> = {
  name: [
    "name",
    "fullname",
    "debtor",
    "debtorname",
    "client",
    "clientname",
    "customer",
    "customername",
    "company",
    "companyname",
    "contact",
    "contactname",
    "kunde",
    "kundenname",
    "firma",
    "naam",
    "klant",
    "klantnaam",
    "bedrijf",
    "nom",
    "societe",
    "entreprise",
  ],
  email: [
    "email",
    "emailaddress",
    "mail",
    "contactemail",
    "billingemail",
    "emailadresse",
    "mailadresse",
    "emailadres",
    "courriel",
    "adresseemail",
  ],
  amount: [
    "amount",
    "debt",
    "amountowed",
    "owed",
    "balance",
    "amountdue",
    "balancedue",
    "dueamount",
    "total",
    "totaldue",
    "outstanding",
    "outstandingamount",
    "openamount",
    "betrag",
    "offenerbetrag",
    "restbetrag",
    "saldo",
    "bedrag",
    "openstaand",
    "openstaandbedrag",
    "montant",
    "montantdu",
    "solde",
  ],
  kind: ["kind", "type"],
  strategy: ["strategy", "activestrategy", "tone"],
  currency: ["currency", "currencycode", "wahrung", "valuta", "devise"],
  invoice: [
    "invoice",
    "invoicenumber",
    "invoiceno",
    "invoicenr",
    "invoiceid",
    "number",
    "reference",
    "invoicereference",
    "rechnung",
    "rechnungsnummer",
    "rechnungsnr",
    "factuur",
    "factuurnummer",
    "factuurnr",
    "facture",
    "numerodefacture",
    "nfacture",
  ],
  timeZone: ["timezone", "tz", "zone", "zeitzone", "tijdzone", "fuseauhoraire"],
  language: ["language", "lang", "locale", "sprache", "taal", "langue", "idioma"],
  phone: [
    "mobile",
    "mobilenumber",
    "mobilephone",
    "cell",
    "cellphone",
    "phone",
    "phonenumber",
    "telephone",
    "tel",
    "sms",
    "handy",
    "mobil",
    "mobilnummer",
    "telefon",
    "telefonnummer",
    "mobiel",
    "mobielnummer",
    "telefoon",
    "portable",
    "telephoneportable",
  ],
  contactName: ["contactperson", "ansprechpartner", "contactpersoon", "interlocuteur", "attn", "attention"],
  issuedOn: [
    "issuedate",
    "issuedon",
    "issued",
    "invoicedate",
    "dateissued",
    "date",
    "rechnungsdatum",
    "datum",
    "factuurdatum",
    "datedefacture",
    "datefacture",
  ],
  dueOn: [
    "duedate",
    "dueon",
    "due",
    "paymentdue",
    "paymentduedate",
    "fallig",
    "falligam",
    "falligkeit",
    "falligkeitsdatum",
    "vervaldatum",
    "echeance",
    "datedecheance",
    "dateecheance",
  ],
};

/** The fields every import needs a column for, as the mapping's errors name them. */
const REQUIRED: readonly { field: ImportField; what: string }[] = [
  { field: "name", what: "the debtor's name" },
  { field: "email", what: "the email address" },
  { field: "amount", what: "the amount" },
];

/** The most columns a file may have: each is offered in the preview's mapping. */
export const MAX_IMPORT_COLUMNS = 200;
export const TOO_MANY_COLUMNS = `The file has more than ${formatCount(MAX_IMPORT_COLUMNS)} columns. Please remove the columns you do not import.`;
/** A header or sample is shown up to this many characters. */
const SHOWN_CHARS = 60;

const normalizeHeader = (h: string) =>
  h
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

/** The field a header names, or null when no alias matches. */
export function guessField(header: string): ImportField | null {
  const name = normalizeHeader(header);
  for (const { field } of IMPORT_FIELDS) if (ALIASES[field].includes(name)) return field;
  return null;
}

/** Each header's guessed field; of columns that name the same field, the first imports it. */
export function guessMapping(header: readonly string[]): (ImportField | null)[] {
  const taken = new Set<ImportField>();
  return header.map((cell) => {
    const field = guessField(cell);
    if (!field || taken.has(field)) return null;
    taken.add(field);
    return field;
  });
}

/** A mapping as the form sends it: a column's index and the field it imports as ("" for none), as typed. */
export type MappingInput = readonly { index: string; field: string }[];

/** The form field of the column at `index`: `columns[2]`. */
export const mappingFieldName = (index: number) => `columns[${index}]`;
const MAPPING_FIELD = /^columns\[(.*)\]$/s;

/** The mapping a form sends (its `columns[…]` fields, in order); undefined when it sends none. */
export function mappingOfForm(formData: FormData): MappingInput | undefined {
  const entries: { index: string; field: string }[] = [];
  for (const [key, value] of formData) {
    const m = MAPPING_FIELD.exec(key);
    if (m) entries.push({ index: m[1] ?? "", field: typeof value === "string" ? value : "" });
  }
  return entries.length > 0 ? entries : undefined;
}

/** A column of the file as the preview's mapping shows it. */
export interface ImportColumn {
  /** The header cell, trimmed (and shortened past SHOWN_CHARS). */
  header: string;
  /** The first data row's cell, trimmed and shortened alike ("" when the row has none). */
  sample: string;
  /** What it imports as (the user's choice, else the guess); null: not imported. */
  field: ImportField | null;
  /** Why this column's choice cannot stand. */
  error?: string;
}

const shorten = (text: string) => {
  const s = text.trim();
  return s.length > SHOWN_CHARS ? `${s.slice(0, SHOWN_CHARS - 1)}…` : s;
};
/** "Client", or "column 3" when its header is blank. */
const headerName = (header: readonly string[], index: number) => {
  const h = shorten(header[index] ?? "");
  return h ? `"${h}"` : `column ${formatCount(index + 1)}`;
};
const fieldLabel = (field: ImportField) => IMPORT_FIELDS.find((f) => f.field === field)?.label ?? field;
const listed = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/**
 * One column of the form's mapping as sent: its index a column of the file (digits, below the
 * header's length) and its field one of IMPORT_FIELDS or "" (not imported).
 */
const mappingEntrySchema = (width: number) =>
  v.object({
    index: v.pipe(v.string(), v.regex(/^\d{1,6}$/), v.transform(Number), v.maxValue(width - 1)),
    field: v.picklist(["", ...FIELD_NAMES]),
  });

/** What each header cell imports as, and why the mapping cannot stand. */
export interface ColumnMapping {
  /** By the header cell's index: its field, or null when it is not imported. */
  mapping: (ImportField | null)[];
  /** Every problem, each naming the field or the headers it is about (for the Columns section). */
  errors: string[];
  /** The problem of a column's own choice, by its index (beside its select). */
  byColumn: Map<number, string>;
}

/**
 * The mapping of a file's header: the user's choice (`input`, checked with mappingEntrySchema), or
 * else the guess. A bad entry (a stale page or tampering: an unknown field, a column the file does
 * not have) is an error, never a reason for a 500. Then every required field needs a column and
 * no field may have two.
 */
export function readMapping(header: readonly string[], input?: MappingInput): ColumnMapping {
  const errors: string[] = [];
  const byColumn = new Map<number, string>();
  const mapping = input ? header.map((): ImportField | null => null) : guessMapping(header);
  const schema = mappingEntrySchema(header.length);
  for (const entry of input ?? []) {
    const parsed = v.safeParse(schema, entry);
    if (parsed.success) {
      mapping[parsed.output.index] = parsed.output.field || null;
      continue;
    }
    const indexOk = !parsed.issues.some((issue) => issue.path?.[0]?.key === "index");
    if (indexOk) {
      const index = Number(entry.index);
      byColumn.set(index, "Please choose one of the fields in the list");
      errors.push(`Please choose what ${headerName(header, index)} imports as from the list.`);
    } else {
      errors.push(
        `The file has no column "${shorten(entry.index)}" (it has ${formatCount(header.length)}). Please choose the columns again.`,
      );
    }
  }
  for (const { field } of IMPORT_FIELDS) {
    const at = mapping.flatMap((f, i) => (f === field ? [i] : []));
    if (at.length < 2) continue;
    const message = `${listed(at.map((i) => headerName(header, i)))} ${at.length === 2 ? "both" : "all"} import as ${fieldLabel(field)}: please choose one of them.`;
    errors.push(message);
    for (const i of at) if (!byColumn.has(i)) byColumn.set(i, message);
  }
  for (const { field, what } of REQUIRED) {
    if (!mapping.includes(field)) errors.push(`Choose the column that holds ${what}.`);
  }
  return { mapping, errors, byColumn };
}

/** A new debtor, from the first valid row with their e-mail. */
export interface ImportDebtor {
  kind: "person" | "company";
  fullName: string;
  /** Lower-cased. */
  email: string;
  activeStrategy: Tone;
  currency: string;
  timeZone: string;
  /** The language Dunly writes to them in (app/domain/languages.ts); null: the user's. */
  language: Language | null;
  /** The primary contact's name (decisions/057); null: none. */
  contactName: string | null;
  /** The mobile in E.164 (decisions/069); null: none. */
  phone: string | null;
}

/** An invoice from one valid row, ready to insert. */
export interface ImportInvoice {
  /** Its debtor's address, lower-cased: a new debtor of the import, or `debtorId`'s. */
  email: string;
  /** The user's debtor who already has this address; absent: a new debtor of the import. */
  debtorId?: number;
  number: string | null;
  amountCents: number;
  /** Absent: the debtor's. */
  currency: string | null;
  issuedOn: string;
  dueOn: string;
}

export type ImportRowStatus = "ok" | "error" | "duplicate";

export interface ImportRow {
  /** The line of the file the row starts on (the header is line 1). */
  line: number;
  /** What the row says, as written (for the preview). */
  name: string;
  email: string;
  amount: string;
  /** The invoice number, currency and dates, the kind, strategy and zone, as written ("" when the row has none). */
  number: string;
  currency: string;
  issuedOn: string;
  dueOn: string;
  kind: string;
  strategy: string;
  timeZone: string;
  language: string;
  contactName: string;
  phone: string;
  status: ImportRowStatus;
  /** Why the row is skipped: its errors, or which debtor it duplicates. */
  messages: string[];
  /** For an 'ok' row that is not a new debtor of its own: whose invoice it is. */
  note?: string;
  /** Only for status 'ok': the debtor the row would make, and its invoice. */
  debtor?: ImportDebtor;
  invoice?: ImportInvoice;
}

export interface ImportPreview {
  /** Problems with the file as a whole (no header, too many rows): nothing can be imported. */
  fileErrors: string[];
  /** The file's columns and what each imports as (ParsedCsv's). */
  columns: ImportColumn[];
  /** The mapping's problems: no row is read until they are solved. */
  columnErrors: string[];
  rows: ImportRow[];
  /** How many rows would be imported (each an invoice). */
  valid: number;
  /** The debtors the import adds (one per new address), in file order. */
  debtors: ImportDebtor[];
  /** The invoices it adds, in file order. */
  invoices: ImportInvoice[];
  /** How many of the user's debtors get invoices. */
  existingDebtors: number;
}

/** A debtor the account already has, as the import matches rows to it (by lower-cased e-mail). */
export interface ExistingDebtor {
  id: number;
  fullName: string;
  /** How many invoices they already have (the per-debtor cap counts them). */
  invoices: number;
  /** Their invoices that are not void, as "<amount cents>@<due date>": a row matching one was imported before. */
  signatures?: ReadonlySet<string>;
}

export interface ImportOptions {
  /** The user's IANA zone: a row without one gets it. */
  timeZone: string;
  /** "YYYY-MM-DD", the user's today: an invoice's issue date when its row has none. */
  today: string;
  /**
   * The account's currency (Settings → Info): a new debtor's when their
   * first row has none. DEFAULT_CURRENCY when not given.
   */
  currency?: string;
  /** The user's number format: how the amounts are read (DEFAULT_NUMBER_LOCALE when not given). */
  locale?: string;
  /**
   * Whether a number the schema let through is a mobile of its country, and its E.164: the
   * server's `parseMobile` (app/domain/phone.ts), passed in so the page's JavaScript does not carry
   * the library's metadata (decisions/069).
   */
  mobile: (compact: string) => MobileParse;
}

export interface PlanOptions {
  /** The user's debtors with the file's addresses, by lower-cased e-mail (the oldest of each). */
  existing: ReadonlyMap<string, ExistingDebtor>;
  /** The file's invoice numbers the account already uses, each with its debtor's lower-cased address. */
  takenNumbers: ReadonlyMap<string, string>;
  /** The most invoices one debtor may have (MAX_INVOICES_PER_DEBTOR). */
  maxInvoices: number;
}

/**
 * "1,234.50", "$1234.5", "1234" (in the US format): the amount in the user's number format
 * (app/domain/amount-input.ts), a leading currency sign aside; an ambiguous amount ("1,234") or one
 * in another format is refused with its message, never guessed.
 */
export function parseAmount(raw: string, locale: string = DEFAULT_NUMBER_LOCALE): AmountReading {
  return readAmount(raw.trim().replace(/^[$€£]\s*/, ""), locale);
}

const KIND_MESSAGE = "Kind must be person or company";
const STRATEGY_MESSAGE = "Strategy must be 1, 2, 3, Polite, Middle Ground or Aggressive";
const CURRENCY_MESSAGE = `Currency must be one of ${CURRENCIES.join(", ")}`;
const INVOICE_LENGTH_MESSAGE = `The invoice number can have at most ${INVOICE_NUMBER_MAX} characters`;
/** "31.03.2026" (day first) or "03/31/2026" (the US's month first), as the user's number format writes dates. */
export function dateExample(locale: string): string {
  return locale === "en-US" ? "03/31/2026" : "31.03.2026";
}
const issueDateMessage = (locale: string) =>
  `The issue date must be a date written like 2026-03-31 or ${dateExample(locale)}`;
const dueDateMessage = (locale: string) =>
  `The due date must be a date written like 2026-03-31 or ${dateExample(locale)}`;

/**
 * A date cell as the invoice schema reads it ("YYYY-MM-DD"): ISO as it is; "31.03.2026",
 * "31/03/2026" or "31-03-2026" day first, or month first in the US format ("03/31/2026"), with a
 * four-digit year. Anything else is passed on for the schema to refuse.
 */
export function csvDate(raw: string, locale: string): string {
  const s = raw.trim();
  const m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(s);
  if (!m) return s;
  const [a, b, year] = [m[1] ?? "", m[2] ?? "", m[3] ?? ""];
  const [month, day] = locale === "en-US" ? [a, b] : [b, a];
  return `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
}
/**
 * An amount that is no number in the CSV's spellings: a spreadsheet set to a European locale
 * writes "1.234,56" (and separates its cells with semicolons); "greater than 0" would send the
 * user looking for a sign that is not there.
 */
export const amountFormatMessage = (locale: string = DEFAULT_NUMBER_LOCALE) =>
  `The amount must be a number written like ${amountExample(locale)} (your number format)`;
const EXISTING_WITHOUT_NUMBER =
  "Already one of your debtors (same e-mail). To add this row as an invoice of theirs, give it an invoice number.";

function parseKind(raw: string): "person" | "company" | null {
  const s = raw.trim().toLowerCase();
  if (s === "" || s === "person") return "person";
  if (s === "company") return "company";
  return null;
}

function parseStrategy(raw: string): Tone | null {
  const s = raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");
  if (s === "") return DEFAULT_STRATEGY;
  for (const strategy of STRATEGIES) {
    if (s === String(strategy.value) || s === strategy.label.toLowerCase()) return strategy.value;
  }
  return null;
}

/** The first message of each field's issues. */
function firstIssues(issues: readonly v.BaseIssue<unknown>[] | undefined): Record<string, string> {
  const nested = issues ? (v.flatten(issues as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]]).nested ?? {}) : {};
  const first: Record<string, string> = {};
  for (const [key, messages] of Object.entries(nested)) if (messages?.[0]) first[key] = messages[0];
  return first;
}

/** The invoice number's message for a line break or control character (the form's). */
const LINE_MESSAGE_PREFIX = "Please enter the invoice number on one line";

/**
 * The row as a debtor and an invoice, or its messages, in column order: name, e-mail and amount
 * first. The debtor's columns go through DebtorJsonSchema and the invoice's through
 * InvoiceJsonSchema, the form's and the API's own checks; only the CSV's friendlier spellings (a
 * strategy's name, "$1,234.50") are read first, and a message names its column where the schema's
 * would not.
 */
function validateRow(
  cells: Record<ImportField, string>,
  defaultZone: string,
  today: string,
  defaultCurrency: string,
  locale: string,
  mobile: ImportOptions["mobile"],
) {
  const kind = parseKind(cells.kind);
  const strategy = parseStrategy(cells.strategy);
  const reading = parseAmount(cells.amount, locale);
  const amount = reading.ok ? reading.value : Number.NaN;
  const debtor = v.safeParse(DebtorJsonSchema, {
    kind: kind ?? "person",
    full_name: cells.name,
    email: cells.email,
    // The amount is the invoice's (checked below): any valid one stands in here.
    debt: 1,
    active_strategy: strategy ?? DEFAULT_STRATEGY,
    time_zone: cells.timeZone,
    language: cells.language,
    contact_name: cells.contactName,
    phone: cells.phone,
  });
  const invoice = v.safeParse(InvoiceJsonSchema, {
    number: cells.invoice,
    amount: Number.isNaN(amount) ? cells.amount : amount,
    currency: cells.currency,
    issued_on: csvDate(cells.issuedOn, locale),
    due_on: csvDate(cells.dueOn, locale),
  });
  const d = firstIssues(debtor.issues);
  const i = firstIssues(invoice.issues);
  const errors: string[] = [];
  const add = (message: string | undefined | false) => {
    if (message && !errors.includes(message)) errors.push(message);
  };
  add(d.full_name);
  add(d.email);
  // An ambiguous amount or one in another format says so, with its readings; a negative or zero
  // number keeps the schema's "greater than 0"; any other unreadable cell is told how to write it.
  const negative = /^-\d+([.,]\d+)?$/.test(cells.amount.trim());
  if (!reading.ok && "message" in reading) add(reading.message);
  else if (!reading.ok && reading.reason === "malformed" && !negative) add(amountFormatMessage(locale));
  else add(i.amount);
  add(!kind && KIND_MESSAGE);
  add(!strategy && STRATEGY_MESSAGE);
  add(i.currency && CURRENCY_MESSAGE);
  // One line first: a long number with a line break gets the form's own message.
  add(i.number && (i.number === LINE_MESSAGE_PREFIX ? i.number : INVOICE_LENGTH_MESSAGE));
  add(d.time_zone);
  add(d.language);
  add(d.contact_name && `Contact person: ${d.contact_name}`);
  const phone = debtor.success && debtor.output.phone ? mobile(debtor.output.phone) : null;
  add(d.phone && `Mobile number: ${d.phone}`);
  add(phone !== null && !phone.ok && `Mobile number: ${phone.message}`);
  add(i.issued_on && issueDateMessage(locale));
  add(i.due_on && (i.due_on === DUE_BEFORE_ISSUE_MESSAGE ? i.due_on : dueDateMessage(locale)));
  if (!debtor.success || !invoice.success || !kind || !strategy || errors.length > 0) {
    // A schema issue outside these columns (none today) still keeps the row out.
    return { errors: errors.length > 0 ? errors : ["This row could not be read"] };
  }
  const { output } = invoice;
  // As an invoice added by hand: issued today unless given (or the due date, when that is earlier).
  const issuedOn = output.issued_on ?? (output.due_on && output.due_on < today ? output.due_on : today);
  const email = debtor.output.email.toLowerCase();
  return {
    errors,
    debtor: {
      kind,
      fullName: debtor.output.full_name,
      email,
      activeStrategy: strategy,
      currency: output.currency ?? defaultCurrency,
      timeZone: debtor.output.time_zone ?? defaultZone,
      language: debtor.output.language ?? null,
      contactName: debtor.output.contact_name ?? null,
      phone: phone?.ok ? phone.e164 : null,
    } satisfies ImportDebtor,
    invoice: {
      email,
      number: output.number ?? null,
      amountCents: toCents(output.amount),
      currency: output.currency ?? null,
      issuedOn,
      dueOn: output.due_on ?? issuedOn,
    } satisfies ImportInvoice,
  };
}

/** Counts lines incrementally: the line an offset is on, for offsets that only grow. */
function lineCounter(text: string) {
  let at = 0;
  let line = 1;
  return (offset: number) => {
    for (; at < offset && at < text.length; at++) if (text.charCodeAt(at) === 10) line++;
    return line;
  };
}

const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;

/** The file read and each row checked on its own: planImport then matches the rows to debtors. */
export interface ParsedCsv {
  fileErrors: string[];
  /** The header's columns, each with its sample and field ([] when the file has no header). */
  columns: ImportColumn[];
  /** The mapping's problems (readMapping): the rows are not checked until they are solved. */
  columnErrors: string[];
  rows: ImportRow[];
}

const fileRefused = (message: string): ParsedCsv => ({
  fileErrors: [message],
  columns: [],
  columnErrors: [],
  rows: [],
});

/**
 * Parses and validates a CSV of debtors or invoices: a header row, then one debtor or invoice per
 * row. Each header cell imports as the field `options.columns` gives it, or else as the one its
 * name suggests (guessField: "Client", "E-mail", "Amount due"). Each row is 'ok' (with the debtor
 * and invoice it makes) or 'error' (its messages). A mapping without a required field, or with a
 * field twice, has columnErrors and no rows; a file past MAX_IMPORT_BYTES, MAX_IMPORT_ROWS or
 * MAX_IMPORT_COLUMNS has a file error and no rows.
 */
export function parseDebtorCsv(input: string, options: ImportOptions & { columns?: MappingInput }): ParsedCsv {
  if (input.length > MAX_IMPORT_BYTES || byteLength(input) > MAX_IMPORT_BYTES) return fileRefused(IMPORT_TOO_LARGE);
  const text = input.replace(/^\uFEFF/, "");
  const defaultZone = safeTimeZone(options.timeZone);
  const lineOf = lineCounter(text);
  let header: string[] | null = null;
  let chosen: ColumnMapping | null = null;
  let indexOf = new Map<ImportField, number>();
  let sample: string[] | null = null;
  let dataRows = 0;
  let refusal: string | null = null;
  let cursor = 0;
  const rows: ImportRow[] = [];

  Papa.parse<string[]>(text, {
    skipEmptyLines: "greedy",
    step: (result, parser) => {
      // The row starts after the previous one, past blank lines.
      let start = cursor;
      while (start < text.length && /\s/.test(text.charAt(start))) start++;
      cursor = result.meta.cursor;
      const line = lineOf(start);
      const cells = result.data;
      if (!header) {
        header = cells;
        if (cells.length > MAX_IMPORT_COLUMNS) {
          refusal = TOO_MANY_COLUMNS;
          parser.abort();
          return;
        }
        chosen = readMapping(cells, options.columns);
        indexOf = new Map(chosen.mapping.flatMap((field, index) => (field ? [[field, index] as const] : [])));
        return;
      }
      sample ??= cells;
      if (dataRows >= MAX_IMPORT_ROWS) {
        refusal = TOO_MANY_ROWS;
        parser.abort();
        return;
      }
      dataRows++;
      // Rows are read with a mapping that stands; until then they are only counted.
      if (chosen && chosen.errors.length > 0) return;
      const cell = (field: ImportField) => {
        const index = indexOf.get(field);
        return index === undefined ? "" : (cells[index] ?? "");
      };
      const values = Object.fromEntries(FIELD_NAMES.map((f) => [f, cell(f)])) as Record<ImportField, string>;
      const base = {
        line,
        name: values.name.trim(),
        email: values.email.trim(),
        amount: values.amount.trim(),
        number: values.invoice.trim(),
        currency: values.currency.trim(),
        issuedOn: values.issuedOn.trim(),
        dueOn: values.dueOn.trim(),
        kind: values.kind.trim(),
        strategy: values.strategy.trim(),
        timeZone: values.timeZone.trim(),
        language: values.language.trim(),
        contactName: values.contactName.trim(),
        phone: values.phone.trim(),
      };
      const { errors, debtor, invoice } = validateRow(
        values,
        defaultZone,
        options.today,
        options.currency ?? DEFAULT_CURRENCY,
        options.locale ?? DEFAULT_NUMBER_LOCALE,
        options.mobile,
      );
      if (result.errors.some((e) => e.type === "Quotes")) errors.push("A quoted value is not closed on this row");
      if (errors.length > 0 || !debtor || !invoice) {
        rows.push({ ...base, status: "error", messages: errors });
        return;
      }
      rows.push({ ...base, status: "ok", messages: [], debtor, invoice });
    },
  });

  if (refusal) return fileRefused(refusal);
  // Assigned in the step callback, which TypeScript's flow analysis does not follow.
  const cellsOfHeader = header as string[] | null;
  const mapping = chosen as ColumnMapping | null;
  const first = sample as string[] | null;
  if (!cellsOfHeader || !mapping || dataRows === 0) return fileRefused(EMPTY_FILE);
  const columns = cellsOfHeader.map(
    (cell, index): ImportColumn => ({
      header: shorten(cell),
      sample: shorten(first?.[index] ?? ""),
      field: mapping.mapping[index] ?? null,
      ...(mapping.byColumn.has(index) ? { error: mapping.byColumn.get(index) } : {}),
    }),
  );
  return { fileErrors: [], columns, columnErrors: mapping.errors, rows };
}

/** The addresses and invoice numbers of a parsed file's valid rows: what planImport needs the account's answer on. */
export function importKeys(parsed: ParsedCsv) {
  const emails = new Set<string>();
  const numbers = new Set<string>();
  for (const row of parsed.rows) {
    if (!row.invoice) continue;
    emails.add(row.invoice.email);
    if (row.invoice.number) numbers.add(row.invoice.number);
  }
  return { emails: [...emails], numbers: [...numbers] };
}

/**
 * Matches the valid rows to debtors, in file order. A row with a new address makes a debtor (from
 * that row's name, kind, strategy, currency and zone) and its first invoice; a later row with the
 * same address (any case) is another invoice of that debtor. A row with the address of one of the
 * user's debtors is an invoice of theirs when it has an invoice number; without one it is a
 * 'duplicate' and skipped, so importing a file of debtors again adds nothing twice. An invoice
 * number the account already uses, or an earlier row of the file, is an error, and so is an
 * invoice past `maxInvoices` for its debtor.
 */
export function planImport(parsed: ParsedCsv, options: PlanOptions): ImportPreview {
  const { fileErrors, columns, columnErrors } = parsed;
  if (fileErrors.length > 0 || columnErrors.length > 0) {
    return { fileErrors, columns, columnErrors, rows: [], valid: 0, debtors: [], invoices: [], existingDebtors: 0 };
  }
  const firstLine = new Map<string, { line: number; debtor: ImportDebtor }>();
  const numberLine = new Map<string, number>();
  const invoiceCount = new Map<string, number>();
  const touched = new Set<number>();
  const debtors: ImportDebtor[] = [];
  const invoices: ImportInvoice[] = [];
  const rows = parsed.rows.map((row): ImportRow => {
    const { debtor, invoice, ...shown } = row;
    if (!debtor || !invoice) return row;
    const error = (messages: string[]): ImportRow => ({ ...shown, status: "error", messages });
    const existing = options.existing.get(invoice.email);
    const duplicate = (message: string): ImportRow => ({ ...shown, status: "duplicate", messages: [message] });
    if (existing && !invoice.number) {
      // The same amount and due date for the same address: this row was imported before.
      if (existing.signatures?.has(`${invoice.amountCents}@${invoice.dueOn}`))
        return duplicate(`Already imported: ${existing.fullName} has this invoice (same amount and due date).`);
      return duplicate(EXISTING_WITHOUT_NUMBER);
    }
    if (invoice.number) {
      const takenBy = options.takenNumbers.get(invoice.number);
      // The same number of the same debtor: imported before, added nothing twice. Another debtor's: an error.
      if (takenBy === invoice.email) return duplicate(`Already imported: invoice ${invoice.number} is already yours.`);
      if (takenBy !== undefined) return error([NUMBER_TAKEN_MESSAGE]);
      const earlier = numberLine.get(invoice.number);
      if (earlier !== undefined) return error([`Same invoice number as line ${earlier}`]);
    }
    const count = invoiceCount.get(invoice.email) ?? existing?.invoices ?? 0;
    if (count >= options.maxInvoices) {
      return error([
        `This debtor would have more than ${formatCount(options.maxInvoices)} invoices, the most one debtor can have.`,
      ]);
    }
    invoiceCount.set(invoice.email, count + 1);
    if (invoice.number) numberLine.set(invoice.number, row.line);
    if (existing) {
      touched.add(existing.id);
      const theirs = { ...invoice, debtorId: existing.id };
      invoices.push(theirs);
      return {
        ...shown,
        note: `An invoice of ${existing.fullName}, already one of your debtors`,
        debtor,
        invoice: theirs,
      };
    }
    const first = firstLine.get(invoice.email);
    // A new debtor's rows without a currency are in the debtor's (their first row's).
    invoices.push(first ? invoice : { ...invoice, currency: invoice.currency ?? debtor.currency });
    // Another invoice of a debtor of an earlier row: that row's debtor, whatever this row's other columns say.
    if (first) {
      const note = `An invoice of ${first.debtor.fullName} (line ${first.line})`;
      return { ...shown, note, debtor: first.debtor, invoice };
    }
    firstLine.set(invoice.email, { line: row.line, debtor });
    debtors.push(debtor);
    return { ...shown, debtor, invoice };
  });
  return {
    fileErrors: [],
    columns,
    columnErrors: [],
    rows,
    valid: invoices.length,
    debtors,
    invoices,
    existingDebtors: touched.size,
  };
}

/** parseDebtorCsv, then planImport: the preview of a file for an account. */
export function previewDebtorCsv(
  input: string,
  options: ImportOptions & PlanOptions & { columns?: MappingInput },
): ImportPreview {
  return planImport(parseDebtorCsv(input, options), options);
}
