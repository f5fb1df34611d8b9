import { env } from "cloudflare:workers";

/**
 * Invoices made straight in D1 for the statement tests: a debtor's open,
 * disputed, paid and void invoices, whatever fixtures.ts `makeDebtor` made of the debtor itself.
 */

export interface InvoiceRow {
  number?: string | null;
  amountCents: number;
  paidCents?: number;
  currency?: string;
  /** "YYYY-MM-DD". */
  dueOn: string;
  status?: "open" | "paid" | "void" | "disputed";
}

/**
 * Replaces the debtor's invoices with `invoices`, and sets the debtor's debt_cents and paid_cents to
 * their sums over the non-void ones in the debtor's currency (the ledger's rule, app/db/schema.ts).
 */
export async function setInvoices(debtor: { id: number }, invoices: readonly InvoiceRow[]) {
  const owner = await env.DB.prepare("SELECT owner_id AS ownerId, currency FROM debtors WHERE id = ?")
    .bind(debtor.id)
    .first<{ ownerId: string; currency: string }>();
  if (!owner) throw new Error(`no debtor ${debtor.id}`);
  const insert = env.DB.prepare(
    "INSERT INTO invoices (owner_id, debtor_id, number, amount_cents, paid_cents, currency, issued_on, due_on, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  await env.DB.batch([
    env.DB.prepare("DELETE FROM invoices WHERE debtor_id = ?").bind(debtor.id),
    ...invoices.map((i) =>
      insert.bind(
        owner.ownerId,
        debtor.id,
        i.number ?? null,
        i.amountCents,
        i.paidCents ?? 0,
        i.currency ?? owner.currency,
        i.dueOn,
        i.dueOn,
        i.status ?? "open",
      ),
    ),
    env.DB.prepare(
      "UPDATE debtors SET debt_cents = coalesce((SELECT sum(amount_cents) FROM invoices WHERE debtor_id = debtors.id AND status <> 'void' AND currency = debtors.currency), 0), paid_cents = coalesce((SELECT sum(paid_cents) FROM invoices WHERE debtor_id = debtors.id AND status <> 'void' AND currency = debtors.currency), 0) WHERE id = ?",
    ).bind(debtor.id),
  ]);
}

/**
 * Gives a debtor made by `makeDebtor` one open invoice for what it owes (in its currency, due
 * `dueOn`, numbered `number`), in place of any invoice it has: what the debtor would owe after
 * migration 0010.
 */
export async function oneOpenInvoice(debtor: { id: number }, dueOn: string, number: string | null = null) {
  const row = await env.DB.prepare("SELECT debt_cents AS debt, paid_cents AS paid FROM debtors WHERE id = ?")
    .bind(debtor.id)
    .first<{ debt: number; paid: number }>();
  if (!row) throw new Error(`no debtor ${debtor.id}`);
  await setInvoices(debtor, [{ number, amountCents: row.debt, paidCents: row.paid, dueOn }]);
}

/** The calendar date `days` after `date` ("YYYY-MM-DD"; negative: before). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}
