import { and, count, desc, eq, gte, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, deliveries } from "~/db/schema";
import { localDateString, startOfLocalDay } from "~/domain/schedule-time";

export const DELIVERY_PAGE_SIZE = 50;

/** The first instant of the local month `monthsBack` months before the month of `now`. */
export function startOfLocalMonth(now: number, timeZone: string, monthsBack = 0) {
  const [y, m] = localDateString(now, timeZone).split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) - monthsBack;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  // Noon UTC of the 1st is on the 1st in every zone within ±12 h; take that day's local midnight.
  const firstNoon = Date.UTC(year, month - 1, 1, 12);
  return startOfLocalDay(firstNoon, timeZone);
}

/**
 * Reminders sent to one of the owner's debtors per local month, the last `months` months up to
 * this one, oldest first: the dashboard chart's series. One query over the indexed range.
 */
export async function monthlySentCounts(
  db: Db,
  ownerId: string,
  debtorId: number,
  timeZone: string,
  now = Date.now(),
  months = 6,
) {
  const from = startOfLocalMonth(now, timeZone, months - 1);
  const rows = await db
    .select({ sentAt: deliveries.sentAt })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.ownerId, ownerId),
        eq(deliveries.debtorId, debtorId),
        eq(deliveries.status, "sent"),
        gte(deliveries.createdAt, from),
      ),
    );
  const buckets = Array.from({ length: months }, (_, i) => {
    const start = startOfLocalMonth(now, timeZone, months - 1 - i);
    return { key: localDateString(start, timeZone).slice(0, 7), start, value: 0 };
  });
  for (const row of rows) {
    const key = localDateString(row.sentAt ?? from, timeZone).slice(0, 7);
    const bucket = buckets.find((b) => b.key === key);
    if (bucket) bucket.value += 1;
  }
  const label = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone });
  return buckets.map((b) => ({ month: label.format(b.start), value: b.value }));
}

export interface DeliveryFilter {
  debtorId?: number | null;
  from?: number | null;
  before?: number | null;
  limit?: number;
  offset?: number;
}

function deliveryWhere(ownerId: string, filter: DeliveryFilter) {
  const where = [eq(deliveries.ownerId, ownerId)];
  if (filter.debtorId) where.push(eq(deliveries.debtorId, filter.debtorId));
  if (filter.from != null) where.push(gte(deliveries.createdAt, filter.from));
  if (filter.before != null) where.push(lt(deliveries.createdAt, filter.before));
  return and(...where);
}

/** One page of the owner's deliveries, newest first, with the debtor's name (kept if deleted). */
export async function listDeliveries(db: Db, ownerId: string, filter: DeliveryFilter = {}) {
  return db
    .select({
      id: deliveries.id,
      createdAt: deliveries.createdAt,
      sentAt: deliveries.sentAt,
      template: deliveries.template,
      tone: deliveries.tone,
      status: deliveries.status,
      error: deliveries.error,
      debtorId: deliveries.debtorId,
      debtorName: debtors.fullName,
    })
    .from(deliveries)
    .leftJoin(debtors, eq(debtors.id, deliveries.debtorId))
    .where(deliveryWhere(ownerId, filter))
    .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
    .limit(filter.limit ?? DELIVERY_PAGE_SIZE)
    .offset(filter.offset ?? 0);
}
export type DeliveryRow = Awaited<ReturnType<typeof listDeliveries>>[number];

/** Totals per status for the same filter (the report's summary): one grouped query. */
export async function deliveryTotals(db: Db, ownerId: string, filter: DeliveryFilter = {}) {
  const rows = await db
    .select({ status: deliveries.status, n: count() })
    .from(deliveries)
    .where(deliveryWhere(ownerId, filter))
    .groupBy(deliveries.status);
  const totals = { all: 0, sent: 0, sending: 0, failed: 0, bounced: 0 };
  for (const r of rows) {
    totals[r.status] = r.n;
    totals.all += r.n;
  }
  return totals;
}
