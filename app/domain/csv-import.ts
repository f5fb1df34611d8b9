import Papa from "papaparse";
import * as v from "valibot";
import { DebtorSchema, TIME_ZONE_MESSAGE } from "~/schemas/debtor";
import { canonicalTimeZone, formatCount } from "./intl";
import { toCents } from "./money";
import { isValidTimeZone } from "./schedule-time";
import { DEFAULT_STRATEGY, STRATEGIES, type Tone } from "./strategies";
import { MAX_TIME_ZONE_LENGTH, safeTimeZone } from "./time-zone";

/**
 * CSV import of debtors (docs/architecture.md §10): the file parsed with papaparse (a string, in the
 * Worker; no workers or streams) and every row validated like the debtor form, with its line
 * number. Pure: the caller passes the existing debtors' addresses and the user's zone.
 */

/** The most data rows one file may have. */
export const MAX_IMPORT_ROWS = 5000;
/** The largest file (or pasted text), in bytes. */
export const MAX_IMPORT_BYTES = 2 * 1024 * 1024;
/** The longest invoice number kept. */
export const MAX_INVOICE_LENGTH = 100;
export const DEFAULT_CURRENCY = "USD";

export const TOO_MANY_ROWS = `The file has more than ${formatCount(MAX_IMPORT_ROWS)} rows. Please split it into smaller files.`;
export const TOO_LARGE = "The file is larger than 2 MB. Please split it into smaller files.";
export const EMPTY_FILE =
  "The file has no rows to import. Please choose a CSV file with a header row and one debtor per row.";

type Column = "name" | "email" | "amount" | "kind" | "strategy" | "currency" | "invoice" | "timeZone";

/** Header names, compared without case, spaces or punctuation ("E-mail" is "email"). */
const ALIASES: Record<Column, readonly string[]> = {
  name: ["name", "fullname", "debtor", "debtorname"],
  email: ["email", "emailaddress", "mail"],
  amount: ["amount", "debt", "amountowed", "owed", "balance"],
  kind: ["kind", "type"],
  strategy: ["strategy", "activestrategy", "tone"],
  currency: ["currency", "currencycode"],
  invoice: ["invoice", "invoicenumber", "invoiceno", "invoiceid"],
  timeZone: ["timezone", "tz", "zone"],
};

const REQUIRED: readonly { column: Column; label: string }[] = [
  { column: "name", label: "name" },
  { column: "email", label: "email" },
  { column: "amount", label: "amount" },
];

const normalizeHeader = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, "");

/** A valid debtor from one row, ready to insert. */
export interface ImportDebtor {
  kind: "person" | "company";
  fullName: string;
  /** Lower-cased. */
  email: string;
  debtCents: number;
  activeStrategy: Tone;
  currency: string;
  invoiceNumber: string | null;
  timeZone: string;
}

export type ImportRowStatus = "ok" | "error" | "duplicate";

export interface ImportRow {
  /** The line of the file the row starts on (the header is line 1). */
  line: number;
  /** What the row says, as written (for the preview). */
  name: string;
  email: string;
  amount: string;
  status: ImportRowStatus;
  /** Why the row is skipped: its errors, or which row or debtor it duplicates. */
  messages: string[];
  /** Only for status 'ok'. */
  debtor?: ImportDebtor;
}

export interface ImportPreview {
  /** Problems with the file as a whole (no header, too many rows): nothing can be imported. */
  fileErrors: string[];
  rows: ImportRow[];
  /** How many rows would be imported. */
  valid: number;
}

export interface ImportOptions {
  /** The user's IANA zone: a row without one gets it. */
  timeZone: string;
  /** The lower-cased addresses of the user's debtors: a row with one of them is a duplicate. */
  existingEmails: ReadonlySet<string>;
}

/** "1,234.50", "$1234.5", "1234": the amount as a number; NaN when it is no amount. */
export function parseAmount(raw: string): number {
  const s = raw.replace(/\s/g, "").replace(/^[$€£]/, "");
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) return Number(s.replaceAll(",", ""));
  if (/^\d+(\.\d+)?$/.test(s) || /^\.\d+$/.test(s)) return Number(s);
  return Number.NaN;
}

const KIND_MESSAGE = "Kind must be person or company";
const STRATEGY_MESSAGE = "Strategy must be 1, 2, 3, Polite, Middle Ground or Aggressive";
const CURRENCY_MESSAGE = "Currency must be a three-letter code such as USD or EUR";
const INVOICE_MESSAGE = `The invoice number can have at most ${MAX_INVOICE_LENGTH} characters`;

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

function parseCurrency(raw: string): string | null {
  const s = raw.trim().toUpperCase();
  if (s === "") return DEFAULT_CURRENCY;
  return /^[A-Z]{3}$/.test(s) ? s : null;
}

/** A zone's canonical spelling ("europe/berlin" → "Europe/Berlin"), or null when Intl does not know it. */
function parseTimeZone(raw: string, fallback: string): string | null {
  const s = raw.trim();
  if (s === "") return fallback;
  if (s.length > MAX_TIME_ZONE_LENGTH || !isValidTimeZone(s)) return null;
  return canonicalTimeZone(s);
}

