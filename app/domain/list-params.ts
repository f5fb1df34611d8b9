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
export function parsePeriod(value: string | null | undefined): PeriodId | "" {
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
