import type { BooksDebtor, BooksInvoice } from "../books";

/**
 * QuickBooks Online's JSON as Dunly reads it (decisions/061): the few fields of Customer and
 * Invoice the sync uses, and how they become a debtor and the sync's invoice. Pure: unit-tested on
 * Intuit's documented response shapes (fixtures/ beside the test).
 */

export interface QboRef {
  value: string;
  name?: string;
}

export interface QboMetaData {
  CreateTime?: string;
  LastUpdatedTime?: string;
}

export interface QboInvoice {
  Id: string;
  DocNumber?: string;
  TxnDate?: string;
  DueDate?: string;
  CurrencyRef?: QboRef;
  CustomerRef?: QboRef;
  TotalAmt?: number;
  /** What is still due: payments and credit memos applied lower it. */
  Balance?: number;
  PrivateNote?: string;
  BillEmail?: { Address?: string };
  MetaData?: QboMetaData;
  /** Change data capture only: "Deleted" for an invoice deleted since. */
  status?: string;
}

export interface QboCustomer {
  Id: string;
  DisplayName?: string;
  CompanyName?: string;
  GivenName?: string;
  FamilyName?: string;
  PrimaryEmailAddr?: { Address?: string };
  CurrencyRef?: QboRef;
  Active?: boolean;
}

/** A query's answer: `QueryResponse` holds the entity's rows under its name. */
export interface QboQueryResponse {
  QueryResponse?: { Invoice?: QboInvoice[]; Customer?: QboCustomer[]; startPosition?: number; maxResults?: number };
  time?: string;
}

/** Change data capture's answer: one QueryResponse per entity asked for. */
export interface QboCdcResponse {
  CDCResponse?: { QueryResponse?: { Invoice?: QboInvoice[]; Payment?: unknown[]; CreditMemo?: unknown[] }[] }[];
  time?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** QuickBooks' decimal amount in cents. */
export const qboCents = (amount: number | undefined) => Math.round((amount ?? 0) * 100);

/** A QuickBooks time ("2015-07-24T10:35:08-07:00") as epoch milliseconds; 0 when there is none. */
export function qboTime(value: string | undefined): number {
  const ms = value ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : 0;
}

/** Deleted since the last change data capture. */
export const isDeleted = (invoice: QboInvoice) => invoice.status === "Deleted";

/** Voided in QuickBooks: nothing left due, and QuickBooks' own "Voided" note. */
export const isVoided = (invoice: QboInvoice) =>
  qboCents(invoice.Balance) === 0 && /\bvoided\b/i.test(invoice.PrivateNote ?? "");

/** The first address of a field that may hold several ("a@x.com, b@y.com"), lower-cased; null when none. */
export function firstAddress(value: string | undefined): string | null {
  const first = value?.split(/[,;]/)[0]?.trim().toLowerCase();
  return first && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(first) ? first : null;
}

/** An invoice in the sync's shape: open when something is due and it was not voided; a deleted one is closed. */
export function invoiceOf(invoice: QboInvoice): BooksInvoice {
  const updatedAt = qboTime(invoice.MetaData?.LastUpdatedTime);
  const contactId = invoice.CustomerRef?.value ?? "";
  if (isDeleted(invoice)) {
    return {
      externalId: invoice.Id,
      contactId,
      number: null,
      amountCents: 0,
      dueCents: 0,
      currency: "",
      issuedOn: "",
      dueOn: "",
      open: false,
      closed: true,
      updatedAt,
    };
  }
  const issuedOn = invoice.TxnDate && DAY.test(invoice.TxnDate) ? invoice.TxnDate : "";
  const due = invoice.DueDate && DAY.test(invoice.DueDate) ? invoice.DueDate : issuedOn;
  const amountCents = qboCents(invoice.TotalAmt);
  const dueCents = Math.max(0, qboCents(invoice.Balance));
  const voided = isVoided(invoice);
  return {
    externalId: invoice.Id,
    contactId,
    number: invoice.DocNumber?.trim() || null,
    amountCents,
    dueCents: Math.min(dueCents, Math.max(amountCents, 0)),
    currency: (invoice.CurrencyRef?.value ?? "").toUpperCase(),
    issuedOn,
    // A due date before the issue date is the issue date in Dunly.
    dueOn: due && due < issuedOn ? issuedOn : due,
    open: !voided && Boolean(contactId) && Boolean(issuedOn) && amountCents > 0 && dueCents > 0,
    closed: voided,
    updatedAt,
    billEmail: firstAddress(invoice.BillEmail?.Address),
  };
}

/**
 * A synced debtor's values from a customer: its display name (else the company's), its primary
 * address or else the address its invoice is billed to, its currency or else the invoice's; null
 * when it has no address to write to.
 */
export function debtorOf(
  customer: QboCustomer,
  invoice: Pick<BooksInvoice, "billEmail" | "currency"> | undefined,
  fallbackCurrency: string,
): BooksDebtor | null {
  const email = firstAddress(customer.PrimaryEmailAddr?.Address) ?? invoice?.billEmail ?? null;
  if (!email) return null;
  const person = [customer.GivenName, customer.FamilyName]
    .filter((s) => s?.trim())
    .join(" ")
    .trim();
  const name = (customer.DisplayName?.trim() || customer.CompanyName?.trim() || email).slice(0, 200);
  return {
    externalId: customer.Id,
    fullName: name,
    email,
    contactName: person && person !== name ? person : null,
    currency: (customer.CurrencyRef?.value || invoice?.currency || fallbackCurrency).toUpperCase(),
  };
}

/** The invoices of a query's answer. */
export const queriedInvoices = (body: QboQueryResponse) => body.QueryResponse?.Invoice ?? [];
export const queriedCustomers = (body: QboQueryResponse) => body.QueryResponse?.Customer ?? [];

/** The invoices of a change data capture's answer (changed, created and deleted). */
export function cdcInvoices(body: QboCdcResponse): QboInvoice[] {
  return (body.CDCResponse ?? []).flatMap((r) => (r.QueryResponse ?? []).flatMap((q) => q.Invoice ?? []));
}

/**
 * The realm ids a webhook notification names, in either of Intuit's formats: CloudEvents (an array
 * of events, each with `intuitaccountid`, Intuit's format since 2026) or the earlier
 * `eventNotifications[].realmId`.
 */
export function notifiedRealms(payload: unknown): string[] {
  const named = Array.isArray(payload)
    ? payload.map((e) => (e as { intuitaccountid?: unknown })?.intuitaccountid)
    : (() => {
        const notifications = (payload as { eventNotifications?: unknown })?.eventNotifications;
        return Array.isArray(notifications) ? notifications.map((n) => (n as { realmId?: unknown })?.realmId) : [];
      })();
  const realms = named.filter((r): r is string => typeof r === "string" && /^\d{1,32}$/.test(r));
  return [...new Set(realms)].slice(0, 50);
}
