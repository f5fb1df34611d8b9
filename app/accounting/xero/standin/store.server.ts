import { and, asc, eq, inArray } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { devXeroObjects } from "~/db/schema";
import type { XeroContact, XeroInvoice } from "../mapping";

/**
 * The local Xero stand-in's state (decisions/060), in D1's dev_xero_objects as Xero's own JSON:
 * organisations ('tenant'), contacts, invoices, payments, and its identity's grants ('code',
 * 'access', 'refresh', stored under the SHA-256 of the token), plus 'fault' rows a test sets to
 * make the API answer 429. Development and test only.
 */
export type Kind =
  | "tenant"
  | "contact"
  | "invoice"
  | "payment"
  | "account"
  | "idempotency"
  | "code"
  | "access"
  | "refresh"
  | "fault";

/** A chart-of-accounts entry as Xero's JSON has it (the fields Dunly reads and shows). */
export interface XeroAccount {
  AccountID: string;
  Code?: string;
  Name: string;
  Type: string;
  Status: string;
  CurrencyCode?: string;
  BankAccountNumber?: string;
  UpdatedDateUTC?: string;
}

export async function putObject(
  env: Env,
  kind: Kind,
  id: string,
  tenantId: string | null,
  data: object,
  now = Date.now(),
) {
  await getDb(env.DB)
    .insert(devXeroObjects)
    .values({ id, kind, tenantId, data: JSON.stringify(data), updatedAt: now })
    .onConflictDoUpdate({ target: devXeroObjects.id, set: { data: JSON.stringify(data), updatedAt: now } });
}

/** Stores the object only when no object has that id yet; false when one had. */
export async function putObjectOnce(env: Env, kind: Kind, id: string, tenantId: string | null, data: object) {
  const rows = await getDb(env.DB)
    .insert(devXeroObjects)
    .values({ id, kind, tenantId, data: JSON.stringify(data), updatedAt: Date.now() })
    .onConflictDoNothing()
    .returning({ id: devXeroObjects.id });
  return rows.length > 0;
}

export async function getObject<T>(env: Env, kind: Kind, id: string) {
  const row = await getDb(env.DB)
    .select()
    .from(devXeroObjects)
    .where(and(eq(devXeroObjects.id, id), eq(devXeroObjects.kind, kind)))
    .get();
  return row ? { tenantId: row.tenantId, data: JSON.parse(row.data) as T } : undefined;
}

export async function deleteObject(env: Env, id: string) {
  const rows = await getDb(env.DB).delete(devXeroObjects).where(eq(devXeroObjects.id, id)).returning();
  return rows.length > 0;
}

/** A tenant's objects of a kind, oldest change first. */
export async function listObjects<T>(env: Env, tenantId: string, kind: Kind, ids?: readonly string[]) {
  const rows = await getDb(env.DB)
    .select({ data: devXeroObjects.data })
    .from(devXeroObjects)
    .where(
      and(
        eq(devXeroObjects.tenantId, tenantId),
        eq(devXeroObjects.kind, kind),
        ids ? inArray(devXeroObjects.id, [...ids]) : undefined,
      ),
    )
    .orderBy(asc(devXeroObjects.updatedAt), asc(devXeroObjects.id));
  return rows.map((r) => JSON.parse(r.data) as T);
}

