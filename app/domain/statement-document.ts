import type { BankTransfer } from "./bank-transfer";
import type { Language } from "./languages";

/**
 * The statement a debtor downloads as a PDF from their page: their open invoices, the totals and
 * how to pay, every value already written as the page shows it. The mail Worker lays it out
 * (emails/statement-pdf.ts), so the app Worker carries no PDF library.
 */
export interface StatementDocument {
  /** Who is owed, as the reminders named them. */
  sender: string;
  debtorName: string;
  /** The day it was made, written out ("29 November 2026"). */
  date: string;
  lines: {
    number: string;
    issued: string;
    due: string;
    /** "Overdue · 20 days", "Due in 10 days", "Disputed". */
    state: string;
    balance: string;
    /** Its late-payment charges (decisions/067), each as written out; absent: none. */
    charges?: StatementChargeLine[];
  }[];
  /** Charges still owed on invoices paid in full, under their heading; absent: none. */
  chargesOnPaid?: StatementChargeLine[];
  chargesOnPaidHeading?: string;
  /**
   * "Total still owed: €2,000.00" per currency; with charges, "Invoices: …", "Charges: …",
   * "Total: …" per currency.
   */
  totals: string[];
  bankTransfer: BankTransfer[];
  /** The debtor's page: pay online, answer. */
  portalUrl: string;
  /** The language every value is written in, and the PDF's own words (app/domain/debtor-mail-copy.ts); none: English. */
  language?: Language;
}

/** A late-payment charge on the statement PDF: its label, its legal basis in words, what is owed of it. */
export interface StatementChargeLine {
  label: string;
  /** The legal basis in words; null: none readable. */
  basis: string | null;
  /** "£10.00 of £32.00 paid", "Paid", or "". */
  state: string;
  balance: string;
}

/** The statement's file name: "statement-2026-11-29.pdf". */
export function statementFileName(isoDate: string) {
  return `statement-${isoDate}.pdf`;
}
