import { countOf, type Db } from "~/db/client.server";
import { listParams, pageCount, pageOffset, scheduleSearchParams } from "~/domain/list-params";
import { periodRange } from "~/domain/periods";
import { countSchedules, listSchedules, SCHEDULE_PAGE_SIZE, type ScheduleListFilter } from "~/models/schedule.server";

/**
 * The `debtor`, `period`, `q`, `sort` and `dir` query parameters as a list filter ('' period = all
 * time), and the page.
 */
export function scheduleFilterFromUrl(url: URL, timeZone: string, now = Date.now()) {
  const { debtorId, period, page } = listParams(url.searchParams);
  const range = period ? periodRange(period, now, timeZone) : null;
  const filter: ScheduleListFilter = {
    debtorId,
    createdFrom: range?.from ?? null,
    createdBefore: range?.before ?? null,
    ...scheduleSearchParams(url.searchParams),
  };
  return { filter, period, page };
}

/** Page `page` of the owner's schedules that match `filter`, unrun (the list page's and the dashboard's card). */
export function schedulesPage(db: Db, ownerId: string, filter: ScheduleListFilter, page: number) {
  return listSchedules(db, ownerId, {
    ...filter,
    limit: SCHEDULE_PAGE_SIZE,
    offset: pageOffset(page, SCHEDULE_PAGE_SIZE),
  });
}

/** One page of the owner's schedules for the URL's filters, with the total; `error` on a load failure. */
export async function loadSchedulesPage(db: Db, ownerId: string, url: URL, timeZone: string) {
  const { filter, period, page: requested } = scheduleFilterFromUrl(url, timeZone);
  try {
    // The page and the total in one round trip (a D1 batch).
    const [requestedRows, counted] = await db.batch([
      schedulesPage(db, ownerId, filter, requested),
      countSchedules(db, ownerId, filter),
    ]);
    const total = countOf(counted);
    const pages = pageCount(total, SCHEDULE_PAGE_SIZE);
    // A page past the end shows the last one (only a hand-edited or stale URL asks for it).
    const page = Math.min(requested, pages);
    const schedules = page === requested ? requestedRows : await schedulesPage(db, ownerId, filter, page);
    return { schedules, total, page, pages, period, error: false };
  } catch (error) {
    console.error("[dunly] schedules failed to load", error);
    return { schedules: [], total: 0, page: requested, pages: 1, period, error: true };
  }
}
