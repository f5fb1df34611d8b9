import { and, asc, count, desc, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT } from "~/db/chunk";
import type { Bindable, Db } from "~/db/client.server";
import { owesSql } from "~/db/owed";
import { type Bound, bindParam, boundQuery, OWNER_ID, preparedQuery, preparedQueryBy } from "~/db/prepared.server";
import { debtors, invoices, textOptOuts, users } from "~/db/schema";
import { DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import {
  DEBTOR_SORTS,
  DEFAULT_DEBTOR_SORT,
  type DebtorSort,
  type SortDirection,
  searchKey,
} from "~/domain/list-params";
import { fromCents, toCents } from "~/domain/money";
import { parseMobile, TEXT_OPTED_OUT_MESSAGE } from "~/domain/phone";
import { FieldsRefused, TwinFound } from "~/domain/refused";
import { safeTimeZone } from "~/domain/time-zone";
import {
  accrueAfterWrite,
  commitLedgerWrite,
  deleteDebtorDocuments,
  insertInvoiceStatement,
  isNumberTaken,
  readSettled,
  SETTLE_STATEMENTS,
  settleStatements,
} from "~/ledger/index.server";
import { keyAfterAddressChange } from "~/links/index.server";
import { type CreateOptions, enforceCap } from "~/platform/account-caps.server";
import type { DataScope } from "~/platform/scope.server";
import { commit, sentCountOf } from "~/reminders/index.server";
import { CONSENT_NEEDS_PHONE_MESSAGE, type DebtorInput } from "~/schemas/debtor";
import { belowPaidMessage, CURRENCY_PAID_MESSAGE, NUMBER_TAKEN_MESSAGE } from "~/schemas/invoice";

/** The debt of a debtor with several invoices is theirs; the debtor form cannot change it. */
export const SEVERAL_INVOICES_MESSAGE = "This debtor owes several invoices: edit them in the Invoices section.";

/** Rows on a page of /debtors-list (docs/decisions/009-list-page-size.md). */
export const DEBTOR_PAGE_SIZE = 25;

export interface DebtorRow {
  id: number;
  kind: "person" | "company";
  fullName: string;
  email: string;
  debtCents: number;
  paidCents: number;
  currency: string;
  activeStrategy: number;
  status: "active" | "paid" | "opted_out" | "bouncing";
  /** The debtor's IANA zone (their quiet hours). */
  timeZone: string;
  /** The language Dunly writes to them in (app/domain/languages.ts); null: the user's. */
  language: string | null;
  /** The primary contact's name and role (decisions/057); null: none given. */
  contactName: string | null;
  contactRole: string | null;
  /** Late-payment charges (decisions/065): 'on' or 'off' for this debtor; null: the account's. */
  lateCharges: "on" | "off" | null;
  /** The mobile in E.164 (decisions/069); null: none. */
  phone: string | null;
  /** When the user confirmed they may text the debtor, and who (their e-mail); null: no consent. */
  textConsentAt: number | null;
  textConsentBy: string | null;
  /**
   * The number of the invoice the debtor form's debt edits (their only invoice that is not void);
   * null when it has none, or when the debtor has several invoices.
   */
  invoiceNumber: string | null;
  /** Invoices still owed (open or disputed): the lists and pickers show them to tell debtors apart. */
  openInvoices: number;
  /** The earliest due date of their open invoices ("YYYY-MM-DD"), null when none: "Overdue · N days". */
  oldestDueOn: string | null;
  /** Whether the debtor form's debt, currency and number edit one invoice (see invoiceNumber). */
  singleInvoice: boolean;
  emailsSent: number;
  /** Schedules Dunly stopped that the user may resume now that the debt is owed again. */
  resumable: number;
}

/**
 * The schedules Dunly stopped of the outer row's debtor that the user may resume, as resumableWhere
 * in payment.server.ts: none while nothing is owed; any stopped one once the debtor is 'active'
 * again, else only those stopped because the debt was paid. Correlated, so it runs for the rows a
 * page outputs only, inside the covering index schedules (debtor_id, state, stopped_reason); a
 * schedule's debtor is always its owner's (checked when it is written).
 */
const resumableCount = sql<number>`CASE WHEN NOT ${owesSql(sql`"debtors"."id"`)} THEN 0 ELSE (SELECT count(*) FROM schedules AS stopped WHERE stopped.debtor_id = "debtors"."id" AND stopped.state = 'COMPLETED' AND stopped.stopped_reason IS NOT NULL AND ("debtors"."status" = 'active' OR stopped.stopped_reason = 'paid')) END`;

/** The outer row's debtor's invoices still owed, through invoices (debtor_id, status, due_on). */
const openInvoicesCount = sql<number>`(SELECT count(*) FROM invoices AS inv WHERE inv.debtor_id = "debtors"."id" AND inv.status IN ('open', 'disputed'))`;

/** The outer row's debtor's earliest open due date, from the same index (debtor_id, status, due_on). */
const oldestOpenDue = sql<
  string | null
>`(SELECT min(inv.due_on) FROM invoices AS inv WHERE inv.debtor_id = "debtors"."id" AND inv.status = 'open')`;

/**
 * The invoice the debtor form edits, as "<id>:<number>" ("<id>:" without a number), or null when
 * the debtor has several invoices that are not void (or none): then the form's debt is their total
 * and the invoices are edited one by one.
 */
export const editableInvoice = sql<
  string | null
>`(SELECT CASE WHEN count(*) = 1 THEN max(inv.id || ':' || coalesce(inv.number, '')) END FROM invoices AS inv WHERE inv.debtor_id = "debtors"."id" AND inv.status != 'void')`;

/** The editable invoice's number and whether there is one, from editableInvoice's text. */
export function editableOf(editable: string | null) {
  if (editable === null) return { invoiceNumber: null, singleInvoice: false };
  const number = editable.slice(editable.indexOf(":") + 1);
  return { invoiceNumber: number === "" ? null : number, singleInvoice: true };
}

/** A row as listDebtors reads it: debtorRowOf makes it a DebtorRow. */
export type DebtorListRow = Omit<DebtorRow, "invoiceNumber" | "singleInvoice"> & { editableInvoice: string | null };

/** What a debtors list shows: a page, optionally searched, sorted and narrowed to one debtor. */
export interface DebtorListFilter {
  limit?: Bindable<number>;
  offset?: Bindable<number>;
  /** Name or e-mail contains this (case-insensitive for ASCII letters); "" for all. */
  q?: string;
  sort?: DebtorSort;
  dir?: SortDirection;
  /** Only this debtor (the dashboard's selected one when it is past the first page). */
  id?: Bindable<number> | null;
}

/** The owner's debtors that match the filter's search (and id). */
function debtorWhere(ownerId: Bindable<string>, filter: DebtorListFilter) {
  const where: (SQL | undefined)[] = [eq(debtors.ownerId, ownerId)];
  if (filter.id) where.push(eq(debtors.id, filter.id));
  if (filter.q) {
    const key = searchKey(filter.q);
    where.push(sql`(instr(lower(${debtors.fullName}), ${key}) > 0 OR instr(lower(${debtors.email}), ${key}) > 0)`);
  }
  return and(...where);
}

/** The ORDER BY of a debtors list; the id breaks ties so pages never overlap. */
function debtorOrder(sort: DebtorSort = DEFAULT_DEBTOR_SORT, dir: SortDirection = DEBTOR_SORTS[sort]) {
  const by = dir === "desc" ? desc : asc;
  switch (sort) {
    case "name":
      return [by(sql`${debtors.fullName} COLLATE NOCASE`), by(debtors.id)];
    case "owed":
      return [by(sql`${debtors.debtCents} - ${debtors.paidCents}`), by(debtors.id)];
    default:
      return [by(debtors.id)];
  }
}

/**
 * One page of the owner's debtors with the real count of reminders delivered to each and how many
 * stopped schedules each may resume (app/ledger/payments.server.ts): one query. Searched by name or
 * e-mail and sorted by name, creation or amount owed; oldest first by default.
 * Its inner query picks the page's ids through the index on debtors (owner_id, id) (sorting the
 * owner's rows for another order); the outer one reads their columns and counts, so the counts are
 * computed for the page's rows only, whatever the sort. Returned unrun, to await or to batch.
 */
export function listDebtors(db: Db, ownerId: Bindable<string>, filter: DebtorListFilter = {}) {
  const order = debtorOrder(filter.sort, filter.dir);
  const page = db
    .select({ id: debtors.id })
    .from(debtors)
    .where(debtorWhere(ownerId, filter))
    .orderBy(...order)
    .limit(filter.limit ?? DEBTOR_PAGE_SIZE)
    .offset(filter.offset ?? 0)
    .as("page");
  return db
    .select({
      id: debtors.id,
      kind: debtors.kind,
      fullName: debtors.fullName,
      email: debtors.email,
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      currency: debtors.currency,
      activeStrategy: debtors.activeStrategy,
      status: debtors.status,
      timeZone: debtors.timeZone,
      language: debtors.language,
      contactName: debtors.contactName,
      contactRole: debtors.contactRole,
      lateCharges: debtors.lateCharges,
      phone: debtors.phone,
      textConsentAt: debtors.textConsentAt,
      textConsentBy: debtors.textConsentBy,
      // Computed columns are named: unnamed, D1 keys each row's value by the expression's whole SQL
      // text, which the Worker then parses for every row.
      editableInvoice: editableInvoice.as("editable_invoice"),
      openInvoices: openInvoicesCount.as("open_invoices"),
      oldestDueOn: oldestOpenDue.as("oldest_due_on"),
      emailsSent: sentCountOf("debtor", debtors.id).as("emails_sent"),
      resumable: resumableCount.as("resumable"),
    })
    .from(page)
    .innerJoin(debtors, eq(debtors.id, page.id))
    .orderBy(...order);
}

/** A row of listDebtors as the pages and the API take it. */
export function debtorRowOf<T extends { editableInvoice: string | null }>({ editableInvoice: editable, ...row }: T) {
  return { ...row, ...editableOf(editable) };
}

/** One of the owner's debtors as a picker shows it (the chosen one's label): unrun, no row if not theirs. */
export function getDebtorOption(db: Db, ownerId: string, id: number) {
  return db
    .select({ id: debtors.id, fullName: debtors.fullName, email: debtors.email })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, id)))
    .limit(1);
}

