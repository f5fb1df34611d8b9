import type { SessionGate } from "~/auth/index.server";
import { countOf } from "~/db/client.server";
import { type Bound, runBound } from "~/db/prepared.server";
import { pageCount, pageOffset } from "~/domain/list-params";

/** A list's statements, ready to batch: the rows from an offset on, and the total. */
export interface ListQueries<T> {
  page(offset: number): Bound<T[]>;
  total: Bound<{ n: number }[]>;
}

/**
 * Page `requested` (already parsed from the URL: `parsePage`, app/domain/list-params.ts) of a list
 * of `pageSize` rows a page, with the total and the number of pages: the loader of /debtors-list
 * and /schedules-list. The page and the total go in one round trip (a D1 batch); a page past the end shows the last one, read again (only a hand-edited or stale URL asks
 * for it). The queries are the session's user's (SESSION_OWNER), read with the session in that batch
 * (docs/decisions/025); null without a valid session.
 */
export async function loadListPage<T>(
  session: SessionGate,
  queries: ListQueries<T>,
  requested: number,
  pageSize: number,
) {
  const pageOf = (n: number) => queries.page(pageOffset(n, pageSize));
  const read = await session.batch([pageOf(requested), queries.total] as const);
  if (!read.user) return null;
  const [requestedRows, counted] = read.rows;
  const total = countOf(counted);
  const pages = pageCount(total, pageSize);
  const page = Math.min(requested, pages);
  const rows = page === requested ? requestedRows : await runBound(pageOf(page), read.user.id);
  return { user: read.user, rows, total, page, pages };
}
