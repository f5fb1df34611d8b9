import type { DebtorRow } from "~/models/debtor.server";

/** A debtor as the table and its modals show it: the list query's row. */
export type DebtorView = DebtorRow;

/** What the debtor still owes, in cents (never below zero). */
export function owedCents(d: Pick<DebtorView, "debtCents" | "paidCents">) {
  return Math.max(0, d.debtCents - d.paidCents);
}
