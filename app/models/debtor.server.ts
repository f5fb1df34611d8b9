import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { type Bound, bindParam, boundQuery, OWNER_ID, preparedQuery, preparedQueryBy } from "~/db/prepared.server";
import { debtors } from "~/db/schema";
import { DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import {
  DEBTOR_SORTS,
  DEFAULT_DEBTOR_SORT,
  type DebtorSort,
  type SortDirection,
  searchKey,
} from "~/domain/list-params";
import { fromCents, toCents } from "~/domain/money";
import { safeTimeZone } from "~/domain/time-zone";
import { deleteSchedulesOfDebtorStatement } from "~/reminders/lifecycle.server";
import type { DebtorInput } from "~/schemas/debtor";
import { type CreateOptions, enforceCap } from "./account-caps.server";
import { sentCountOf } from "./delivery.server";
import { settleStatements } from "./payment.server";

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
  /** Shown in reminders (docs/architecture.md §10); null: none. */
  invoiceNumber: string | null;
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
const resumableCount = sql<number>`CASE WHEN "debtors"."paid_cents" >= "debtors"."debt_cents" THEN 0 ELSE (SELECT count(*) FROM schedules AS stopped WHERE stopped.debtor_id = "debtors"."id" AND stopped.state = 'COMPLETED' AND stopped.stopped_reason IS NOT NULL AND ("debtors"."status" = 'active' OR stopped.stopped_reason = 'paid')) END`;

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
 * stopped schedules each may resume (app/models/payment.server.ts): one query. Searched by name or
 * e-mail and sorted by name, creation or amount owed (docs/architecture.md §10); oldest first by default.
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
      invoiceNumber: debtors.invoiceNumber,
      emailsSent: sentCountOf("debtor", debtors.id),
      resumable: resumableCount,
    })
    .from(page)
    .innerJoin(debtors, eq(debtors.id, page.id))
    .orderBy(...order);
}

/**
 * The owner's first debtor's id (the dashboard selects it when none is chosen), or null: one read
 * of the index on debtors (owner_id, id).
 */
export async function firstDebtorId(db: Db, ownerId: string): Promise<number | null> {
  const row = await db
    .select({ id: debtors.id })
    .from(debtors)
    .where(eq(debtors.ownerId, ownerId))
    .orderBy(asc(debtors.id))
    .limit(1)
    .get();
  return row?.id ?? null;
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
): { page(offset: number): Bound<DebtorRow[]>; total: Bound<{ n: number }[]> } {
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

/** The owner's debtor, or undefined: another user's id looks exactly like a missing one. */
export async function getDebtor(db: Db, ownerId: string, id: number) {
  return db
    .select()
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, id)))
    .get();
}

function columns(input: DebtorInput) {
  return {
    kind: input.kind,
    fullName: input.full_name,
    email: input.email.toLowerCase(),
    debtCents: toCents(input.debt),
    activeStrategy: input.active_strategy,
    // Absent: a new debtor gets the user's zone, an edit keeps the debtor's.
    ...(input.time_zone ? { timeZone: input.time_zone } : {}),
    // Absent or blank: none (an edit clears it).
    invoiceNumber: input.invoice_number ?? null,
    // Absent: a new debtor gets the account's currency, an edit keeps the debtor's.
    ...(input.currency ? { currency: input.currency } : {}),
  };
}

/**
 * The account's currency, for a debtor added without one (docs/architecture.md §10): that of the owner's most
 * recently added debtor, USD for the first. Kept simple on purpose: no setting of its own.
 */
const accountCurrency = (ownerId: string) =>
  sql<string>`coalesce((SELECT ${debtors.currency} FROM ${debtors} WHERE ${debtors.ownerId} = ${ownerId} ORDER BY ${debtors.id} DESC LIMIT 1), 'USD')`;

/** What a debtor create takes besides the cap: the user's zone, for a debtor added without one. */
export interface CreateDebtorOptions extends CreateOptions {
  /** The signed-in user's IANA zone (the `tz` cookie); UTC when not given or unknown. */
  timeZone?: string;
}

/**
 * Adds the owner's debtor. Throws AccountCapReached (and keeps nothing) when the account already
 * has `max` debtors (ACCOUNT_MAX_DEBTORS).
 */
export async function createDebtor(db: Db, ownerId: string, input: DebtorInput, options: CreateDebtorOptions = {}) {
  const now = options.now ?? Date.now();
  const row = await db
    .insert(debtors)
    .values({
      ownerId,
      timeZone: safeTimeZone(options.timeZone),
      currency: accountCurrency(ownerId),
      ...columns(input),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  await enforceCap(db, "debtors", ownerId, [row.id], options.max ?? DEFAULT_ACCOUNT_CAPS.debtors);
  return row;
}

/**
 * Updates the owner's debtor; undefined when it is not theirs (nothing changes). The new debt is
 * settled against what was paid in the same batch: covered, the debtor is 'paid' and their live
 * schedules complete (`completedScheduleIds`, for the caller to disarm: app/entities/debtors.server.ts);
 * owed again, a 'paid' debtor is 'active' and nothing restarts by itself. One round trip.
 */
export async function updateDebtor(db: Db, ownerId: string, id: number, input: DebtorInput, now = Date.now()) {
  const owned = and(eq(debtors.ownerId, ownerId), eq(debtors.id, id));
  const [updated, , completed, , , [debtor]] = await db.batch([
    db
      .update(debtors)
      .set({ ...columns(input), updatedAt: now })
      .where(owned)
      .returning({ id: debtors.id }),
    ...settleStatements(db, ownerId, id, now, { recomputePaid: false }),
    // After the settle statements: the status as they left it.
    db.select().from(debtors).where(owned),
  ]);
  if (updated.length === 0 || !debtor) return undefined;
  return { debtor, completedScheduleIds: completed.map((s) => s.id) };
}

/**
 * Deletes the owner's debtor and, in the same batch and through the lifecycle's statement, their
 * schedules (`scheduleIds`, for the caller to disarm); undefined when the debtor is not theirs.
 */
export async function deleteDebtor(db: Db, ownerId: string, id: number) {
  const [schedulesGone, deleted] = await db.batch([
    deleteSchedulesOfDebtorStatement(db, ownerId, id),
    db
      .delete(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, id)))
      .returning({ id: debtors.id }),
  ]);
  if (deleted.length === 0) return undefined;
  return { scheduleIds: schedulesGone.map((s) => s.id) };
}

/** The API shape of a debtor (snake_case names, decimal amounts). */
export function debtorToJson(
  d: Omit<DebtorRow, "emailsSent" | "resumable"> & { ownerId?: string; emailsSent?: number },
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
    invoice_number: d.invoiceNumber ?? null,
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
export function debtorChoiceQuery(db: Db, ownerId: string) {
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