/** How many of the owner's debtors match the search (the pager's total): unrun; countOf reads it. */
export function countDebtors(db: Db, ownerId: Bindable<string>, filter: Pick<DebtorListFilter, "q"> = {}) {
  return db.select({ n: count() }).from(debtors).where(debtorWhere(ownerId, filter));
}

/** /debtors-list's page in each order, unsearched: built once per isolate per sort and direction. */
const plainDebtorsPage = preparedQueryBy(
  (shape: { sort?: DebtorSort; dir?: SortDirection }) => `${shape.sort}:${shape.dir}`,
  (db, shape) => listDebtors(db, OWNER_ID, { ...shape, limit: bindParam("limit"), offset: bindParam("offset") }),
);
const plainDebtorsCount = preparedQuery((db) => countDebtors(db, OWNER_ID));

/**
 * One page of /debtors-list (listDebtors) and the total (countDebtors), ready to batch: prepared once
 * per isolate unless searched (a search's SQL is built on the request). `sort` and `dir` must be
 * the validated ones (debtorListParams): each pair is one prepared shape.
 */
export function debtorsListQueries(
  db: Db,
  ownerId: string,
  filter: { q: string; sort: DebtorSort; dir: SortDirection; limit: number },
): { page(offset: number): Bound<DebtorListRow[]>; total: Bound<{ n: number }[]> } {
  if (filter.q) {
    return {
      page: (offset) => boundQuery(db, listDebtors(db, ownerId, { ...filter, offset })),
      total: boundQuery(db, countDebtors(db, ownerId, { q: filter.q })),
    };
  }
  const shape = { sort: filter.sort, dir: filter.dir };
  return {
    page: (offset) => plainDebtorsPage(db, shape, { ownerId, limit: filter.limit, offset }),
    total: plainDebtorsCount(db, { ownerId }),
  };
}

