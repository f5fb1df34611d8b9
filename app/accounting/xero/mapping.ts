/**
 * Xero's JSON as Dunly reads it (decisions/060): the few fields of Contacts and Invoices the sync
 * uses, and how they become a debtor and an invoice. Pure: unit-tested on Xero's recorded shapes.
 */

export interface XeroContactPerson {
  FirstName?: string;
  LastName?: string;
  EmailAddress?: string;
  IncludeInEmails?: boolean;
}

export interface XeroContact {
  ContactID: string;
  ContactStatus?: string;
  Name: string;
  FirstName?: string;
  LastName?: string;
  EmailAddress?: string;
  ContactPersons?: XeroContactPerson[];
  DefaultCurrency?: string;
  IsCustomer?: boolean;
}

export interface XeroInvoice {
  Type: string;
  InvoiceID: string;
  InvoiceNumber?: string;
  Reference?: string;
  Contact: { ContactID: string; Name?: string };
  /** Xero's JSON dates: "/Date(1518134400000+0000)/"; DateString: "2018-02-09T00:00:00". */
  Date?: string;
  DateString?: string;
  DueDate?: string;
  DueDateString?: string;
  Status: string;
  CurrencyCode: string;
  Total: number;
  AmountDue: number;
  AmountPaid?: number;
  AmountCredited?: number;
  UpdatedDateUTC: string;
}

/** Open receivables: a sales invoice awaiting payment. Drafts and invoices awaiting approval are not sent yet. */
export const OPEN_STATUSES = ["AUTHORISED"] as const;
/** Gone from the books: Dunly closes them. */
export const CLOSED_STATUSES = ["VOIDED", "DELETED"] as const;

/** Xero's "/Date(1518134400000+0000)/" (or an ISO string) as epoch milliseconds; NaN when neither. */
export function xeroTime(value: string | undefined): number {
  if (!value) return Number.NaN;
  const ms = /\/Date\((-?\d+)([+-]\d{4})?\)\//.exec(value);
  if (ms) return Number(ms[1]);
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
}

/** A Xero date as a calendar date, YYYY-MM-DD (DateString first: it is the organisation's own day). */
export function xeroDay(dateString: string | undefined, date: string | undefined): string | null {
  if (dateString && /^\d{4}-\d{2}-\d{2}/.test(dateString)) return dateString.slice(0, 10);
  const ms = xeroTime(date);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : null;
}

/** Xero's decimal amount (2 places) in cents. */
export const xeroCents = (amount: number | undefined) => Math.round((amount ?? 0) * 100);

/** The address Dunly writes to: the contact's own, else the first person included in e-mails, else any person's. */
export function contactEmail(contact: XeroContact): string | null {
  const own = contact.EmailAddress?.trim();
  if (own) return own.toLowerCase();
  const people = contact.ContactPersons ?? [];
  const person =
    people.find((p) => p.IncludeInEmails && p.EmailAddress?.trim()) ?? people.find((p) => p.EmailAddress?.trim());
  return person?.EmailAddress?.trim().toLowerCase() ?? null;
}

/** The person a reminder greets: the contact's own name parts, else the person whose address it uses. */
export function contactPerson(contact: XeroContact): string | null {
  const own = [contact.FirstName, contact.LastName]
    .filter((s) => s?.trim())
    .join(" ")
    .trim();
  if (own) return own;
  const email = contactEmail(contact);
  const person = (contact.ContactPersons ?? []).find((p) => p.EmailAddress?.trim().toLowerCase() === email);
  const name = [person?.FirstName, person?.LastName]
    .filter((s) => s?.trim())
    .join(" ")
    .trim();
  return name || null;
}

/** A synced debtor's values from a Xero contact; null when it has no address to write to. */
export function debtorOf(contact: XeroContact, fallbackCurrency: string) {
  const email = contactEmail(contact);
  if (!email) return null;
  return {
    externalId: contact.ContactID,
    fullName: contact.Name.trim().slice(0, 200) || email,
    email,
    contactName: contactPerson(contact),
    currency: (contact.DefaultCurrency || fallbackCurrency).toUpperCase(),
  };
}

/** A synced invoice's values; null for what Dunly does not chase (a bill, a draft, nothing due, no dates). */
export function invoiceOf(invoice: XeroInvoice) {
  if (invoice.Type !== "ACCREC") return null;
  const issuedOn = xeroDay(invoice.DateString, invoice.Date);
  const dueOn = xeroDay(invoice.DueDateString, invoice.DueDate) ?? issuedOn;
  const amountCents = xeroCents(invoice.Total);
  if (!issuedOn || !dueOn || amountCents <= 0) return null;
  return {
    externalId: invoice.InvoiceID,
    contactId: invoice.Contact.ContactID,
    number: invoice.InvoiceNumber?.trim() || null,
    amountCents,
    dueCents: Math.max(0, Math.min(amountCents, xeroCents(invoice.AmountDue))),
    currency: invoice.CurrencyCode.toUpperCase(),
    issuedOn,
    // A due date before the issue date (Xero allows it) is the issue date in Dunly.
    // biome-ignore lint/complexity/useMathMinMax: "YYYY-MM-DD" strings, ordered as dates (Math.max takes numbers).
    dueOn: dueOn < issuedOn ? issuedOn : dueOn,
  };
}

export const isOpen = (i: XeroInvoice) =>
  i.Type === "ACCREC" && (OPEN_STATUSES as readonly string[]).includes(i.Status) && i.AmountDue > 0;
export const isClosed = (i: XeroInvoice) => (CLOSED_STATUSES as readonly string[]).includes(i.Status);
