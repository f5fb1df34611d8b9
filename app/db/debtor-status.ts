import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "./client.server";
import { owesSql } from "./owed";
import { debtors } from "./schema";

/**
 * A debtor's status, written only here, one statement for the caller's batch each:
 * - 'active' and 'paid' follow the ledger: 'paid' once nothing is open or disputed;
 * - 'bouncing' comes from a hard bounce of an active debtor's address, and ends when the user
 *   resumes after changing the address;
 * - 'opted_out' comes from the debtor, and ends only with the user's "Record renewed consent".
 * The ledger never moves a debtor out of 'opted_out' or 'bouncing'.
 */
export type DebtorStatus = "active" | "paid" | "opted_out" | "bouncing";

const activeOrPaid = sql`CASE WHEN ${owesSql(debtors.id)} THEN 'active' ELSE 'paid' END`;

/** After a ledger change to the owner's debtors `which` picks: 'active' or 'paid' by what they owe. */
export function settleStatusStatement(db: Db, ownerId: string, which: SQL | undefined, now: number) {
  return db
    .update(debtors)
    .set({ status: activeOrPaid, updatedAt: now })
    .where(and(eq(debtors.ownerId, ownerId), which, inArray(debtors.status, ["active", "paid"])));
}

/** A hard bounce: the owner's active debtor turns 'bouncing' (returns it; a repeat returns nothing). */
export function bouncingStatement(db: Db, ownerId: string, debtorId: number, now: number) {
  return db
    .update(debtors)
    .set({ status: "bouncing", updatedAt: now })
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId), eq(debtors.status, "active")))
    .returning({ id: debtors.id });
}

/** The owner's bouncing debtors `debtorIds` have a new address: 'active' again. */
export function readdressedStatement(db: Db, ownerId: string, debtorIds: readonly number[], now: number) {
  return db
    .update(debtors)
    .set({ status: "active", updatedAt: now })
    .where(and(eq(debtors.ownerId, ownerId), inArray(debtors.id, [...debtorIds]), eq(debtors.status, "bouncing")));
}

/** The owner's debtors `which` picks opted out (returns those that turned 'opted_out' now). */
export function optedOutStatement(db: Db, ownerId: string, which: SQL | undefined, now: number) {
  return db
    .update(debtors)
    .set({ status: "opted_out", updatedAt: now })
    .where(and(eq(debtors.ownerId, ownerId), which, sql`${debtors.status} <> 'opted_out'`))
    .returning({ id: debtors.id });
}

/** Renewed consent of the owner's opted-out debtors `which` picks: 'active' or 'paid' by what they owe. */
export function consentRenewedStatement(db: Db, ownerId: string, which: SQL | undefined, now: number) {
  return db
    .update(debtors)
    .set({ status: activeOrPaid, updatedAt: now })
    .where(and(eq(debtors.ownerId, ownerId), which, eq(debtors.status, "opted_out")));
}