/** At most this many debtors answer one typeahead search. */
export const DEBTOR_OPTIONS_LIMIT = 20;

/** What a debtor picker shows of each debtor (the schedule form's select, the typeahead). */
const DEBTOR_OPTION_COLUMNS = {
  id: debtors.id,
  fullName: debtors.fullName,
  email: debtors.email,
  activeStrategy: debtors.activeStrategy,
  openInvoices: openInvoicesCount,
};

/**
 * The owner's debtors whose name or e-mail contains `q`, by name: the dashboard's debtor typeahead
 * (/debtors/options). One small query over the owner's rows.
 */
export async function searchDebtorOptions(db: Db, ownerId: string, q: string, limit = DEBTOR_OPTIONS_LIMIT) {
  return db
    .select(DEBTOR_OPTION_COLUMNS)
    .from(debtors)
    .where(debtorWhere(ownerId, { q }))
    .orderBy(sql`${debtors.fullName} COLLATE NOCASE`, asc(debtors.id))
    .limit(Math.min(Math.max(limit, 1), DEBTOR_OPTIONS_LIMIT));
}

/** The owner's debtor as the lists show it, unrun (to batch): no row when it is not theirs. */
function debtorRowQuery(db: Db, ownerId: string, id: number) {
  return listDebtors(db, ownerId, { id, limit: 1 });
}