export async function sha256(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Xero's JSON date for an instant. */
export const xeroDate = (ms: number) => `/Date(${ms}+0000)/`;
const dayString = (day: string) => `${day}T00:00:00`;
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const addDays = (today: string, days: number) => new Date(dayMs(today) + days * 86_400_000).toISOString().slice(0, 10);

export function invoiceJson(
  tenant: string,
  contact: XeroContact,
  fields: {
    number: string;
    total: number;
    issued: string;
    due: string;
    status?: string;
    type?: string;
    currency?: string;
  },
  now: number,
): XeroInvoice & Record<string, unknown> {
  return {
    Type: fields.type ?? "ACCREC",
    InvoiceID: crypto.randomUUID(),
    InvoiceNumber: fields.number,
    Reference: "",
    Contact: { ContactID: contact.ContactID, Name: contact.Name },
    Date: xeroDate(dayMs(fields.issued)),
    DateString: dayString(fields.issued),
    DueDate: xeroDate(dayMs(fields.due)),
    DueDateString: dayString(fields.due),
    Status: fields.status ?? "AUTHORISED",
    LineAmountTypes: "Exclusive",
    SubTotal: fields.total,
    TotalTax: 0,
    Total: fields.total,
    AmountDue: fields.status === "PAID" ? 0 : fields.total,
    AmountPaid: fields.status === "PAID" ? fields.total : 0,
    AmountCredited: 0,
    CurrencyCode: fields.currency ?? "USD",
    UpdatedDateUTC: xeroDate(now),
    HasAttachments: false,
    // Which organisation holds it (the stand-in's own field; Xero's JSON has none).
    _tenant: tenant,
  };
}

/**
 * A new organisation, as a person gets when they click "Allow": three customers with open
 * invoices (two overdue), a draft, a paid invoice and a supplier's bill, which Dunly must leave out.
 */
export async function seedTenant(env: Env, now = Date.now()) {
  const tenantId = crypto.randomUUID();
  const today = new Date(now).toISOString().slice(0, 10);
  await putObject(
    env,
    "tenant",
    tenantId,
    tenantId,
    {
      tenantId,
      connectionId: crypto.randomUUID(),
      tenantName: "Demo Company (stand-in)",
    },
    now,
  );
  const contact = (name: string, first: string, last: string, email: string, currency = "USD"): XeroContact => ({
    ContactID: crypto.randomUUID(),
    ContactStatus: "ACTIVE",
    Name: name,
    FirstName: first,
    LastName: last,
    EmailAddress: email,
    ContactPersons: [],
    DefaultCurrency: currency,
    IsCustomer: true,
  });
  const suffix = tenantId.slice(0, 6);
  const contacts = [
    contact("Ridgeway University", "Ana", "Ruiz", `accounts+${suffix}@ridgeway.example`),
    contact("Bayside Club", "Tom", "Baker", `tom+${suffix}@bayside.example`),
    contact("City Agency", "Mia", "Chen", `mia+${suffix}@cityagency.example`),
  ];
  const supplier = { ...contact("PowerDirect", "", "", `bills+${suffix}@powerdirect.example`), IsCustomer: false };
  for (const c of [...contacts, supplier]) await putObject(env, "contact", c.ContactID, tenantId, c, now);
  const [ridgeway, bayside, city] = contacts as [XeroContact, XeroContact, XeroContact];
  const n = (i: number) => `INV-${suffix}-${String(i).padStart(3, "0")}`;
  const invoices = [
    invoiceJson(
      tenantId,
      ridgeway,
      { number: n(1), total: 1250, issued: addDays(today, -45), due: addDays(today, -15) },
      now,
    ),
    invoiceJson(
      tenantId,
      ridgeway,
      { number: n(2), total: 300.5, issued: addDays(today, -10), due: addDays(today, 20) },
      now,
    ),
    invoiceJson(
      tenantId,
      bayside,
      { number: n(3), total: 820, issued: addDays(today, -40), due: addDays(today, -10) },
      now,
    ),
    invoiceJson(
      tenantId,
      city,
      { number: n(4), total: 99.99, issued: addDays(today, -5), due: addDays(today, 25) },
      now,
    ),
    invoiceJson(tenantId, city, { number: n(5), total: 410, issued: addDays(today, -2), due: addDays(today, 28) }, now),
    invoiceJson(
      tenantId,
      city,
      { number: n(6), total: 75, issued: today, due: addDays(today, 30), status: "DRAFT" },
      now,
    ),
    invoiceJson(
      tenantId,
      bayside,
      { number: n(7), total: 60, issued: addDays(today, -60), due: addDays(today, -30), status: "PAID" },
      now,
    ),
    invoiceJson(
      tenantId,
      supplier,
      { number: `BILL-${suffix}`, total: 500, issued: addDays(today, -3), due: addDays(today, 10), type: "ACCPAY" },
      now,
    ),
  ];
  for (const i of invoices) await putObject(env, "invoice", i.InvoiceID, tenantId, i, now);
  // The chart of accounts' bank accounts (two active, one archived) and a sales account: only the
  // active bank accounts may receive a payment.
  const accounts: XeroAccount[] = [
    {
      Code: "090",
      Name: "Business Bank Account",
      Type: "BANK",
      Status: "ACTIVE",
      BankAccountNumber: "12-3456-7890123-00",
    },
    {
      Code: "091",
      Name: "Business Savings Account",
      Type: "BANK",
      Status: "ACTIVE",
      BankAccountNumber: "12-3456-7890123-01",
    },
    { Code: "092", Name: "Old Cheque Account", Type: "BANK", Status: "ARCHIVED" },
    { Code: "200", Name: "Sales", Type: "REVENUE", Status: "ACTIVE" },
  ].map((a) => ({ ...a, AccountID: crypto.randomUUID(), CurrencyCode: "USD", UpdatedDateUTC: xeroDate(now) }));
  for (const a of accounts) await putObject(env, "account", a.AccountID, tenantId, a, now);
  return tenantId;
}

type StoredInvoice = XeroInvoice & Record<string, unknown>;

/** A payment as the stand-in keeps it (Xero's JSON). */
export interface StandInPayment {
  PaymentID: string;
  Date: string;
  Amount: number;
  Reference?: string;
  Status: string;
  PaymentType: string;
  Invoice: { InvoiceID: string; InvoiceNumber?: string };
  Account?: { AccountID: string; Code?: string; Name?: string };
  UpdatedDateUTC: string;
}

/**
 * A payment on the invoice, as Xero records one: the invoice owes less, PAID when nothing is left.
 * `paidOn` (YYYY-MM-DD), the bank account and the reference as the payment gives them.
 */
export async function addStandInPayment(
  env: Env,
  invoiceId: string,
  amount: number,
  now = Date.now(),
  details: { paidOn?: string; account?: XeroAccount; reference?: string } = {},
) {
  const found = await getObject<StoredInvoice>(env, "invoice", invoiceId);
  if (found?.data.Status !== "AUTHORISED") return null;
  const invoice = found.data;
  const paid = Math.min(amount, invoice.AmountDue);
  if (!(paid > 0)) return null;
  const due = Math.round((invoice.AmountDue - paid) * 100) / 100;
  const payment: StandInPayment = {
    PaymentID: crypto.randomUUID(),
    Date: details.paidOn ? xeroDate(dayMs(details.paidOn)) : xeroDate(now),
    Amount: paid,
    ...(details.reference ? { Reference: details.reference } : {}),
    Status: "AUTHORISED",
    PaymentType: "ACCRECPAYMENT",
    Invoice: { InvoiceID: invoice.InvoiceID, InvoiceNumber: invoice.InvoiceNumber },
    ...(details.account
      ? { Account: { AccountID: details.account.AccountID, Code: details.account.Code, Name: details.account.Name } }
      : {}),
    UpdatedDateUTC: xeroDate(now),
  };
  await putObject(env, "payment", payment.PaymentID, found.tenantId, payment, now);
  await putObject(
    env,
    "invoice",
    invoiceId,
    found.tenantId,
    {
      ...invoice,
      AmountDue: due,
      AmountPaid: Math.round(((invoice.AmountPaid ?? 0) + paid) * 100) / 100,
      Status: due === 0 ? "PAID" : "AUTHORISED",
      UpdatedDateUTC: xeroDate(now),
    },
    now,
  );
  return payment;
}

/** Voids an invoice nothing was paid on (Xero refuses to void one with payments). */
export async function voidStandInInvoice(env: Env, invoiceId: string, now = Date.now()) {
  const found = await getObject<StoredInvoice>(env, "invoice", invoiceId);
  if (!found || !["AUTHORISED", "DRAFT", "SUBMITTED"].includes(found.data.Status) || (found.data.AmountPaid ?? 0) > 0) {
    return false;
  }
  await putObject(
    env,
    "invoice",
    invoiceId,
    found.tenantId,
    {
      ...found.data,
      Status: "VOIDED",
      AmountDue: 0,
      UpdatedDateUTC: xeroDate(now),
    },
    now,
  );
  return true;
}

/**
 * What a bookkeeper changes on an open invoice in Xero: its due date (YYYY-MM-DD) or its total
 * (what is left due follows; never below what was paid). Also a payment deleted there:
 * `deletePayment` takes the invoice's newest payment back, so it owes that again. Returns whether
 * it changed anything.
 */
export async function changeStandInInvoice(
  env: Env,
  invoiceId: string,
  change: { dueOn?: string; total?: number; deletePayment?: boolean },
  now = Date.now(),
) {
  const found = await getObject<StoredInvoice>(env, "invoice", invoiceId);
  if (!found || !["AUTHORISED", "PAID"].includes(found.data.Status)) return false;
  const invoice = { ...found.data };
  const paid = invoice.AmountPaid ?? 0;
  const cents = (n: number) => Math.round(n * 100) / 100;
  if (change.dueOn !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(change.dueOn) || Number.isNaN(dayMs(change.dueOn))) return false;
    invoice.DueDate = xeroDate(dayMs(change.dueOn));
    invoice.DueDateString = dayString(change.dueOn);
  }
  if (change.total !== undefined) {
    if (!(change.total > 0) || change.total < paid + (invoice.AmountCredited ?? 0)) return false;
    invoice.Total = cents(change.total);
    invoice.SubTotal = invoice.Total;
  }
  if (change.deletePayment) {
    const payments = (
      await listObjects<{ PaymentID: string; Amount: number; Invoice: { InvoiceID: string } }>(
        env,
        found.tenantId ?? "",
        "payment",
      )
    ).filter((p) => p.Invoice.InvoiceID === invoiceId);
    const newest = payments[payments.length - 1];
    if (!newest) return false;
    await deleteObject(env, newest.PaymentID);
    invoice.AmountPaid = cents(paid - newest.Amount);
  }
  invoice.AmountDue = cents(invoice.Total - (invoice.AmountPaid ?? 0) - (invoice.AmountCredited ?? 0));
  invoice.Status = invoice.AmountDue === 0 ? "PAID" : "AUTHORISED";
  invoice.UpdatedDateUTC = xeroDate(now);
  await putObject(env, "invoice", invoiceId, found.tenantId, invoice, now);
  return true;
}
