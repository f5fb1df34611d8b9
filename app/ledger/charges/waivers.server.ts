import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { charges, debtorEvents } from "~/db/schema";
import { chargeLabel, isChargeBasis } from "~/domain/late-charges";
import { formatMoney } from "~/domain/money";
import type { OwnerScope } from "~/platform/scope.server";
import { accrueAfterWrite } from "./accrual.server";

/**
 * Waiving a late-payment charge (decisions/065): the user lets a charge go. It is recorded with who
 * (the user's e-mail) and when, and what was still owed then (waived_cents); it owes nothing more,
 * accrues no more, and a payment no longer pays it. Restoring it undoes that: it is owed again
 * and accrues from the invoice's history. Each is one batch with its timeline event
 * ('charge_waived', 'charge_restored': the charge's label and amount). Another user's charge is
 * 'not-found'.
 */

export type WaiverOutcome =
  | { done: true; debtorId: number; label: string; cents: number; currency: string }
  | { error: "not-found" }
  | { error: "unchanged" };

async function ownedCharge(scope: OwnerScope, chargeId: number) {
  return scope.db
    .select({
      id: charges.id,
      debtorId: charges.debtorId,
      kind: charges.kind,
      currency: charges.currency,
      amountCents: charges.amountCents,
      paidCents: charges.paidCents,
      basis: charges.basis,
      waivedAt: charges.waivedAt,
      waivedCents: charges.waivedCents,
    })
    .from(charges)
    .where(and(eq(charges.ownerId, scope.ownerId), eq(charges.id, chargeId)))
    .get();
}

/** The charge's short label in English (the user's timeline), from its stored basis. */
function labelOf(charge: { kind: "interest" | "compensation" | "fee"; basis: string }) {
  const fallback = charge.kind === "interest" ? "Interest" : charge.kind === "fee" ? "Late fee" : "Compensation";
  try {
    const basis: unknown = JSON.parse(charge.basis);
    return isChargeBasis(basis) ? chargeLabel(charge.kind, basis, "en") : fallback;
  } catch {
    return fallback;
  }
}

/** The timeline event of the change, recorded only when `changed` (a condition on charges) holds after it. */
function eventInsert(scope: OwnerScope, chargeId: number, type: string, detail: string) {
  const { db, ownerId, now } = scope;
  return db.insert(debtorEvents).select(
    db
      .select({
        id: sql<number>`null`.as("id"),
        ownerId: charges.ownerId,
        debtorId: charges.debtorId,
        type: sql<string>`${type}`.as("type"),
        detail: sql<string>`${detail}`.as("detail"),
        createdAt: sql<number>`${now}`.as("created_at"),
      })
      .from(charges)
      .where(and(eq(charges.id, chargeId), eq(charges.ownerId, ownerId), eq(charges.updatedAt, now))),
  );
}

/** The owner's charge `chargeId` waived by `by` (the user's e-mail): what is still owed on it is let go. */
export async function waiveCharge(scope: OwnerScope, chargeId: number, by: string): Promise<WaiverOutcome> {
  const { db, ownerId, now } = scope;
  const charge = await ownedCharge(scope, chargeId);
  if (!charge) return { error: "not-found" };
  if (charge.waivedAt !== null) return { error: "unchanged" };
  const label = labelOf(charge);
  const owed = charge.amountCents - charge.paidCents;
  const [updated] = await db.batch([
    db
      .update(charges)
      .set({
        waivedAt: now,
        waivedBy: by,
        waivedCents: sql`${charges.amountCents} - ${charges.paidCents}`,
        updatedAt: now,
      })
      .where(and(eq(charges.id, chargeId), eq(charges.ownerId, ownerId), isNull(charges.waivedAt)))
      .returning({ id: charges.id, waivedCents: charges.waivedCents }),
    eventInsert(scope, chargeId, "charge_waived", `${label}: ${formatMoney(owed, charge.currency)} waived`),
  ]);
  const row = updated[0];
  if (!row) return { error: "unchanged" };
  return { done: true, debtorId: charge.debtorId, label, cents: row.waivedCents ?? owed, currency: charge.currency };
}

/** The owner's waived charge `chargeId` owed again (and accrued again through today). */
export async function restoreCharge(scope: OwnerScope, chargeId: number): Promise<WaiverOutcome> {
  const { db, ownerId, now } = scope;
  const charge = await ownedCharge(scope, chargeId);
  if (!charge) return { error: "not-found" };
  if (charge.waivedAt === null) return { error: "unchanged" };
  const label = labelOf(charge);
  const cents = charge.waivedCents ?? charge.amountCents - charge.paidCents;
  const [updated] = await db.batch([
    db
      .update(charges)
      .set({ waivedAt: null, waivedBy: null, waivedCents: null, updatedAt: now })
      .where(and(eq(charges.id, chargeId), eq(charges.ownerId, ownerId), isNotNull(charges.waivedAt)))
      .returning({ id: charges.id }),
    eventInsert(scope, chargeId, "charge_restored", `${label}: ${formatMoney(cents, charge.currency)} owed again`),
  ]);
  if (updated.length === 0) return { error: "unchanged" };
  await accrueAfterWrite(scope, [charge.debtorId]);
  return { done: true, debtorId: charge.debtorId, label, cents, currency: charge.currency };
}
