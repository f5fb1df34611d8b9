import { chunk } from "~/db/chunk";
import { BOOKS_LABEL, type BooksDebtor, type BooksInvoice, type BooksSession, type BooksSource } from "../books";
import { QUICKBOOKS_PAGE_SIZE, type QuickBooksSetup, quickBooksInvoiceUrl, quickBooksRequest } from "./client.server";
import {
  cdcInvoices,
  debtorOf,
  invoiceOf,
  isDeleted,
  type QboCdcResponse,
  type QboInvoice,
  type QboQueryResponse,
  qboTime,
  queriedCustomers,
  queriedInvoices,
} from "./mapping";

/**
 * QuickBooks Online's books as the sync reads them (decisions/061): open invoices by query
 * (`Balance > '0'`, 1,000 a page by startposition), changes by change data capture (Invoice,
 * Payment, CreditMemo since the cursor: a payment or a credit lowers its invoice's Balance, which is
 * what the sync reads), and customers by id, mapped to the provider-neutral shapes.
 *
 * Change data capture answers at most 1,000 objects an entity and looks back 30 days at most: when
 * it is full, or the cursor is older, the changed invoices are read by query instead, in order of
 * their last change, page by page (deletions are then seen only by change data capture).
 */

const CUSTOMERS_PER_QUERY = 50;
/** Change data capture looks back 30 days; a day's margin. */
const CDC_MAX_AGE_MS = 29 * 86_400_000;

const quote = (s: string) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

async function queryPages(
  setup: QuickBooksSetup,
  session: BooksSession,
  select: string,
  maxPages: number,
): Promise<{ invoices: QboInvoice[]; complete: boolean }> {
  const all: QboInvoice[] = [];
  for (let page = 0; page < maxPages; page++) {
    const body = await quickBooksRequest<QboQueryResponse>(setup, session, "query", {
      query: `${select} startposition ${page * QUICKBOOKS_PAGE_SIZE + 1} maxresults ${QUICKBOOKS_PAGE_SIZE}`,
    });
    const rows = queriedInvoices(body);
    all.push(...rows);
    if (rows.length < QUICKBOOKS_PAGE_SIZE) return { invoices: all, complete: true };
  }
  return { invoices: all, complete: false };
}

/**
 * The ISO 8601 instant QuickBooks' changedSince and its queries take ("2026-11-29T11:22:00+00:00"),
 * to the second below: both read from it inclusively, and reading a change twice changes nothing.
 */
const isoAt = (ms: number) => `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;

export function quickBooksSource(setup: QuickBooksSetup, session: BooksSession, now = () => Date.now()): BooksSource {
  // Each with its page in QuickBooks.
  const booksInvoice = (i: QboInvoice): BooksInvoice => ({ ...invoiceOf(i), url: quickBooksInvoiceUrl(setup, i.Id) });
  return {
    provider: "quickbooks",
    label: BOOKS_LABEL.quickbooks,
    pageSize: QUICKBOOKS_PAGE_SIZE,
    async openInvoices(maxPages) {
      const { invoices } = await queryPages(setup, session, "select * from Invoice where Balance > '0'", maxPages);
      return invoices.map(booksInvoice).filter((i) => i.open);
    },
    async openPage(page) {
      // Oldest change first, as Xero's: the import reads its last page again (decisions/060).
      const body = await quickBooksRequest<QboQueryResponse>(setup, session, "query", {
        query: `select * from Invoice where Balance > '0' orderby Metadata.LastUpdatedTime startposition ${(page - 1) * QUICKBOOKS_PAGE_SIZE + 1} maxresults ${QUICKBOOKS_PAGE_SIZE}`,
      });
      const rows = queriedInvoices(body);
      return { invoices: rows.map(booksInvoice).filter((i) => i.open), last: rows.length < QUICKBOOKS_PAGE_SIZE };
    },
    async changedSince(cursor, maxPages) {
      const since = cursor ? qboTime(cursor) : 0;
      const fresh = since > 0 && now() - since < CDC_MAX_AGE_MS;
      let deleted: BooksInvoice[] = [];
      if (fresh && cursor) {
        const body = await quickBooksRequest<QboCdcResponse>(setup, session, "cdc", {
          entities: "Invoice,Payment,CreditMemo",
          changedSince: isoAt(since),
        });
        const raw = cdcInvoices(body);
        const changed = raw.map(booksInvoice);
        if (changed.length < QUICKBOOKS_PAGE_SIZE) {
          // Complete: the next sync asks from the moment QuickBooks answered.
          const answered = qboTime(body.time);
          return { invoices: changed, complete: true, cursor: answered > 0 ? isoAt(answered) : cursor };
        }
        deleted = raw.filter(isDeleted).map(booksInvoice);
      }
      // Too many changes for one answer, or too long ago: page through them by query, oldest first.
      const from = isoAt(since);
      const { invoices, complete } = await queryPages(
        setup,
        session,
        `select * from Invoice where Metadata.LastUpdatedTime >= ${quote(from)} orderby Metadata.LastUpdatedTime`,
        maxPages,
      );
      const read = invoices.map(booksInvoice);
      const newest = read.reduce((max, i) => Math.max(max, i.updatedAt), since);
      return {
        invoices: [...deleted, ...read],
        complete,
        cursor: complete ? isoAt(Math.max(newest, now() - 1000)) : isoAt(newest),
      };
    },
    cursorAt: (ms) => isoAt(ms),
    async customersOf(invoices, fallbackCurrency) {
      const found = new Map<string, BooksDebtor>();
      const ids = [...new Set(invoices.map((i) => i.contactId).filter(Boolean))];
      for (const slice of chunk(ids, CUSTOMERS_PER_QUERY)) {
        const body = await quickBooksRequest<QboQueryResponse>(setup, session, "query", {
          query: `select * from Customer where Id in (${slice.map(quote).join(", ")}) maxresults ${QUICKBOOKS_PAGE_SIZE}`,
        });
        for (const c of queriedCustomers(body)) {
          const first =
            invoices.find((i) => i.contactId === c.Id && i.billEmail) ?? invoices.find((i) => i.contactId === c.Id);
          const d = debtorOf(c, first, fallbackCurrency);
          if (d) found.set(c.Id, d);
        }
      }
      return found;
    },
  };
}
