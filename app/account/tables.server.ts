import { eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  accountCadences,
  accountingConnections,
  accountingOauthStates,
  accountingWritebacks,
  alarmRepairs,
  bankAccounts,
  chargeAllocations,
  chargePauses,
  charges,
  debtorContacts,
  debtorEvents,
  debtorReplies,
  debtors,
  deliveries,
  deliveryArchives,
  deliveryRollups,
  deliveryStatusCounts,
  devOutbox,
  devQuickbooksObjects,
  devResendDomains,
  devStripeObjects,
  devXeroObjects,
  emails,
  invoiceOwedDays,
  invoices,
  lateChargeTerms,
  loginTokens,
  mailBatches,
  messageTemplates,
  oauthAccounts,
  oauthStates,
  onlinePayments,
  optOuts,
  organizations,
  passwordCredentials,
  paymentAllocations,
  paymentPlans,
  payments,
  planInstalments,
  planInvoices,
  rateLimitEvents,
  referenceRates,
  schedules,
  sendingDomains,
  sessions,
  stripeAccounts,
  textMessages,
  textOptOuts,
  textSettings,
  textStatusCounts,
  textUsage,
  userNotifications,
  users,
  webhookEvents,
} from "~/db/schema";

/**
 * Every table of the schema, said once (docs/decisions/023):
 * either it holds an account's data (ACCOUNT_TABLES: how to find the account's rows, deleted with
 * the account and in its export unless only secrets) or it is global (GLOBAL_TABLES, with why). A
 * test walks the schema's exports and fails on a table in neither list, so a table added later
 * cannot be forgotten by deletion or export.
 */

/** Whose rows: the account's id and its (lower-cased) e-mail address. */
export interface AccountKey {
  id: string;
  email: string;
}

export interface AccountTable {
  table: SQLiteTable;
  /** The account's rows of the table, as a WHERE condition (through the owner's indexes). */
  rows: (account: AccountKey) => SQL;
  /**
   * In the export: the columns left out (secrets), or `false` with the reason when the table holds
   * nothing but secrets. The array in the export is named as the SQL table.
   */
  exported: { omit: readonly string[] } | { no: string };
  /**
   * The export's page order: columns that follow the owner's column in one of the table's indexes,
   * so each keyset page is one index range; all NOT NULL, the last
   * unique. Absent: rowid (an index on the owner alone, or on the owner and the integer id, ends
   * with it).
   */
  keyset?: readonly (SQLiteColumn | SQL)[];
}

const byOwner = (column: Parameters<typeof eq>[0]) => (a: AccountKey) => eq(column, a.id);

/**
 * The account's tables, in the order deletion empties them: the schedules first (so no alarm that
 * fires meanwhile finds anything to send), children before their parents, the sessions and the
 * user last (until then the account still signs in, so a deletion cut short can be run again).
 */