/** The row as a debtor, or its messages: name, e-mail and amount first, then the other columns. */
function validateRow(cells: Record<Column, string>, zoneOf: (raw: string) => string | null) {
  const kind = parseKind(cells.kind);
  const strategy = parseStrategy(cells.strategy);
  const currency = parseCurrency(cells.currency);
  const invoice = cells.invoice.trim();
  const timeZone = zoneOf(cells.timeZone);
  // Name, e-mail and amount exactly as the debtor form checks them.
  const parsed = v.safeParse(DebtorSchema, {
    kind: kind ?? "person",
    full_name: cells.name,
    email: cells.email,
    debt: parseAmount(cells.amount),
    active_strategy: strategy ?? DEFAULT_STRATEGY,
  });
  const errors: string[] = [];
  if (!parsed.success) {
    const nested = v.flatten<typeof DebtorSchema>(parsed.issues).nested ?? {};
    for (const key of ["full_name", "email", "debt"] as const) {
      const first = nested[key]?.[0];
      if (first) errors.push(first);
    }
  }
  if (!kind) errors.push(KIND_MESSAGE);
  if (!strategy) errors.push(STRATEGY_MESSAGE);
  if (!currency) errors.push(CURRENCY_MESSAGE);
  if (invoice.length > MAX_INVOICE_LENGTH) errors.push(INVOICE_MESSAGE);
  if (!timeZone) errors.push(TIME_ZONE_MESSAGE);
  if (!parsed.success || !kind || !strategy || !currency || !timeZone || errors.length > 0) {
    // A schema issue outside the three fields (none today) still keeps the row out.
    return { errors: errors.length > 0 ? errors : ["This row could not be read"] };
  }
  const debtor: ImportDebtor = {
    kind,
    fullName: parsed.output.full_name,
    email: parsed.output.email.toLowerCase(),
    debtCents: toCents(parsed.output.debt),
    activeStrategy: strategy,
    currency,
    invoiceNumber: invoice === "" ? null : invoice,
    timeZone,
  };
  return { errors, debtor };
}

/** The index of each known column in the header row; unknown columns are ignored. */
function mapHeader(header: readonly string[]) {
  const columns = new Map<Column, number>();
  header.forEach((cell, index) => {
    const name = normalizeHeader(cell);
    for (const [column, aliases] of Object.entries(ALIASES) as [Column, readonly string[]][]) {
      if (!columns.has(column) && aliases.includes(name)) columns.set(column, index);
    }
  });
  return columns;
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

/**
 * Parses and validates a CSV of debtors: a header row (names without case; aliases such as "Full
 * name", "E-mail", "Debt"), then one debtor per row. Each row is 'ok', 'error' (its messages) or
 * 'duplicate' (an address already in the file, or one of the user's debtors'): only 'ok' rows are
 * imported. A file past MAX_IMPORT_BYTES or MAX_IMPORT_ROWS has a file error and no rows.
 */
export function previewDebtorCsv(input: string, options: ImportOptions): ImportPreview {
  if (input.length > MAX_IMPORT_BYTES || byteLength(input) > MAX_IMPORT_BYTES) {
    return { fileErrors: [TOO_LARGE], rows: [], valid: 0 };
  }
  const text = input.replace(/^\uFEFF/, "");
  const defaultZone = safeTimeZone(options.timeZone);
  const lineOf = lineCounter(text);
  // A file names a few zones many times: each is resolved once.
  const zones = new Map<string, string | null>();
  const zoneOf = (raw: string) => {
    let zone = zones.get(raw);
    if (zone === undefined) {
      zone = parseTimeZone(raw, defaultZone);
      zones.set(raw, zone);
    }
    return zone;
  };
  let header: Map<Column, number> | null = null;
  let tooMany = false;
  let cursor = 0;
  const rows: ImportRow[] = [];
  const seen = new Map<string, number>();

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
        header = mapHeader(cells);
        return;
      }
      if (rows.length >= MAX_IMPORT_ROWS) {
        tooMany = true;
        parser.abort();
        return;
      }
      const cell = (column: Column) => {
        const index = header?.get(column);
        return index === undefined ? "" : (cells[index] ?? "");
      };
      const values = Object.fromEntries((Object.keys(ALIASES) as Column[]).map((c) => [c, cell(c)])) as Record<
        Column,
        string
      >;
      const base = { line, name: values.name.trim(), email: values.email.trim(), amount: values.amount.trim() };
      const { errors, debtor } = validateRow(values, zoneOf);
      if (result.errors.some((e) => e.type === "Quotes")) errors.push("A quoted value is not closed on this row");
      if (errors.length > 0 || !debtor) {
        rows.push({ ...base, status: "error", messages: errors });
        return;
      }
      const firstLine = seen.get(debtor.email);
      if (firstLine !== undefined) {
        rows.push({ ...base, status: "duplicate", messages: [`Same e-mail as line ${firstLine}`] });
        return;
      }
      seen.set(debtor.email, line);
      if (options.existingEmails.has(debtor.email)) {
        rows.push({ ...base, status: "duplicate", messages: ["Already one of your debtors (same e-mail)"] });
        return;
      }
      rows.push({ ...base, status: "ok", messages: [], debtor });
    },
  });

  if (tooMany) return { fileErrors: [TOO_MANY_ROWS], rows: [], valid: 0 };
  // Assigned in the step callback, which TypeScript's flow analysis does not follow.
  const columns = header as Map<Column, number> | null;
  if (!columns) return { fileErrors: [EMPTY_FILE], rows: [], valid: 0 };
  const missing = REQUIRED.filter((r) => !columns.has(r.column)).map((r) => r.label);
  if (missing.length > 0) {
    return {
      fileErrors: [
        `The header row has no ${missing.join(", ")} column. The first row must name the columns: name, email, amount, and optionally kind, strategy, currency, invoice number, time zone.`,
      ],
      rows: [],
      valid: 0,
    };
  }
  if (rows.length === 0) return { fileErrors: [EMPTY_FILE], rows: [], valid: 0 };
  return { fileErrors: [], rows, valid: rows.filter((r) => r.status === "ok").length };
}
