import { isPeriodId, type PeriodId } from "./periods";

/** The highest page a URL may ask for where the count is not known: keeps every offset small. */
export const MAX_PAGE = 100_000;

/** The filters and page of a list as its URL gives them, each already safe to use. */
export interface ListParams {
  page: number;
  debtorId: number | null;
  /** "" is all time. */
  period: PeriodId | "";
}

/**
 * `?page=`: a whole page from 1 up to `lastPage` (MAX_PAGE when the count is not known). Anything
 * that is not a number is page 1; fractions round down; a page past the end is the last one.
 */
export function parsePage(value: string | null | undefined, lastPage = MAX_PAGE): number {
  const n = Number(value);
  if (Number.isNaN(n)) return 1;
  return Math.max(1, Math.min(Math.floor(n), lastPage, MAX_PAGE));
}

/** `?debtor=`: a row id (digits only, a positive safe integer) or null for "all debtors". */
export function parseDebtorId(value: string | null | undefined): number | null {
  const digits = value?.trim() ?? "";
  if (!/^\d{1,15}$/.test(digits)) return null;
  const id = Number(digits);
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/** `?period=`: one of the period dropdown's ids, or "" (all time) for anything else. */
function parsePeriod(value: string | null | undefined): PeriodId | "" {
  return isPeriodId(value) ? value : "";
}

/** A list's page, debtor and period from its URL's query string. */
export function listParams(search: URLSearchParams): ListParams {
  return {
    page: parsePage(search.get("page")),
    debtorId: parseDebtorId(search.get("debtor")),
    period: parsePeriod(search.get("period")),
  };
}

/** How many pages `total` rows fill (at least one, so an empty list is "page 1 of 1"). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** The rows a page skips. */
export function pageOffset(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

/** The longest search a list takes; longer text is cut (a URL cannot make a query unbounded). */
const MAX_QUERY_LENGTH = 100;

/** `?q=`: the search text, trimmed and cut to MAX_QUERY_LENGTH; "" for none. */
export function parseQuery(value: string | null | undefined): string {
  return (value ?? "").trim().slice(0, MAX_QUERY_LENGTH);
}

/**
 * The search text as the lists compare it: `instr(lower(column), key) > 0`. SQLite's lower() folds
 * only ASCII letters, so only those are folded here too (the same case-insensitivity LIKE has).
 * Not LIKE: D1 refuses LIKE patterns over 50 bytes, and instr has no wildcards, so `%` and `_`
 * match only themselves.
 */
export function searchKey(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

export type SortDirection = "asc" | "desc";

/** A list's order: one of its sort keys and a direction. */
interface ListSort<K extends string> {
  sort: K;
  dir: SortDirection;
}

/**
 * `?sort=` and `?dir=`: a key among `keys` (else `fallback.sort`) and "asc" or "desc" (else the
 * key's own default direction from `defaults`, or the fallback's).
 */
function parseSort<K extends string>(
  sort: string | null | undefined,
  dir: string | null | undefined,
  keys: Readonly<Record<K, SortDirection>>,
  fallback: K,
): ListSort<K> {
  const key = sort && Object.hasOwn(keys, sort) ? (sort as K) : fallback;
  const direction = dir === "asc" || dir === "desc" ? dir : keys[key];
  return { sort: key, dir: direction };
}

/** The debtors list's orders and the direction each starts in: name A–Z, oldest first, most owed first. */
export const DEBTOR_SORTS = { name: "asc", created: "asc", owed: "desc" } as const satisfies Record<
  string,
  SortDirection
>;
export type DebtorSort = keyof typeof DEBTOR_SORTS;
export const DEFAULT_DEBTOR_SORT: DebtorSort = "created";

/** The schedules list's orders: newest first, soonest next run first, debtor A–Z. */
export const SCHEDULE_SORTS = { created: "desc", next: "asc", debtor: "asc" } as const satisfies Record<
  string,
  SortDirection
>;
export type ScheduleSort = keyof typeof SCHEDULE_SORTS;
export const DEFAULT_SCHEDULE_SORT: ScheduleSort = "created";

/** The debtors list's search, order and page from its URL. */
export function debtorListParams(search: URLSearchParams) {
  return {
    page: parsePage(search.get("page")),
    q: parseQuery(search.get("q")),
    ...parseSort(search.get("sort"), search.get("dir"), DEBTOR_SORTS, DEFAULT_DEBTOR_SORT),
  };
}

/** The schedules list's search and order from its URL (the page, debtor and period: listParams). */
export function scheduleSearchParams(search: URLSearchParams) {
  return {
    q: parseQuery(search.get("q")),
    ...parseSort(search.get("sort"), search.get("dir"), SCHEDULE_SORTS, DEFAULT_SCHEDULE_SORT),
  };
}