/** The owner's debtor as the lists show it, or undefined: another user's id looks exactly like a missing one. */
export async function getDebtor(db: Db, ownerId: string, id: number): Promise<DebtorRow | undefined> {
  const [row] = await debtorRowQuery(db, ownerId, id);
  return row ? debtorRowOf(row) : undefined;
}

/** The names of the owner's debtors among `ids` (another user's are not there), by name. */
export async function debtorNames(db: Db, ownerId: string, ids: readonly number[]) {
  const slices = chunk([...new Set(ids)], IDS_PER_STATEMENT);
  const rows = await Promise.all(
    slices.map((slice) =>
      db
        .select({ id: debtors.id, name: debtors.fullName })
        .from(debtors)
        .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, slice))),
    ),
  );
  return rows.flat().sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** The debtor's own columns from the form (the debt, currency and number are their invoice's). */
function columns(input: DebtorInput) {
  return {
    kind: input.kind,
    fullName: input.full_name,
    email: input.email.toLowerCase(),
    activeStrategy: input.active_strategy,
    // Absent: a new debtor gets the user's zone, an edit keeps the debtor's.
    ...(input.time_zone ? { timeZone: input.time_zone } : {}),
    // Null: the user's language; absent (the JSON API): a new debtor the user's, an edit the debtor's.
    ...(input.language !== undefined ? { language: input.language } : {}),
    // The primary contact (decisions/057); absent (JSON only): kept as it is.
    ...(input.contact_name !== undefined ? { contactName: input.contact_name } : {}),
    ...(input.contact_role !== undefined ? { contactRole: input.contact_role } : {}),
    // Late-payment charges (decisions/065): 'account' is the account's setting (null).
    ...(input.late_charges !== undefined
      ? { lateCharges: input.late_charges === "account" ? null : input.late_charges }
      : {}),
  };
}

