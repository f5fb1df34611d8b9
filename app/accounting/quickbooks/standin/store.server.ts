import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { devQuickbooksObjects } from "~/db/schema";
import type { QboCustomer, QboInvoice } from "../mapping";

/**
 * The local QuickBooks Online stand-in's state (decisions/061), in D1's dev_quickbooks_objects as
 * Intuit's own JSON: companies, customers, invoices, payments, the chart of accounts ('account'),
 * the answers kept under a create's requestid ('idempotency', under the SHA-256 of the id), and its
 * identity's grants ('code', 'access', 'refresh', stored under the SHA-256 of the token), plus
 * 'fault' rows a test sets to make the API answer 429. Development and test only.
 */
export type QboKind =
  | "company"
  | "customer"
  | "invoice"
  | "payment"
  | "account"
  | "idempotency"
  | "code"
  | "access"
  | "refresh"
  | "fault";

/** The row's key: QuickBooks' Ids are per company. */
export const objectKey = (kind: QboKind, realmId: string | null, id: string) => `${kind}:${realmId ?? "-"}:${id}`;

export async function putQboObject(
  env: Env,
  kind: QboKind,
  realmId: string | null,
  id: string,
  data: object,
  now = Date.now(),
) {
  const key = objectKey(kind, realmId, id);
  await getDb(env.DB)
    .insert(devQuickbooksObjects)
    .values({ id: key, kind, realmId, data: JSON.stringify(data), updatedAt: now })
    .onConflictDoUpdate({ target: devQuickbooksObjects.id, set: { data: JSON.stringify(data), updatedAt: now } });
}

/** Writes the object only when there is none under its key yet; false when there was one. */
export async function putQboObjectOnce(env: Env, kind: QboKind, realmId: string | null, id: string, data: object) {
  const now = Date.now();
  const rows = await getDb(env.DB)
    .insert(devQuickbooksObjects)
    .values({ id: objectKey(kind, realmId, id), kind, realmId, data: JSON.stringify(data), updatedAt: now })
    .onConflictDoNothing()
    .returning({ id: devQuickbooksObjects.id });
  return rows.length > 0;
}

export async function getQboObject<T>(env: Env, kind: QboKind, realmId: string | null, id: string) {
  const row = await getDb(env.DB)
    .select()
    .from(devQuickbooksObjects)
    .where(eq(devQuickbooksObjects.id, objectKey(kind, realmId, id)))
    .get();
  return row ? { realmId: row.realmId, data: JSON.parse(row.data) as T, updatedAt: row.updatedAt } : undefined;
}

export async function deleteQboObject(env: Env, kind: QboKind, realmId: string | null, id: string) {
  const rows = await getDb(env.DB)
    .delete(devQuickbooksObjects)
    .where(eq(devQuickbooksObjects.id, objectKey(kind, realmId, id)))
    .returning();
  return rows.length > 0;
}

/** A company's objects of a kind (those changed since `since`, or with these Ids), oldest change first. */
export async function listQboObjects<T>(
  env: Env,
  realmId: string,
  kind: QboKind,
  options: { ids?: readonly string[]; since?: number } = {},
) {
  const rows = await getDb(env.DB)
    .select({ data: devQuickbooksObjects.data })
    .from(devQuickbooksObjects)
    .where(
      and(
        eq(devQuickbooksObjects.realmId, realmId),
        eq(devQuickbooksObjects.kind, kind),
        options.ids
          ? inArray(
              devQuickbooksObjects.id,
              options.ids.map((id) => objectKey(kind, realmId, id)),
            )
          : undefined,
        options.since !== undefined ? gte(devQuickbooksObjects.updatedAt, options.since) : undefined,
      ),
    )
    .orderBy(asc(devQuickbooksObjects.updatedAt), asc(devQuickbooksObjects.id));
  return rows.map((r) => JSON.parse(r.data) as T);
}

