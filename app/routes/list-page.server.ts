import { countOf, type Db } from "~/db/client.server";
import { type Bound, runBatch, runBound } from "~/db/prepared.server";
import { pageCount, pageOffset } from "~/domain/list-params";

/** A list's statements, ready to batch: the rows from an offset on, and the total. */
export interface ListQueries<T> {
  page(offset: number): Bound<T[]>;
  total: Bound<{ n: number }[]>;
}

/**
 * Page `requested` (already parsed from the URL: `parsePage`, app/domain/list-params.ts) of a list
 * of `pageSize` rows a page, with the total and the number of pages: the loader of /debtors-list
 * and /schedules-list. The page and the total go in one round trip (a D1 batch, docs/architecture.md
 * §12); a page past the end shows the last one, read again (only a hand-edited or stale URL asks
 * for it).
 */
export async function loadListPage<T>(db: Db, queries: ListQueries<T>, requested: number, pageSize: number) {
  const pageOf = (n: number) => queries.page(pageOffset(n, pageSize));
  const [requestedRows, counted] = await runBatch(db, [pageOf(requested), queries.total] as const);
  const total = countOf(counted);
  const pages = pageCount(total, pageSize);
  const page = Math.min(requested, pages);
  const rows = page === requested ? requestedRows : await runBound(pageOf(page));
  return { rows, total, page, pages };
}
