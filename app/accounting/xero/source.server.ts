import { chunk } from "~/db/chunk";
import { BOOKS_LABEL, type BooksDebtor, type BooksInvoice, type BooksSession, type BooksSource } from "../books";
import { apiUrl, XERO_PAGE_SIZE, type XeroSetup, xeroInvoiceUrl, xeroRequest } from "./client.server";
import {
  debtorOf,
  invoiceOf,
  isClosed,
  isOpen,
  type XeroContact,
  type XeroInvoice,
  xeroCents,
  xeroTime,
} from "./mapping";

/**
 * Xero's books as the sync reads them (decisions/060, 061): sales invoices page by page (100 each,
 * oldest change first, If-Modified-Since the cursor) and their contacts, 50 a call, mapped to the
 * provider-neutral shapes of app/accounting/books.ts.
 */

const CONTACTS_PER_CALL = 50;

/** A Xero sales invoice in the sync's shape; null for a bill (Dunly chases only what it is owed). */
export function booksInvoiceOf(invoice: XeroInvoice, setup?: XeroSetup): BooksInvoice | null {
  if (invoice.Type !== "ACCREC") return null;
  const mapped = invoiceOf(invoice);
  const updatedAt = xeroTime(invoice.UpdatedDateUTC);
  return {
    externalId: invoice.InvoiceID,
    contactId: invoice.Contact.ContactID,
    number: mapped?.number ?? (invoice.InvoiceNumber?.trim() || null),
    amountCents: mapped?.amountCents ?? xeroCents(invoice.Total),
    dueCents: Math.max(0, xeroCents(invoice.AmountDue)),
    currency: (mapped?.currency ?? invoice.CurrencyCode).toUpperCase(),
    issuedOn: mapped?.issuedOn ?? "",
    dueOn: mapped?.dueOn ?? "",
    open: Boolean(mapped) && isOpen(invoice),
    closed: isClosed(invoice),
    updatedAt: Number.isFinite(updatedAt) ? updatedAt : 0,
    url: setup ? xeroInvoiceUrl(setup, invoice.InvoiceID) : null,
  };
}

const mapAll = (rows: readonly XeroInvoice[], setup: XeroSetup) =>
  rows.flatMap((i) => {
    const m = booksInvoiceOf(i, setup);
    return m ? [m] : [];
  });

/** Xero's sales invoices, page by page (100 each), oldest change first. */
async function invoicePages(
  setup: XeroSetup,
  session: BooksSession,
  options: { statuses?: string; since?: string; maxPages: number },
) {
  const all: XeroInvoice[] = [];
  let complete = false;
  for (let page = 1; page <= options.maxPages; page++) {
    const body = await xeroRequest<{ Invoices?: XeroInvoice[] }>(
      setup,
      session,
      apiUrl(setup, "Invoices", {
        where: 'Type=="ACCREC"',
        Statuses: options.statuses,
        order: "UpdatedDateUTC ASC",
        page,
      }),
      { ifModifiedSince: options.since },
    );
    const rows = body.Invoices ?? [];
    all.push(...rows);
    if (rows.length < XERO_PAGE_SIZE) {
      complete = true;
      break;
    }
  }
  return { invoices: all, complete };
}

export function xeroSource(setup: XeroSetup, session: BooksSession): BooksSource {
  return {
    provider: "xero",
    label: BOOKS_LABEL.xero,
    pageSize: XERO_PAGE_SIZE,
    async openPage(page) {
      const body = await xeroRequest<{ Invoices?: XeroInvoice[] }>(
        setup,
        session,
        apiUrl(setup, "Invoices", {
          where: 'Type=="ACCREC"',
          Statuses: "AUTHORISED",
          order: "UpdatedDateUTC ASC",
          page,
        }),
      );
      const rows = body.Invoices ?? [];
      return { invoices: mapAll(rows, setup).filter((i) => i.open), last: rows.length < XERO_PAGE_SIZE };
    },
    async openInvoices(maxPages) {
      const { invoices } = await invoicePages(setup, session, { statuses: "AUTHORISED", maxPages });
      return mapAll(invoices, setup).filter((i) => i.open);
    },
    async changedSince(cursor, maxPages) {
      const since = cursor ?? undefined;
      const { invoices, complete } = await invoicePages(setup, session, { since, maxPages });
      // The newest change read: the next sync asks from there (all of it again when a run stopped early).
      const newest = invoices.reduce((max, i) => Math.max(max, xeroTime(i.UpdatedDateUTC)), Number.NEGATIVE_INFINITY);
      return {
        invoices: mapAll(invoices, setup),
        complete,
        cursor: Number.isFinite(newest) ? new Date(newest).toISOString().slice(0, 19) : cursor,
      };
    },
    // Xero's If-Modified-Since: the UTC time without a zone.
    cursorAt: (ms) => new Date(ms).toISOString().slice(0, 19),
    async customersOf(invoices, fallbackCurrency) {
      const found = new Map<string, BooksDebtor>();
      if (invoices.length === 0) return found;
      for (const slice of chunk([...new Set(invoices.map((i) => i.contactId))], CONTACTS_PER_CALL)) {
        const body = await xeroRequest<{ Contacts?: XeroContact[] }>(
          setup,
          session,
          apiUrl(setup, "Contacts", { IDs: slice.join(",") }),
        );
        for (const c of body.Contacts ?? []) {
          const d = debtorOf(c, invoices.find((i) => i.contactId === c.ContactID)?.currency ?? fallbackCurrency);
          if (d) found.set(c.ContactID, d);
        }
      }
      return found;
    },
  };
}