export const ACCOUNT_TABLES: readonly AccountTable[] = [
  {
    table: schedules,
    rows: byOwner(schedules.ownerId),
    exported: { omit: [] },
    keyset: [schedules.createdAt, schedules.id],
  },
  // What payments paid on late-payment charges (decisions/065): before the payments and charges they name.
  {
    table: chargeAllocations,
    rows: (a) =>
      sql`${chargeAllocations.paymentId} IN (SELECT ${payments.id} FROM ${payments} WHERE ${payments.ownerId} = ${a.id})`,
    exported: { omit: [] },
    keyset: [chargeAllocations.paymentId, chargeAllocations.chargeId],
  },
  { table: charges, rows: byOwner(charges.ownerId), exported: { omit: [] } },
  { table: chargePauses, rows: byOwner(chargePauses.ownerId), exported: { omit: [] } },
  { table: lateChargeTerms, rows: byOwner(lateChargeTerms.ownerId), exported: { omit: [] } },
  { table: paymentPlans, rows: byOwner(paymentPlans.ownerId), exported: { omit: [] } },
  { table: planInstalments, rows: byOwner(planInstalments.ownerId), exported: { omit: [] } },
  { table: planInvoices, rows: byOwner(planInvoices.ownerId), exported: { omit: [] } },
  {
    table: paymentAllocations,
    rows: (a) =>
      sql`${paymentAllocations.paymentId} IN (SELECT ${payments.id} FROM ${payments} WHERE ${payments.ownerId} = ${a.id})`,
    exported: { omit: [] },
    keyset: [paymentAllocations.paymentId, paymentAllocations.invoiceId],
  },
  // Payments written back to the accounting tool (decisions/063): before the payments and invoices they name.
  {
    table: accountingWritebacks,
    rows: byOwner(accountingWritebacks.ownerId),
    exported: { omit: [] },
    keyset: [accountingWritebacks.status, accountingWritebacks.id],
  },
  { table: onlinePayments, rows: byOwner(onlinePayments.ownerId), exported: { omit: [] } },
  {
    table: userNotifications,
    rows: byOwner(userNotifications.ownerId),
    exported: { omit: [] },
    keyset: [userNotifications.status, userNotifications.id],
  },
  // Receipts, reply copies, plan and password e-mails, with their status (app/mail/recorded.server.ts).
  { table: emails, rows: byOwner(emails.ownerId), exported: { omit: [] }, keyset: [emails.createdAt, emails.id] },
  // The account's cadence and autopilot switch: one row.
  { table: accountCadences, rows: byOwner(accountCadences.ownerId), exported: { omit: [] } },
  // Bank-transfer details, one row per currency (decisions/051).
  { table: bankAccounts, rows: byOwner(bankAccounts.ownerId), exported: { omit: [] } },
  {
    table: accountingConnections,
    rows: byOwner(accountingConnections.ownerId),
    exported: { omit: ["access_token", "refresh_token"] },
  },
  {
    table: accountingOauthStates,
    rows: byOwner(accountingOauthStates.ownerId),
    exported: { no: "a connection to Xero under way: a PKCE verifier, a secret that expires in minutes" },
  },
  // The reminders' texts in the user's own words, per step and language (decisions/056).
  { table: messageTemplates, rows: byOwner(messageTemplates.ownerId), exported: { omit: [] } },
  { table: sendingDomains, rows: byOwner(sendingDomains.ownerId), exported: { omit: [] } },
  { table: debtorReplies, rows: byOwner(debtorReplies.ownerId), exported: { omit: [] } },
  // Text messages sent and the numbers that said STOP (decisions/068).
  { table: textMessages, rows: byOwner(textMessages.ownerId), exported: { omit: [] } },
  { table: debtorEvents, rows: byOwner(debtorEvents.ownerId), exported: { omit: [] } },
  {
    table: deliveries,
    rows: byOwner(deliveries.ownerId),
    exported: { omit: [] },
    keyset: [deliveries.createdAt, deliveries.id],
  },
  // After the deliveries: their delete trigger counts down these rows.
  { table: deliveryStatusCounts, rows: byOwner(deliveryStatusCounts.ownerId), exported: { omit: [] } },
  // The texts among them (decisions/070), counted down by the same deletes.
  { table: textStatusCounts, rows: byOwner(textStatusCounts.ownerId), exported: { omit: [] } },
  // The monthly counts of the archived deliveries and where their files are (docs/decisions/022).
  { table: deliveryRollups, rows: byOwner(deliveryRollups.ownerId), exported: { omit: [] } },
  { table: deliveryArchives, rows: byOwner(deliveryArchives.ownerId), exported: { omit: [] } },
  {
    table: payments,
    rows: byOwner(payments.ownerId),
    exported: { omit: [] },
    keyset: [payments.paidOn, payments.currency, payments.amountCents, payments.id],
  },
  { table: invoices, rows: byOwner(invoices.ownerId), exported: { omit: [] } },
  // After the invoices: their delete trigger counts these rows down (docs/decisions/028).
  {
    table: invoiceOwedDays,
    rows: byOwner(invoiceOwedDays.ownerId),
    exported: { omit: [] },
    keyset: [invoiceOwedDays.dueOn, invoiceOwedDays.currency],
  },
  { table: optOuts, rows: byOwner(optOuts.ownerId), exported: { omit: [] }, keyset: [optOuts.email] },
  // Texts (decisions/069): numbers that said STOP, the account's settings, each month's count.
  { table: textOptOuts, rows: byOwner(textOptOuts.ownerId), exported: { omit: [] }, keyset: [textOptOuts.number] },
  { table: textSettings, rows: byOwner(textSettings.ownerId), exported: { omit: [] } },
  { table: textUsage, rows: byOwner(textUsage.ownerId), exported: { omit: [] }, keyset: [textUsage.month] },
  // optOutKey: the key of the debtor's signed links, not the user's to carry around.
  { table: debtors, rows: byOwner(debtors.ownerId), exported: { omit: ["optOutKey"] } },
  // A debtor's other contacts, copied on their reminders (decisions/057).
  { table: debtorContacts, rows: byOwner(debtorContacts.ownerId), exported: { omit: [] } },
  { table: organizations, rows: byOwner(organizations.ownerId), exported: { omit: [] } },
  { table: stripeAccounts, rows: byOwner(stripeAccounts.userId), exported: { omit: [] } },
  { table: oauthAccounts, rows: byOwner(oauthAccounts.userId), exported: { omit: [] } },
  {
    table: passwordCredentials,
    rows: byOwner(passwordCredentials.userId),
    exported: { no: "only the password's hash, salt and iteration count: secrets" },
  },
  {
    table: loginTokens,
    rows: (a) => eq(loginTokens.email, a.email),
    exported: { no: "only the hashes of unused sign-in links: secrets, minutes long" },
  },
  // id: the hash of the session's token.
  { table: sessions, rows: byOwner(sessions.userId), exported: { omit: ["id"] } },
  { table: users, rows: (a) => eq(users.id, a.id), exported: { omit: [] } },
];

/** The tables that hold no account's data, each with the reason (checked against the schema by a test). */
export const GLOBAL_TABLES: ReadonlyMap<SQLiteTable, string> = new Map<SQLiteTable, string>([
  [oauthStates, "a Google sign-in under way, not yet anyone's: a PKCE verifier that expires in minutes"],
  [
    rateLimitEvents,
    "abuse counters the housekeeping job drops within a day, keyed by a client or an address; a deleted account's own (its id, its address) go with it",
  ],
  [referenceRates, "published central bank rates (decisions/064), the same for every account, kept by an operator"],
  [webhookEvents, "the ids and types of provider events already handled, nothing about whom"],
  [alarmRepairs, "schedule ids only: the watchdog disarms a deleted schedule's alarm from it, then removes the row"],
  [
    devStripeObjects,
    "development and test only: the local Stripe stand-in's objects (Stripe holds them in production)",
  ],
  [
    devXeroObjects,
    "development and test only: the local Xero stand-in's organisations, contacts, invoices and grants (Xero holds them in production)",
  ],
  [
    devQuickbooksObjects,
    "development and test only: the local QuickBooks stand-in's companies, customers, invoices and grants (Intuit holds them in production)",
  ],
  [devOutbox, "development and test only: the local mailbox of what would have been sent"],
  [
    devResendDomains,
    "development and test only: the local stand-in of Resend's Domains API (Resend holds them in production)",
  ],
  [
    mailBatches,
    "requests to the provider in flight (decisions/021), minutes long, each carrying several accounts' reminders; deleted once settled. Each attempt re-checks its e-mails (decisions/045): a deleted account's are not sent",
  ],
]);
