import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, deliveries } from "~/db/schema";
import { DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import { fromCents, toCents } from "~/domain/money";
import type { DebtorInput } from "~/schemas/debtor";
import { type CreateOptions, enforceCap } from "./account-caps.server";

export const DEBTOR_PAGE_SIZE = 50;

export interface DebtorRow {
  id: number;
  kind: "person" | "company";
  fullName: string;
  email: string;
  debtCents: number;
  paidCents: number;
  currency: string;
  activeStrategy: number;
  status: string;
  emailsSent: number;
}

const sentCounts = (db: Db) =>
  db
    .select({ debtorId: deliveries.debtorId, sent: count().as("sent") })
    .from(deliveries)
    .where(eq(deliveries.status, "sent"))
    .groupBy(deliveries.debtorId)
    .as("sent_counts");

/** One page of the owner's debtors with the real count of reminders delivered to each: one query. */
export async function listDebtors(
  db: Db,
  ownerId: string,
  page = { limit: DEBTOR_PAGE_SIZE, offset: 0 },
): Promise<DebtorRow[]> {
  const sent = sentCounts(db);
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
      emailsSent: sql<number>`coalesce(${sent.sent}, 0)`,
    })
    .from(debtors)
    .leftJoin(sent, eq(sent.debtorId, debtors.id))
    .where(eq(debtors.ownerId, ownerId))
    .orderBy(asc(debtors.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countDebtors(db: Db, ownerId: string) {
  const row = await db.select({ n: count() }).from(debtors).where(eq(debtors.ownerId, ownerId)).get();
  return row?.n ?? 0;
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
  };
}

/**
 * Adds the owner's debtor. Throws AccountCapReached (and keeps nothing) when the account already
 * has `max` debtors (ACCOUNT_MAX_DEBTORS).
 */
export async function createDebtor(db: Db, ownerId: string, input: DebtorInput, options: CreateOptions = {}) {
  const now = options.now ?? Date.now();
  const row = await db
    .insert(debtors)
    .values({ ownerId, ...columns(input), createdAt: now, updatedAt: now })
    .returning()
    .get();
  await enforceCap(db, "debtors", ownerId, [row.id], options.max ?? DEFAULT_ACCOUNT_CAPS.debtors);
  return row;
}

/** Updates the owner's debtor; undefined when it is not theirs (nothing changes). */
export async function updateDebtor(db: Db, ownerId: string, id: number, input: DebtorInput, now = Date.now()) {
  return db
    .update(debtors)
    .set({ ...columns(input), updatedAt: now })
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, id)))
    .returning()
    .get();
}

/** Deletes the owner's debtor (their schedules go with it); false when it is not theirs. */
export async function deleteDebtor(db: Db, ownerId: string, id: number) {
  const row = await db
    .delete(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, id)))
    .returning({ id: debtors.id })
    .get();
  return Boolean(row);
}

/** The API shape of a debtor (snake_case names, decimal amounts). */
export function debtorToJson(
  d: Omit<DebtorRow, "emailsSent"> & { ownerId?: string; emailsSent?: number },
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
    emails_sent: d.emailsSent ?? 0,
  };
}

/** The owner's debtors for a select (id, name, tone): one small query, all of them. */
export async function listDebtorOptions(db: Db, ownerId: string) {
  return db
    .select({
      id: debtors.id,
      fullName: debtors.fullName,
      email: debtors.email,
      activeStrategy: debtors.activeStrategy,
    })
    .from(debtors)
    .where(eq(debtors.ownerId, ownerId))
    .orderBy(asc(debtors.fullName), asc(debtors.id))
    .limit(1000);
}