/** The signed-in user's e-mail, read in the statement that records their consent to text. */
const consentBy = (ownerId: string) =>
  sql<string>`(SELECT ${users.email} FROM ${users} WHERE ${users.id} = ${ownerId})`;

/** A new debtor's mobile and consent (decisions/069): consent is recorded with who and when. */
function newTextColumns(input: DebtorInput, ownerId: string, now: number) {
  const phone = input.phone ?? null;
  const consented = phone !== null && input.text_consent === true;
  return {
    phone,
    textConsentAt: consented ? now : null,
    textConsentBy: consented ? consentBy(ownerId) : null,
  };
}

/**
 * An edit's mobile and consent, in the UPDATE itself (decisions/069): consent kept as it was
 * (when and by whom) while the number stays and the box stays ticked; given now when newly ticked
 * or ticked for a new number; cleared when unticked, when the number is removed, or (JSON without
 * `text_consent`) when the number changes. Absent in JSON: the number is kept.
 */
function editTextColumns(input: DebtorInput, ownerId: string, now: number) {
  if (input.phone === undefined && input.text_consent === undefined) return {};
  const phone = input.phone === undefined ? sql`${debtors.phone}` : sql`${input.phone}`;
  const sameNumber = sql`(${debtors.phone} IS ${phone} AND ${debtors.textConsentAt} IS NOT NULL)`;
  const at =
    input.text_consent === false
      ? sql`NULL`
      : input.text_consent === true
        ? sql`CASE WHEN ${phone} IS NULL THEN NULL WHEN ${sameNumber} THEN ${debtors.textConsentAt} ELSE ${now} END`
        : sql`CASE WHEN ${sameNumber} THEN ${debtors.textConsentAt} END`;
  const by =
    input.text_consent === false
      ? sql`NULL`
      : input.text_consent === true
        ? sql`CASE WHEN ${phone} IS NULL THEN NULL WHEN ${sameNumber} THEN ${debtors.textConsentBy} ELSE ${consentBy(ownerId)} END`
        : sql`CASE WHEN ${sameNumber} THEN ${debtors.textConsentBy} END`;
  return {
    ...(input.phone !== undefined ? { phone: input.phone } : {}),
    textConsentAt: at,
    textConsentBy: by,
  };
}

/**
 * The input with its number as E.164 once the library says it is a mobile of its country (the
 * schema checked only its shape); a landline or a number invalid there is the phone field's error.
 */
function withMobile(input: DebtorInput): DebtorInput {
  if (!input.phone) return input;
  const parsed = parseMobile(input.phone);
  if (!parsed.ok) throw new FieldsRefused({ phone: [parsed.message] });
  return { ...input, phone: parsed.e164 };
}

/**
 * Refuses consent to text a number that said STOP (text_opt_outs): the debtor's word wins over the
 * user's; and consent without a number. `phone` undefined (a JSON edit that keeps the number): the debtor's current number.
 */
async function refuseConsentAfterStop(db: Db, ownerId: string, input: DebtorInput, debtorId?: number) {
  if (input.text_consent !== true) return;
  const phone =
    input.phone !== undefined
      ? input.phone
      : debtorId === undefined
        ? null
        : ((
            await db
              .select({ phone: debtors.phone })
              .from(debtors)
              .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
              .get()
          )?.phone ?? null);
  // Consent is to text a number: none without one (a JSON add or edit without a number).
  if (phone === null) throw new FieldsRefused({ text_consent: [CONSENT_NEEDS_PHONE_MESSAGE] });
  const stopped = await db
    .select({ phone: textOptOuts.number })
    .from(textOptOuts)
    .where(and(eq(textOptOuts.ownerId, ownerId), eq(textOptOuts.number, phone)))
    .get();
  if (stopped) throw new FieldsRefused({ text_consent: [TEXT_OPTED_OUT_MESSAGE] });
}

/**
 * The account's currency, for a debtor added without one: the
 * owner's setting in Settings → Info, read in the statement that adds the debtor.
 */