/** The next Id of a kind in a company: QuickBooks numbers its objects. */
async function nextId(env: Env, realmId: string, kind: QboKind) {
  const row = await getDb(env.DB)
    .select({ n: sql<number>`count(*)` })
    .from(devQuickbooksObjects)
    .where(and(eq(devQuickbooksObjects.realmId, realmId), eq(devQuickbooksObjects.kind, kind)))
    .get();
  return String((row?.n ?? 0) + 1);
}

/** QuickBooks' time for an instant: ISO 8601 with the company's offset (UTC here). */
export const qboStamp = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");
const addDays = (today: string, days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

export type StoredInvoice = QboInvoice & Record<string, unknown>;

/** An invoice as QuickBooks answers it, with one sales line. */
export function qboInvoiceJson(
  id: string,
  customer: QboCustomer,
  fields: { number: string; total: number; issued: string; due: string; balance?: number; currency?: string },
  now: number,
): StoredInvoice {
  const currency = fields.currency ?? customer.CurrencyRef?.value ?? "USD";
  return {
    Id: id,
    SyncToken: "0",
    domain: "QBO",
    sparse: false,
    MetaData: { CreateTime: qboStamp(now), LastUpdatedTime: qboStamp(now) },
    CustomField: [],
    DocNumber: fields.number,
    TxnDate: fields.issued,
    CurrencyRef: { value: currency, name: currency === "USD" ? "United States Dollar" : currency },
    LinkedTxn: [],
    Line: [
      {
        Id: "1",
        LineNum: 1,
        Amount: fields.total,
        DetailType: "SalesItemLineDetail",
        SalesItemLineDetail: { ItemRef: { value: "1", name: "Services" }, TaxCodeRef: { value: "NON" } },
      },
      { Amount: fields.total, DetailType: "SubTotalLineDetail", SubTotalLineDetail: {} },
    ],
    TxnTaxDetail: { TotalTax: 0 },
    CustomerRef: { value: customer.Id, name: customer.DisplayName },
    BillEmail: customer.PrimaryEmailAddr?.Address ? { Address: customer.PrimaryEmailAddr.Address } : undefined,
    DueDate: fields.due,
    TotalAmt: fields.total,
    Balance: fields.balance ?? fields.total,
    EmailStatus: "EmailSent",
    PrintStatus: "NotSet",
    ApplyTaxAfterDiscount: false,
  };
}

/** A random QuickBooks company id (realm ids are long numbers). */
const newRealmId = () => {
  const digits = crypto.getRandomValues(new Uint8Array(16));
  return `9${[...digits].map((d) => d % 10).join("")}`.slice(0, 16);
};

/**
 * A new company, as a person gets when they click "Connect": three customers with open invoices
 * (two overdue) and a paid invoice, which Dunly must leave out.
 */
export async function seedCompany(env: Env, now = Date.now()) {
  const realmId = newRealmId();
  const today = new Date(now).toISOString().slice(0, 10);
  await putQboObject(env, "company", realmId, realmId, { Id: "1", CompanyName: "Sandbox Company (stand-in)" }, now);
  const suffix = realmId.slice(-6);
  const customer = (
    id: string,
    name: string,
    given: string,
    family: string,
    email: string,
  ): QboCustomer & Record<string, unknown> => ({
    Id: id,
    SyncToken: "0",
    domain: "QBO",
    DisplayName: name,
    CompanyName: name,
    GivenName: given,
    FamilyName: family,
    PrimaryEmailAddr: { Address: email },
    CurrencyRef: { value: "USD", name: "United States Dollar" },
    Active: true,
    Balance: 0,
    MetaData: { CreateTime: qboStamp(now), LastUpdatedTime: qboStamp(now) },
  });
  const customers = [
    customer("1", "Amy's Bird Sanctuary", "Amy", "Lauterbach", `birds+${suffix}@amys.example`),
    customer("2", "Cool Cars", "Grace", "Pariente", `cool_cars+${suffix}@cars.example`),
    customer("3", "Sushi by Katsuyuki", "Kata", "Yuki", `sushi+${suffix}@katsuyuki.example`),
  ];
  for (const c of customers) await putQboObject(env, "customer", realmId, c.Id, c, now);
  const [amy, cars, sushi] = customers as unknown as [QboCustomer, QboCustomer, QboCustomer];
  const invoices = [
    qboInvoiceJson(
      "1",
      amy,
      { number: "1001", total: 1250, issued: addDays(today, -45), due: addDays(today, -15) },
      now,
    ),
    qboInvoiceJson(
      "2",
      amy,
      { number: "1002", total: 300.5, issued: addDays(today, -10), due: addDays(today, 20) },
      now,
    ),
    qboInvoiceJson(
      "3",
      cars,
      { number: "1003", total: 820, issued: addDays(today, -40), due: addDays(today, -10) },
      now,
    ),
    qboInvoiceJson(
      "4",
      sushi,
      { number: "1004", total: 99.99, issued: addDays(today, -5), due: addDays(today, 25) },
      now,
    ),
    qboInvoiceJson(
      "5",
      sushi,
      { number: "1005", total: 410, issued: addDays(today, -2), due: addDays(today, 28) },
      now,
    ),
    qboInvoiceJson(
      "6",
      cars,
      { number: "1006", total: 60, issued: addDays(today, -60), due: addDays(today, -30), balance: 0 },
      now,
    ),
  ];
  for (const i of invoices) await putQboObject(env, "invoice", realmId, i.Id, i, now);
  // The chart of accounts' bank accounts (two active, one made inactive) and two others.
  const accounts: QboAccount[] = [
    qboAccount("35", "Checking", "Bank", "Checking", "1010", true, now),
    qboAccount("36", "Savings", "Bank", "Savings", "1020", true, now),
    qboAccount("37", "Old Checking", "Bank", "Checking", "1030", false, now),
    qboAccount("4", "Undeposited Funds", "Other Current Asset", "UndepositedFunds", null, true, now),
    qboAccount("79", "Sales of Product Income", "Income", "SalesOfProductIncome", null, true, now),
  ];
  for (const a of accounts) await putQboObject(env, "account", realmId, a.Id, a, now);
  return realmId;
}

/** An account of the chart of accounts, as QuickBooks answers it. */
export interface QboAccount {
  Id: string;
  SyncToken: string;
  Name: string;
  FullyQualifiedName: string;
  AccountType: string;
  AccountSubType: string;
  Classification: string;
  AcctNum?: string;
  Active: boolean;
  SubAccount: boolean;
  CurrentBalance: number;
  CurrencyRef: { value: string; name: string };
  domain: "QBO";
  sparse: boolean;
  MetaData: { CreateTime: string; LastUpdatedTime: string };
}

function qboAccount(
  id: string,
  name: string,
  type: string,
  subType: string,
  number: string | null,
  active: boolean,
  now: number,
): QboAccount {
  return {
    Id: id,
    SyncToken: "0",
    Name: name,
    FullyQualifiedName: name,
    AccountType: type,
    AccountSubType: subType,
    Classification: type === "Income" ? "Revenue" : "Asset",
    ...(number ? { AcctNum: number } : {}),
    Active: active,
    SubAccount: false,
    CurrentBalance: 0,
    CurrencyRef: { value: "USD", name: "United States Dollar" },
    domain: "QBO",
    sparse: false,
    MetaData: { CreateTime: qboStamp(now), LastUpdatedTime: qboStamp(now) },
  };
}

/** A payment as an app posts it (POST /v3/company/{realm}/payment), as far as the stand-in reads it. */
export interface QboPaymentBody {
  CustomerRef?: { value?: string };
  TotalAmt?: number;
  TxnDate?: string;
  DepositToAccountRef?: { value?: string };
  PrivateNote?: string;
  Line?: { Amount?: number; LinkedTxn?: { TxnId?: string; TxnType?: string }[] }[];
}

/** A payment the stand-in keeps (what the app posted, with QuickBooks' own fields). */
export type StoredQboPayment = Required<Pick<QboPaymentBody, "TotalAmt" | "Line">> &
  QboPaymentBody & { Id: string; TxnDate: string; UnappliedAmt: number };

const cents = (n: number) => Math.round(n * 100);

/**
 * Receives a payment as QuickBooks does: the customer's, into an active bank account (or
 * Undeposited Funds), each line linked to an open invoice of that customer for at most its
 * Balance; each invoice's Balance lowered. `{ error }`: QuickBooks' validation Detail, nothing made.
 */
export async function receiveQboPayment(
  env: Env,
  realmId: string,
  body: QboPaymentBody,
  now = Date.now(),
): Promise<StoredQboPayment | { error: string }> {
  const customerId = body.CustomerRef?.value;
  if (!customerId || !(await getQboObject(env, "customer", realmId, customerId))) {
    return { error: "Required param missing, need to supply the required value for the API: CustomerRef" };
  }
  const total = Number(body.TotalAmt);
  if (!Number.isFinite(total) || total <= 0) {
    return { error: "Required param missing, need to supply the required value for the API: TotalAmt" };
  }
  const accountId = body.DepositToAccountRef?.value;
  if (accountId) {
    const account = (await getQboObject<QboAccount>(env, "account", realmId, accountId))?.data;
    if (!account) return { error: `Invalid Reference Id: Account ${accountId} does not exist` };
    if (!account.Active) return { error: `Business Validation Error: The account ${account.Name} is inactive` };
    if (account.AccountType !== "Bank" && account.AccountSubType !== "UndepositedFunds") {
      return {
        error: `Business Validation Error: Payments can be deposited only to a bank account, not ${account.Name}`,
      };
    }
  }
  const lines = body.Line ?? [];
  const touched: { invoice: StoredInvoice; paid: number }[] = [];
  for (const line of lines) {
    const link = line.LinkedTxn?.[0];
    const amount = Number(line.Amount);
    if (line.LinkedTxn?.length !== 1 || link?.TxnType !== "Invoice" || !link.TxnId) {
      return { error: "Business Validation Error: Each line links one Invoice (LinkedTxn with TxnId and TxnType)" };
    }
    const invoice = (await getQboObject<StoredInvoice>(env, "invoice", realmId, link.TxnId))?.data;
    if (!invoice || invoice.status === "Deleted") {
      return { error: `Invalid Reference Id: Invoice ${link.TxnId} does not exist` };
    }
    if (invoice.CustomerRef?.value !== customerId) {
      return { error: `Business Validation Error: Invoice ${invoice.DocNumber ?? link.TxnId} is not this customer's` };
    }
    if (!(amount > 0) || cents(amount) > cents(invoice.Balance ?? 0)) {
      return {
        error: `Business Validation Error: The payment of ${amount.toFixed(2)} is more than the ${(invoice.Balance ?? 0).toFixed(2)} due on invoice ${invoice.DocNumber ?? link.TxnId}`,
      };
    }
    touched.push({ invoice, paid: amount });
  }
  const applied = touched.reduce((sum, t) => sum + cents(t.paid), 0);
  if (applied > cents(total)) {
    return { error: "Business Validation Error: The lines add up to more than the payment's TotalAmt" };
  }
  const id = await nextId(env, realmId, "payment");
  const payment = {
    Id: id,
    SyncToken: "0",
    domain: "QBO",
    sparse: false,
    TxnDate:
      body.TxnDate && /^\d{4}-\d{2}-\d{2}$/.test(body.TxnDate)
        ? body.TxnDate
        : new Date(now).toISOString().slice(0, 10),
    TotalAmt: total,
    UnappliedAmt: (cents(total) - applied) / 100,
    CustomerRef: body.CustomerRef,
    DepositToAccountRef: accountId ? { value: accountId } : { value: "4" },
    PrivateNote: body.PrivateNote,
    CurrencyRef: touched[0]?.invoice.CurrencyRef,
    Line: lines.map((l) => ({ Amount: Number(l.Amount), LinkedTxn: l.LinkedTxn })),
    MetaData: { CreateTime: qboStamp(now), LastUpdatedTime: qboStamp(now) },
  };
  await putQboObject(env, "payment", realmId, id, payment, now);
  for (const { invoice, paid } of touched) {
    await putQboObject(
      env,
      "invoice",
      realmId,
      invoice.Id,
      {
        ...invoice,
        SyncToken: String(Number(invoice.SyncToken ?? 0) + 1),
        Balance: (cents(invoice.Balance ?? 0) - cents(paid)) / 100,
        LinkedTxn: [...((invoice.LinkedTxn as unknown[]) ?? []), { TxnId: id, TxnType: "Payment" }],
        MetaData: { ...invoice.MetaData, LastUpdatedTime: qboStamp(now) },
      },
      now,
    );
  }
  return payment as StoredQboPayment;
}

/** A payment on the invoice, as QuickBooks records one: a Payment linked to it, its Balance lower. */
export async function addQboPayment(env: Env, realmId: string, invoiceId: string, amount: number, now = Date.now()) {
  const found = await getQboObject<StoredInvoice>(env, "invoice", realmId, invoiceId);
  if (!found || found.data.status === "Deleted") return null;
  const invoice = found.data;
  const balance = invoice.Balance ?? 0;
  const paid = Math.round(Math.min(amount, balance) * 100) / 100;
  if (!(paid > 0)) return null;
  const id = await nextId(env, realmId, "payment");
  const payment = {
    Id: id,
    SyncToken: "0",
    domain: "QBO",
    TxnDate: new Date(now).toISOString().slice(0, 10),
    TotalAmt: paid,
    UnappliedAmt: 0,
    CurrencyRef: invoice.CurrencyRef,
    CustomerRef: invoice.CustomerRef,
    Line: [{ Amount: paid, LinkedTxn: [{ TxnId: invoice.Id, TxnType: "Invoice" }] }],
    MetaData: { CreateTime: qboStamp(now), LastUpdatedTime: qboStamp(now) },
  };
  await putQboObject(env, "payment", realmId, id, payment, now);
  await putQboObject(
    env,
    "invoice",
    realmId,
    invoiceId,
    {
      ...invoice,
      SyncToken: String(Number(invoice.SyncToken ?? 0) + 1),
      Balance: Math.round((balance - paid) * 100) / 100,
      LinkedTxn: [...((invoice.LinkedTxn as unknown[]) ?? []), { TxnId: id, TxnType: "Payment" }],
      MetaData: { ...invoice.MetaData, LastUpdatedTime: qboStamp(now) },
    },
    now,
  );
  return payment;
}

/** Voids an invoice as QuickBooks does: amounts zero, "Voided" in its private note. */
export async function voidQboInvoice(env: Env, realmId: string, invoiceId: string, now = Date.now()) {
  const found = await getQboObject<StoredInvoice>(env, "invoice", realmId, invoiceId);
  if (!found || found.data.status === "Deleted" || /voided/i.test(found.data.PrivateNote ?? "")) return false;
  const invoice = found.data;
  await putQboObject(
    env,
    "invoice",
    realmId,
    invoiceId,
    {
      ...invoice,
      SyncToken: String(Number(invoice.SyncToken ?? 0) + 1),
      TotalAmt: 0,
      Balance: 0,
      PrivateNote: "Voided",
      Line: ((invoice.Line as { Amount?: number }[]) ?? []).map((l) => ({ ...l, Amount: 0 })),
      MetaData: { ...invoice.MetaData, LastUpdatedTime: qboStamp(now) },
    },
    now,
  );
  return true;
}

/** Moves an invoice's due date (YYYY-MM-DD). */
export async function changeQboDueDate(env: Env, realmId: string, invoiceId: string, due: string, now = Date.now()) {
  const found = await getQboObject<StoredInvoice>(env, "invoice", realmId, invoiceId);
  if (!found || found.data.status === "Deleted" || !/^\d{4}-\d{2}-\d{2}$/.test(due)) return false;
  await putQboObject(
    env,
    "invoice",
    realmId,
    invoiceId,
    {
      ...found.data,
      SyncToken: String(Number(found.data.SyncToken ?? 0) + 1),
      DueDate: due,
      MetaData: { ...found.data.MetaData, LastUpdatedTime: qboStamp(now) },
    },
    now,
  );
  return true;
}

export async function sha256(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
