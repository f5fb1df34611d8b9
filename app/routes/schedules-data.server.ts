import type { Db } from "~/db/client.server";
import { isPeriodId, periodRange } from "~/domain/periods";
import { countSchedules, listSchedules, SCHEDULE_PAGE_SIZE, type ScheduleListFilter } from "~/models/schedule.server";

/** The `debtor` and `period` query parameters as a list filter ('' period = all time). */
export function scheduleFilterFromUrl(url: URL, timeZone: string, now = Date.now()) {
  const debtorParam = Number(url.searchParams.get("debtor"));
  const periodParam = url.searchParams.get("period");
  const period = isPeriodId(periodParam) ? periodParam : "";
  const range = period ? periodRange(period, now, timeZone) : null;
  const filter: ScheduleListFilter = {
    debtorId: Number.isInteger(debtorParam) && debtorParam > 0 ? debtorParam : null,
    createdFrom: range?.from ?? null,
    createdBefore: range?.before ?? null,
  };
  return { filter, period };
}

/** One page of the owner's schedules for the URL's filters, with the total; null on a load failure. */
export async function loadSchedulesPage(db: Db, ownerId: string, url: URL, timeZone: string, withTotal: boolean) {
  const { filter, period } = scheduleFilterFromUrl(url, timeZone);
  const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
  try {
    const [schedules, total] = await Promise.all([
      listSchedules(db, ownerId, { ...filter, limit: SCHEDULE_PAGE_SIZE, offset: (page - 1) * SCHEDULE_PAGE_SIZE }),
      withTotal ? countSchedules(db, ownerId, filter) : Promise.resolve(null),
    ]);
    return {
      schedules,
      total,
      page,
      pages: Math.max(1, Math.ceil((total ?? 0) / SCHEDULE_PAGE_SIZE)),
      period,
      error: false,
    };
  } catch (error) {
    console.error("[dunly] schedules failed to load", error);
    return { schedules: [], total: 0, page, pages: 1, period, error: true };
  }
}