const accountCurrency = (ownerId: string) =>
  sql<string>`coalesce((SELECT ${users.defaultCurrency} FROM ${users} WHERE ${users.id} = ${ownerId}), 'USD')`;

/** What a debtor create takes besides the cap: the user's zone, for a debtor added without one. */
export interface CreateDebtorOptions extends CreateOptions {
  /** The signed-in user's IANA zone (the `tz` cookie); UTC when not given or unknown. */
  timeZone?: string;
  /** Add the debtor even when the account already has one with the same e-mail (the user said so). */
  allowDuplicate?: boolean;
}

/**
 * The owner's debtor with this e-mail (case-insensitive), the oldest when there are several, or
 * undefined: through the index on debtors (owner_id, lower(email)) (migration 0011).
 */
export async function findDebtorByEmail(db: Db, ownerId: string, email: string) {
  return db
    .select({ id: debtors.id, fullName: debtors.fullName })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), sql`lower(${debtors.email}) = ${email.trim().toLowerCase()}`))
    .orderBy(asc(debtors.id))
    .limit(1)
    .get();
}

/** The debtor `ownerId` added last, in the batch that adds them (D1 runs a batch as one transaction). */
const newestDebtorId = (ownerId: string) =>
  sql`(SELECT max(${debtors.id}) FROM ${debtors} WHERE ${debtors.ownerId} = ${ownerId})`;

/**
 * Adds the owner's debtor and their debt as their first invoice (number, currency, due date from
 * the form; issued on `today`, due then unless given), in one batch. Throws TwinFound (and writes
 * nothing) when the account already has a debtor with this e-mail, unless `allowDuplicate`;
 * AccountCapReached (and keeps nothing) when the account already has `max` debtors
 * (ACCOUNT_MAX_DEBTORS); and FieldsRefused when the invoice number is already one of the account's.
 */
export async function createDebtor(
  db: Db,
  ownerId: string,
  typed: DebtorInput,
  options: CreateDebtorOptions & { today?: string } = {},
) {
  const input = withMobile(typed);
  const now = options.now ?? Date.now();
  const today = options.today ?? new Date(now).toISOString().slice(0, 10);
  // Given, else today; a due date already past is the issue date too (an invoice is never due before it is issued).
  const issuedOn = input.issued_on ?? (input.due_on && input.due_on < today ? input.due_on : today);
  if (!options.allowDuplicate) {
    const twin = await findDebtorByEmail(db, ownerId, input.email);
    if (twin) throw new TwinFound(twin);
  }
  await refuseConsentAfterStop(db, ownerId, input);
  let results: unknown[];
  try {
    results = await db.batch([
      db.insert(debtors).values({
        ownerId,
        timeZone: safeTimeZone(options.timeZone),
        currency: input.currency ?? accountCurrency(ownerId),
        ...columns(input),
        ...newTextColumns(input, ownerId, now),
        debtCents: toCents(input.debt),
        createdAt: now,
        updatedAt: now,
      }),
      insertInvoiceStatement(db, eq(debtors.id, newestDebtorId(ownerId)), {
        number: input.invoice_number ?? null,
        amountCents: toCents(input.debt),
        issuedOn,
        dueOn: input.due_on ?? issuedOn,
        now,
      }),
      db
        .select({ id: debtors.id })
        .from(debtors)
        .where(eq(debtors.id, newestDebtorId(ownerId))),
    ]);
  } catch (error) {
    if (isNumberTaken(error)) throw new FieldsRefused({ invoice_number: [NUMBER_TAKEN_MESSAGE] });
    throw error;
  }
  const [{ id }] = results[2] as { id: number }[];
  await enforceCap(db, "debtors", ownerId, [id], options.max ?? DEFAULT_ACCOUNT_CAPS.debtors, options.capMessage);
  // A company whose first invoice is already late is charged from today (decisions/065).
  await accrueAfterWrite({ db, ownerId, now }, [id]);
  const row = await getDebtor(db, ownerId, id);
  if (!row) throw new Error("The debtor just added is missing");
  return row;
}

