import { and, count, desc, eq, gte, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, deliveries } from "~/db/schema";
import { occurrenceKey } from "~/domain/occurrence";
import { localDateString, startOfLocalDay } from "~/domain/schedule-time";
import type { Tone } from "~/domain/strategies";

export const DELIVERY_PAGE_SIZE = 50;

export type Delivery = typeof deliveries.$inferSelect;

/** One occurrence of a schedule, about to be sent. */
export interface Occurrence {
  ownerId: string;
  scheduleId: string;
  debtorId: number;
  scheduledAt: number;
  template: string;
  tone: Tone;
}

/**
 * The delivery row of an occurrence, written before anything is sent: the first claim inserts it
 * ('sending'), a repeated one (unique occurrence key) leaves it and gets the row as it is now.
 */
export async function claimOccurrence(db: Db, occurrence: Occurrence, now = Date.now()): Promise<Delivery> {
  const key = occurrenceKey(occurrence.scheduleId, occurrence.scheduledAt);
  await db
    .insert(deliveries)
    .values({
      ownerId: occurrence.ownerId,
      scheduleId: occurrence.scheduleId,
      debtorId: occurrence.debtorId,
      occurrenceKey: key,
      template: occurrence.template,
      tone: occurrence.tone,
      status: "sending",
      createdAt: now,
    })
    .onConflictDoNothing({ target: deliveries.occurrenceKey });
  const row = await db.select().from(deliveries).where(eq(deliveries.occurrenceKey, key)).get();
  // It is there unless its owner was deleted meanwhile (cascade): then this firing has nothing to do.
  if (!row) throw new Error(`Delivery ${key} vanished after it was claimed`);
  return row;
}

/** The provider accepted the e-mail. */
export async function markDeliverySent(db: Db, id: number, providerId: string | null, sentAt = Date.now()) {
  await db.update(deliveries).set({ status: "sent", providerId, error: null, sentAt }).where(eq(deliveries.id, id));
}

/** The e-mail will not be sent: the error says why. */
export async function markDeliveryFailed(db: Db, id: number, error: string) {
  await db.update(deliveries).set({ status: "failed", error }).where(eq(deliveries.id, id));
}

/** A failed attempt that will be retried: the row stays 'sending', its error visible meanwhile. */
export async function recordDeliveryError(db: Db, id: number, error: string) {
  await db.update(deliveries).set({ error }).where(eq(deliveries.id, id));
}

/** The first instant of the local month `monthsBack` months before the month of `now`. */
function startOfLocalMonth(now: number, timeZone: string, monthsBack = 0) {
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
      providerId: deliveries.providerId,
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
