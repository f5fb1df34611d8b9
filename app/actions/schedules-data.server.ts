import type { SessionGate } from "~/auth/index.server";
import type { Db } from "~/db/client.server";
import { bindParam, boundQuery, OWNER_ID, preparedQueryBy, SESSION_OWNER } from "~/db/prepared.server";
import type { ScheduleSort, SortDirection } from "~/domain/list-params";
import { listParams, pageOffset, scheduleSearchParams } from "~/domain/list-params";
import { periodRange } from "~/domain/periods";
import {
  countSchedules,
  listSchedules,
  SCHEDULE_PAGE_SIZE,
  type ScheduleListFilter,
  withNextRunWhat,
} from "~/reminders/index.server";
import { loadListPage } from "./list-page.server";

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

/** An unsearched, unfiltered list's shape (sort, direction, one debtor or all): few, bounded. */
interface PlainShape {
  byDebtor: boolean;
  sort?: ScheduleSort;
  dir?: SortDirection;
}
const shapeKey = (shape: PlainShape) => `${shape.byDebtor}:${shape.sort}:${shape.dir}`;
const filterOf = (shape: PlainShape): ScheduleListFilter => ({
  debtorId: shape.byDebtor ? bindParam("debtorId") : null,
  sort: shape.sort,
  dir: shape.dir,
});
const plainPage = preparedQueryBy(shapeKey, (db, shape: PlainShape) =>
  listSchedules(db, OWNER_ID, { ...filterOf(shape), limit: SCHEDULE_PAGE_SIZE, offset: bindParam("offset") }),
);
const plainCount = preparedQueryBy(shapeKey, (db, shape: PlainShape) => countSchedules(db, OWNER_ID, filterOf(shape)));

/** The prepared shape of `filter`, or null when a search or a period makes its SQL the request's own. */
function plainShape(filter: ScheduleListFilter): PlainShape | null {
  if (filter.q || filter.createdFrom != null || filter.createdBefore != null || filter.namePrefix) return null;
  return { byDebtor: Boolean(filter.debtorId), sort: filter.sort, dir: filter.dir };
}

/**
 * Page `page` of the owner's schedules that match `filter`, ready to batch (the list page's and the
 * dashboard's card): prepared once per isolate per sort, direction and debtor-or-all (its SQL is
 * built on the request when searched or narrowed to a period). `sort` and `dir` must be validated.
 */
export function schedulesPage(db: Db, ownerId: string, filter: ScheduleListFilter, page: number) {
  return schedulesFrom(db, ownerId, filter, pageOffset(page, SCHEDULE_PAGE_SIZE));
}

/** A page of the owner's schedules that match `filter` from `offset` on; as schedulesPage. */
function schedulesFrom(db: Db, ownerId: string, filter: ScheduleListFilter, offset: number) {
  const shape = plainShape(filter);
  if (!shape) return boundQuery(db, listSchedules(db, ownerId, { ...filter, limit: SCHEDULE_PAGE_SIZE, offset }));
  return plainPage(db, shape, { ownerId, debtorId: filter.debtorId, offset });
}

/** How many of the owner's schedules match `filter` (the pager's total), ready to batch; as schedulesPage. */
function schedulesTotal(db: Db, ownerId: string, filter: ScheduleListFilter) {
  const shape = plainShape(filter);
  if (!shape) return boundQuery(db, countSchedules(db, ownerId, filter));
  return plainCount(db, shape, { ownerId, debtorId: filter.debtorId });
}

/**
 * One page of the session's user's schedules for the URL's filters, with the total, read with the
 * session in one batch (docs/decisions/025); `error` on a load failure; null without a valid session.
 */
export async function loadSchedulesPage(session: SessionGate, db: Db, url: URL, timeZone: string) {
  const { filter, period, page: requested } = scheduleFilterFromUrl(url, timeZone);
  try {
    const queries = {
      page: (offset: number) => schedulesFrom(db, SESSION_OWNER, filter, offset),
      total: schedulesTotal(db, SESSION_OWNER, filter),
    };
    const read = await loadListPage(session, queries, requested, SCHEDULE_PAGE_SIZE);
    if (!read) return null;
    const { rows, total, page, pages } = read;
    return { schedules: withNextRunWhat(rows), total, page, pages, period, error: false };
  } catch (error) {
    console.error("[dunly] schedules failed to load", error);
    if (!(await session.user())) return null;
    return { schedules: [], total: 0, page: requested, pages: 1, period, error: true };
  }
}