/** The invoice the debtor form's debt edits (see editableInvoice): the debtor's only one that is not void, or null. */
async function editableInvoiceOf(db: Db, ownerId: string, debtorId: number) {
  const rows = await db
    .select({ id: invoices.id, status: invoices.status, paidCents: invoices.paidCents, currency: invoices.currency })
    .from(invoices)
    .where(and(eq(invoices.ownerId, ownerId), eq(invoices.debtorId, debtorId), ne(invoices.status, "void")))
    .limit(2);
  return rows.length === 1 ? rows[0] : null;
}

/**
 * Updates the owner's debtor; undefined when it is not theirs (nothing changes). The debt,
 * currency and invoice number edit the debtor's one invoice (their only one that is not void): an amount below what was paid on it, a currency other than its payments', or a number the
 * account already uses is refused (FieldsRefused) and nothing changes. A debtor with several
 * invoices keeps them as they are: a debt other than the current one is refused, the invoices are
 * edited one by one. The ledger is settled in the same batch: nothing owed, the debtor is 'paid'
 * and their live schedules complete (`completedScheduleIds`; the lifecycle disarms them); owed again, a 'paid' debtor is 'active' and nothing restarts
 * by itself. Two round trips.
 */
export async function updateDebtor(
  { env, db }: DataScope,
  ownerId: string,
  id: number,
  typed: DebtorInput,
  now = Date.now(),
) {
  const input = withMobile(typed);
  const owned = and(eq(debtors.ownerId, ownerId), eq(debtors.id, id));
  const current = await db
    .select({ debtCents: debtors.debtCents, currency: debtors.currency })
    .from(debtors)
    .where(owned)
    .get();
  if (!current) return undefined;
  await refuseConsentAfterStop(db, ownerId, input, id);
  const invoice = await editableInvoiceOf(db, ownerId, id);
  const debtCents = toCents(input.debt);
  const currency = input.currency ?? invoice?.currency ?? current.currency;
  if (!invoice) {
    if (debtCents !== current.debtCents || currency !== current.currency) {
      throw new FieldsRefused({ debt: [SEVERAL_INVOICES_MESSAGE] });
    }
  } else {
    if (debtCents < invoice.paidCents) {
      throw new FieldsRefused({ debt: [belowPaidMessage(invoice.paidCents, invoice.currency)] });
    }
    if (currency !== invoice.currency && invoice.paidCents > 0) {
      throw new FieldsRefused({ currency: [CURRENCY_PAID_MESSAGE] });
    }
  }
  const written = await commitLedgerWrite(
    { env, db, now },
    (consequences) => [
      db
        .update(debtors)
        // A new address gets a new key: links sent to the old one stop working (keyAfterAddressChange).
        .set({
          ...columns(input),
          ...editTextColumns(input, ownerId, now),
          optOutKey: keyAfterAddressChange(input.email),
          currency,
          updatedAt: now,
        })
        .where(owned)
        .returning({ id: debtors.id }),
      invoice
        ? db
            .update(invoices)
            .set({ amountCents: debtCents, currency, number: input.invoice_number ?? null, updatedAt: now })
            .where(and(eq(invoices.ownerId, ownerId), eq(invoices.id, invoice.id)))
        : db.select({ id: debtors.id }).from(debtors).where(owned),
      ...settleStatements(consequences, db, ownerId, id, now),
      debtorRowQuery(db, ownerId, id),
    ],
    {
      numberTaken: () => {
        throw new FieldsRefused({ invoice_number: [NUMBER_TAKEN_MESSAGE] });
      },
      overPaid: () => {
        throw new FieldsRefused({ debt: [belowPaidMessage(invoice?.paidCents ?? 0, currency)] });
      },
    },
  );
  if ("refused" in written) return written.refused;
  const { results } = written;
  const [updated] = results[0] as { id: number }[];
  const settled = readSettled(results.slice(2, 2 + SETTLE_STATEMENTS));
  const [row] = results[2 + SETTLE_STATEMENTS] as DebtorListRow[];
  if (!updated || !settled || !row) return undefined;
  // Its kind, late-charge setting or invoice may have changed: the charges follow (decisions/065).
  await accrueAfterWrite({ db, ownerId, now }, [id]);
  return { debtor: debtorRowOf(row), completedScheduleIds: settled.completedScheduleIds };
}

