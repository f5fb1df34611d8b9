import { and, asc, eq, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { charges, invoices } from "~/db/schema";
import { type ChargeKind, parseBasis } from "~/domain/statement-charges";

/**
 * Reads of late-payment charges for the screens that show them to the debtor (decisions/067): the
 * debtor's page and its statement PDF. The charges helper's code writes them (accrual, payments,
 * waivers); this only reads. Every read is the owner's debtor's, through charges_owner_debtor_idx.
 */

/** The most charges the debtor's page lists (three kinds on each of its 100 invoices, and those of paid ones). */
export const PORTAL_CHARGE_LIMIT = 400;

/** A charge as the debtor's page shows it. */
export interface PortalCharge {
  invoiceId: number;
  invoiceNumber: string | null;
  invoiceDueOn: string;
  /** Its invoice's status: 'open' and 'disputed' are listed on the page; 'paid' ones apart. */
  invoiceStatus: string;
  /** Its invoice has nothing left to pay (paid in full): listed under "Charges still owed on paid invoices". */
  invoicePaid: boolean;
  kind: ChargeKind;
  currency: string;
  /** What the debtor was charged and still owes: a waived charge owes nothing and counts only what was paid of it. */
  amountCents: number;
  paidCents: number;
  owedCents: number;
  basis: unknown;
  accruedThrough: string;
}

/**
 * The owner's debtor's charges a debtor may read, not yet run: on invoices still open or disputed,
 * every charge owed or paid (a waived one only for what was paid of it: it is not owed, so it is
 * not a line of its own otherwise); on invoices paid in full, the charges still owed. Its
 * invoice's due date first, then interest, compensation, fee.
 */
export function portalChargesQuery(db: Db, ownerId: string, debtorId: number) {
  const paidInFull = sql`(${invoices.status} = 'paid' OR (${invoices.status} = 'open' AND ${invoices.amountCents} <= ${invoices.paidCents}))`;
  const owed = sql`(${charges.waivedAt} IS NULL AND ${charges.amountCents} > ${charges.paidCents})`;
  return db
    .select({
      invoiceId: charges.invoiceId,
      invoiceNumber: invoices.number,
      invoiceDueOn: invoices.dueOn,
      invoiceStatus: invoices.status,
      invoicePaid: sql<number>`${paidInFull}`,
      kind: charges.kind,
      currency: charges.currency,
      amountCents: charges.amountCents,
      paidCents: charges.paidCents,
      waived: sql<number>`${charges.waivedAt} IS NOT NULL`,
      basis: charges.basis,
      accruedThrough: charges.accruedThrough,
    })
    .from(charges)
    .innerJoin(invoices, eq(invoices.id, charges.invoiceId))
    .where(
      and(
        eq(charges.ownerId, ownerId),
        eq(charges.debtorId, debtorId),
        sql`((${invoices.status} IN ('open', 'disputed') AND NOT ${paidInFull} AND (${charges.waivedAt} IS NULL OR ${charges.paidCents} > 0)) OR (${paidInFull} AND ${owed}))`,
      ),
    )
    .orderBy(
      asc(invoices.dueOn),
      asc(invoices.id),
      sql`CASE ${charges.kind} WHEN 'interest' THEN 0 WHEN 'compensation' THEN 1 ELSE 2 END`,
    )
    .limit(PORTAL_CHARGE_LIMIT);
}

/** The charges from portalChargesQuery's rows: a waived one as what was paid of it, owing nothing. */
export function portalChargesOf(rows: Awaited<ReturnType<typeof portalChargesQuery>>): PortalCharge[] {
  return rows.map((r) => {
    const waived = Boolean(r.waived);
    const amountCents = waived ? r.paidCents : r.amountCents;
    return {
      invoiceId: r.invoiceId,
      invoiceNumber: r.invoiceNumber,
      invoiceDueOn: r.invoiceDueOn,
      invoiceStatus: r.invoiceStatus,
      invoicePaid: Boolean(r.invoicePaid),
      kind: r.kind,
      currency: r.currency,
      amountCents,
      paidCents: r.paidCents,
      owedCents: Math.max(0, amountCents - r.paidCents),
      basis: parseBasis(r.basis),
      accruedThrough: r.accruedThrough,
    };
  });
}

/**
 * A column for a select that reads debtors (the debtors CSV export, decisions/067): the debtor's
 * late-payment charges per currency as a JSON array of `{ currency, owed, paid }` in cents: owed
 * over charges not waived on invoices not void, paid over every charge. Through
 * charges_owner_debtor_idx.
 */
export function debtorChargeTotalsSql(debtorId: SQLWrapper, ownerId: SQLWrapper) {
  return sql<
    string | null
  >`(SELECT json_group_array(json_object('currency', t.currency, 'owed', t.owed, 'paid', t.paid))
    FROM (
      SELECT c.currency AS currency,
        sum(CASE WHEN c.waived_at IS NULL AND i.status <> 'void' THEN c.amount_cents - c.paid_cents ELSE 0 END) AS owed,
        sum(c.paid_cents) AS paid
      FROM charges AS c JOIN invoices AS i ON i.id = c.invoice_id
      WHERE c.owner_id = ${ownerId} AND c.debtor_id = ${debtorId}
      GROUP BY c.currency ORDER BY c.currency
    ) AS t)`;
}

/** A debtor's charges per currency from debtorChargeTotalsSql's column (none: an empty list). */
export function debtorChargeTotalsOf(
  json: string | null | undefined,
): { currency: string; owed: number; paid: number }[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.map((v: { currency: string; owed: number; paid: number }) => ({
      currency: String(v.currency),
      owed: Number(v.owed) || 0,
      paid: Number(v.paid) || 0,
    }));
  } catch {
    return [];
  }
}
