/**
 * What the sync needs from an accounting tool (decisions/061), whichever it is: Xero or QuickBooks
 * Online. Each provider's client maps its own JSON into these shapes; app/accounting/sync.server.ts
 * knows only them. Pure types and one error class: no I/O.
 */

import type { BooksProvider } from "~/domain/books";

export { BOOKS_LABEL, type BooksProvider } from "~/domain/books";

/** A sales invoice as the sync reads it. Amounts in cents, dates YYYY-MM-DD, updatedAt epoch ms. */
export interface BooksInvoice {
  externalId: string;
  contactId: string;
  number: string | null;
  amountCents: number;
  /** What is still due on it (payments and credits lowered it). */
  dueCents: number;
  currency: string;
  issuedOn: string;
  dueOn: string;
  /** Something a reminder may chase: sent to the customer, something due, not a draft or a bill. */
  open: boolean;
  /** Gone from the books (voided or deleted): Dunly voids its copy. */
  closed: boolean;
  updatedAt: number;
  /** The invoice's page in the tool, for the user; null when there is none. */
  url?: string | null;
  /** The address the invoice is billed to, when the tool keeps one per invoice. */
  billEmail?: string | null;
}

/** A customer as a synced debtor's values. */
export interface BooksDebtor {
  externalId: string;
  fullName: string;
  email: string;
  contactName: string | null;
  currency: string;
}

/** One connected organisation's books, read through the provider's one client. */
export interface BooksSource {
  provider: BooksProvider;
  label: string;
  /** Open invoices a page of `openPage` holds at most (the last page holds fewer). */
  pageSize: number;
  /** The open sales invoices, at most `maxPages` of the provider's pages. */
  openInvoices(maxPages: number): Promise<BooksInvoice[]>;
  /**
   * One page (from 1) of the open sales invoices in a stable order, and whether it is the last: the
   * first import reads them a few pages a step (decisions/060).
   */
  openPage(page: number): Promise<{ invoices: BooksInvoice[]; last: boolean }>;
  /**
   * The invoices changed since the cursor (null: never synced), at most `maxPages` pages; `complete`
   * false when the run stopped early; `cursor`: where the next sync asks from.
   */
  changedSince(
    cursor: string | null,
    maxPages: number,
  ): Promise<{ invoices: BooksInvoice[]; complete: boolean; cursor: string | null }>;
  /** The cursor meaning "changed since this instant", in the form `changedSince` takes. */
  cursorAt(ms: number): string;
  /** The customers of these invoices that can be debtors (those with an address), by their id. */
  customersOf(invoices: readonly BooksInvoice[], fallbackCurrency: string): Promise<Map<string, BooksDebtor>>;
}

export type BooksErrorKind = "rate-limited" | "reconnect" | "refused" | "unreachable";

/** An accounting tool's failure, with words for the user (`message`). */
export class BooksError extends Error {
  constructor(
    readonly kind: BooksErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "BooksError";
  }
}

/** An OAuth grant from a token endpoint: the access token, its rotating refresh token, the expiry. */
export interface BooksGrant {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

/** A session with one organisation: the access token now, and a refresh the client calls once on a 401. */
export interface BooksSession {
  tenantId: string | null;
  accessToken: () => Promise<string>;
  refresh: () => Promise<string>;
}