/**
 * Deletes the owner's debtor and, in the same batch, their schedules (the lifecycle disarms their
 * alarms); undefined when the debtor is not theirs.
 */
export async function deleteDebtor({ env, db }: DataScope, ownerId: string, id: number, now = Date.now()) {
  const { results, stopped } = await commit({ env, db, now }, (consequences) => [
    consequences({ kind: "debtor-deleted", ownerId, debtorId: id }),
    db
      .delete(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, id)))
      .returning({ id: debtors.id }),
  ]);
  if (results[1].length === 0) return undefined;
  // Their invoices went with them; their PDFs go too.
  await deleteDebtorDocuments(env, ownerId, id);
  return { scheduleIds: stopped };
}

/** The API shape of a debtor (snake_case names, decimal amounts). */
export function debtorToJson(
  d: Omit<DebtorRow, "emailsSent" | "resumable" | "singleInvoice"> & { emailsSent?: number },
  ownerId: string,
) {
  return {
    id: d.id,
    fb_uuid: ownerId,
    kind: d.kind,
    full_name: d.fullName,
    email: d.email,
    debt: fromCents(d.debtCents),
    paid: fromCents(d.paidCents),
    currency: d.currency,
    active_strategy: d.activeStrategy,
    status: d.status,
    time_zone: d.timeZone,
    // The language Dunly writes to them in; null: the user's.
    language: d.language ?? null,
    // The primary contact (decisions/057): the person behind `email`; the others: GET /api/debtors/:id.
    contact_name: d.contactName,
    contact_role: d.contactRole,
    // The mobile in E.164 and the consent to text it (decisions/069): when (ISO) and by whom; null: none.
    phone: d.phone,
    text_consent: d.textConsentAt !== null,
    text_consent_at: d.textConsentAt === null ? null : new Date(d.textConsentAt).toISOString(),
    text_consent_by: d.textConsentBy,
    invoice_number: d.invoiceNumber ?? null,
    open_invoices: d.openInvoices,
    emails_sent: d.emailsSent ?? 0,
  };
}

/** Up to this many debtors, a schedule form lists them all in a plain select (works without JavaScript). */
export const DEBTOR_SELECT_LIMIT = 100;

/**
 * The schedule form's debtor choice: every debtor when the account has at most
 * DEBTOR_SELECT_LIMIT (a select, no JavaScript needed), else none and `searchDebtors: true` (the
 * form searches /debtors/options as the user types): a page never ships more than 100 debtors.
 * One query either way.
 */
export async function debtorChoice(db: Db, ownerId: string) {
  return debtorChoiceOf(await debtorChoiceQuery(db, ownerId));
}

/** debtorChoice's query, unrun (to batch); debtorChoiceOf reads it. */
export function debtorChoiceQuery(db: Db, ownerId: Bindable<string>) {
  return db
    .select(DEBTOR_OPTION_COLUMNS)
    .from(debtors)
    .where(eq(debtors.ownerId, ownerId))
    .orderBy(asc(debtors.fullName), asc(debtors.id))
    .limit(DEBTOR_SELECT_LIMIT + 1);
}

/** The choice from debtorChoiceQuery's rows. */
export function debtorChoiceOf<T>(rows: T[]) {
  const search = rows.length > DEBTOR_SELECT_LIMIT;
  return { debtors: search ? [] : rows, searchDebtors: search };
}
