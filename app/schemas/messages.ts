import { MAX_PAYMENTS_PER_DEBTOR } from "~/domain/account-caps";

/**
 * The messages that more than one place says: a form action and the JSON
 * API answering the same refusal, a component's fallback for an action's answer. Written once here;
 * client safe. The spec's own wording (docs/product-spec.md §8) is kept, full stops included.
 */

/** The generic failure of debtor, organization, payment and profile writes (spec §8, no full stop). */
export const SOMETHING_WRONG = "Something went wrong";

/** The generic failure of schedule writes and the re-send, as the spec spells it there (§5, §8). */
export const SCHEDULE_SOMETHING_WRONG = "Something went wrong.";

/** What the form's toasts and the API's answers say about debtors. */
export const DEBTOR_MESSAGES = {
  added: "Debtor added",
  updated: "Debtor updated",
  deleted: "Debtor deleted",
  invalid: "Invalid debtor",
  notFound: "Debtor not found",
  missingId: "Missing debtor id",
} as const;

/**
 * An add-debtor form (or POST /api/debtors/add) with an e-mail one of the user's debtors already has
 *.
 */
export function twinDebtorMessage(name: string) {
  return `You already have a debtor with this e-mail: ${name}.`;
}

/** What the user is told when `n` (one or more) paused or stopped schedules of a debtor run again. */
export function remindersResumedMessage(n: number) {
  return n === 1 ? "Reminders resumed: 1 schedule runs again." : `Reminders resumed: ${n} schedules run again.`;
}

/** "Add this invoice to <name>": the add-debtor form's debt became an invoice of that debtor. */
export function invoiceAddedToMessage(name: string) {
  return `Invoice added to ${name}.`;
}

export const ORGANIZATION_MESSAGES = {
  added: "Organization added",
  updated: "Organization updated",
  deleted: "Organization deleted",
  invalid: "Invalid organization",
  notFound: "Organization not found",
  missingId: "Missing organization id",
} as const;

/** The messages of an owned record's add, edit and delete (debtors, organizations). */
export type RecordMessages = typeof DEBTOR_MESSAGES | typeof ORGANIZATION_MESSAGES;

export const CONTACT_MESSAGES = {
  added: "Contact added.",
  updated: "Contact updated.",
  deleted: "Contact removed.",
  invalid: "Invalid contact",
  notFound: "Contact not found",
  missingId: "Missing contact id",
} as const;

export const INVOICE_MESSAGES = {
  added: "Invoice added.",
  updated: "Invoice updated.",
  voided: "Invoice voided.",
  notChased: "Reminders leave this invoice out now, and name it apart. It is still owed.",
  chased: "This invoice is chased again: reminders and the cadence include it.",
  /** Appended when a write leaves nothing owed and reminders stopped. */
  remindersStopped: "Nothing is owed any more: reminders to this debtor have stopped.",
  invalid: "Invalid invoice",
  notFound: "Invoice not found",
  missingId: "Missing invoice id",
} as const;

export const PAYMENT_MESSAGES = {
  added: "Payment recorded.",
  updated: "Payment updated.",
  deleted: "Payment deleted.",
  invalid: "Invalid payment",
  notFound: "Payment not found",
  missingId: "Missing payment id",
  /** A debtor keeps at most MAX_PAYMENTS_PER_DEBTOR payments. */
  tooMany: `This debtor already has ${MAX_PAYMENTS_PER_DEBTOR.toLocaleString("en-US")} payments, the most one debtor can have.`,
  invoiceNotFound: "Please choose one of the debtor's open invoices",
  /** Appended after a write that left the debt paid in full and stopped reminders. */
  remindersStopped: "The debt is paid in full: reminders to this debtor have stopped.",
  /** Appended after a write that left the debt paid in full, with no reminder to stop. */
  paidInFull: "The debt is paid in full.",
  /** Appended after a write that leaves the debt owed while Dunly's stopped reminders stay stopped. */
  stayStopped: "Reminders stay stopped until you resume them.",
} as const;

/** An accounting tool's name as the user knows it. */
export const BOOKS_NAMES = { xero: "Xero", quickbooks: "QuickBooks" } as const;

/**
 * Appended after a new payment on invoices synced from an accounting tool (decisions/063): Dunly
 * writes it there (the setting is on), or the user records it there too.
 */
export function booksMessage(books: { provider: keyof typeof BOOKS_NAMES; written: boolean } | null | undefined) {
  if (!books) return "";
  const name = BOOKS_NAMES[books.provider];
  return books.written
    ? ` Dunly records it in ${name} too.`
    : ` Record this payment in ${name} too: Dunly does not write to your books unless you turn that on in Settings → Accounting.`;
}

export const SCHEDULE_MESSAGES = {
  scheduled: "Email reminder scheduled.",
  deleted: "Schedule deleted",
  paused: "Schedule paused",
  resumed: "Schedule resumed",
  resent: "Emails sending rescheduled.",
  invalid: "Invalid schedule",
  notFound: "Schedule not found",
  missingName: "Missing schedule name",
} as const;

/** The note "Confirm payment"'s form starts with, for a debtor's "I've paid" (the user may change or clear it). */
export const CONFIRMED_PAYMENT_NOTE = "The debtor said they had paid; confirmed.";

/** The toast after Settings → Delete account (docs/decisions/023). */
export const ACCOUNT_DELETED =
  "Your account is being deleted: you are signed out everywhere, nothing more is sent, and its data is gone within minutes.";
