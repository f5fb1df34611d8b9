import { and, asc, count, desc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { accountingConnections, accountingWritebacks, debtors, invoices, payments } from "~/db/schema";
import { bankAccountLabel } from "~/schemas/accounting-writeback";
import { BOOKS_LABEL, BooksError } from "./books";
import { type ConnectionRow, connectionOf, xeroSession } from "./connection.server";
import { type QuickBooksSetup, quickBooksRequest } from "./quickbooks/client.server";
import { quickBooksSession } from "./quickbooks/connection.server";
import type { AccountingSetups } from "./sources.server";
import { apiUrl, type XeroSetup, xeroRequest } from "./xero/client.server";

/**
 * Dunly's payments written back to the accounting tool (decisions/063), Xero or QuickBooks Online.
 * The setting ("Record Dunly's payments in Xero|QuickBooks", off by default) names a bank account
 * of the books; while it does, a payment recorded in Dunly on a synced invoice (typed in, confirmed
 * from "I've paid", or paid online) is queued in the payment's own batch
 * (app/ledger/writeback-outbox.server.ts). The sender here writes each queued row to its tool once:
 * Xero's PUT Payments under an Idempotency-Key, QuickBooks' POST payment under a requestid, each
 * derived from the row, so a retry after an unanswered attempt never makes a second payment; each
 * row is claimed before it is sent, so two senders never send it at once. Failures are kept in
 * words on the row and retried with back-off, then shown as given up until the user tries again:
 * never dropped. The next sync finds the books' amount due (Xero's AmountDue, QuickBooks' Balance)
 * equal to what Dunly has owed since the payment, so it records nothing twice.
 */

/** How long an attempt holds its row: another sender leaves it alone meanwhile. */
const CLAIM_MS = 2 * 60_000;
/** The wait before each retry (after the 1st, 2nd, … failed attempt); past the last, it gives up. */
const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000];
export const MAX_WRITEBACK_ATTEMPTS = BACKOFF_MS.length + 1;
/** The wait of a row that cannot go until the user acts (connect again). */
const FREE_WAIT_MS = 30 * 60_000;
/** Rows one run sends at most (each is one call; Xero allows 60 a minute per organisation, QuickBooks 500 per company). */
export const WRITEBACKS_PER_RUN = 20;
/** Rows the tab lists (those not written yet, newest first). */
const LISTED = 20;

export interface BankAccount {
  id: string;
  name: string;
  code: string | null;
  currency: string | null;
}

interface XeroAccountJson {
  AccountID: string;
  Code?: string;
  Name: string;
  Type: string;
  Status: string;
  CurrencyCode?: string;
}

/** The organisation's active bank accounts (GET Accounts where Type=="BANK" and Status=="ACTIVE"), by name. */
export async function xeroBankAccounts(db: Db, setup: XeroSetup, connection: ConnectionRow): Promise<BankAccount[]> {
  const body = await xeroRequest<{ Accounts?: XeroAccountJson[] }>(
    setup,
    xeroSession(db, setup, connection),
    apiUrl(setup, "Accounts", { where: 'Type=="BANK"&&Status=="ACTIVE"' }),
  );
  return (body.Accounts ?? [])
    .filter((a) => a.Type === "BANK" && a.Status === "ACTIVE")
    .map((a) => ({ id: a.AccountID, name: a.Name, code: a.Code ?? null, currency: a.CurrencyCode ?? null }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

interface QboAccountJson {
  Id: string;
  Name: string;
  AcctNum?: string;
  AccountType: string;
  Active?: boolean;
  CurrencyRef?: { value?: string };
}

/** The company's active bank accounts (the query `select * from Account where AccountType = 'Bank' and Active = true`), by name. */
export async function quickBooksBankAccounts(
  db: Db,
  setup: QuickBooksSetup,
  connection: ConnectionRow,
): Promise<BankAccount[]> {
  const body = await quickBooksRequest<{ QueryResponse?: { Account?: QboAccountJson[] } }>(
    setup,
    quickBooksSession(db, setup, connection),
    "query",
    { query: "select * from Account where AccountType = 'Bank' and Active = true maxresults 1000" },
  );
  return (body.QueryResponse?.Account ?? [])
    .filter((a) => a.AccountType === "Bank" && a.Active !== false)
    .map((a) => ({ id: a.Id, name: a.Name, code: a.AcctNum?.trim() || null, currency: a.CurrencyRef?.value ?? null }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The active bank accounts of the connection's books, through its tool's client; null when the tool is not available here. */
export function bankAccountsOfBooks(db: Db, setups: AccountingSetups, connection: ConnectionRow) {
  if (connection.provider === "xero") return setups.xero ? xeroBankAccounts(db, setups.xero, connection) : null;
  return setups.quickbooks ? quickBooksBankAccounts(db, setups.quickbooks, connection) : null;
}

/** Turns the setting on with this bank account (its id and name as the books have them), or off (null). */
export async function setWriteback(db: Db, ownerId: string, account: BankAccount | null, now = Date.now()) {
  const [row] = await db
    .update(accountingConnections)
    .set({
      writebackAccountId: account?.id ?? null,
      writebackAccountName: account ? bankAccountLabel(account) : null,
      updatedAt: now,
    })
    .where(eq(accountingConnections.ownerId, ownerId))
    .returning({ ownerId: accountingConnections.ownerId });
  return Boolean(row);
}

/** A queued row with what its request and its words need. */
interface Due {
  id: number;
  ownerId: string;
  paymentId: number;
  provider: "xero" | "quickbooks";
  amountCents: number;
  currency: string;
  accountId: string;
  attempts: number;
  refusals: number;
  externalId: string | null;
  /** The invoice's customer in the books (QuickBooks' CustomerRef). */
  customerId: string | null;
  number: string | null;
  paidOn: string;
  note: string;
}

const dueColumns = {
  id: accountingWritebacks.id,
  ownerId: accountingWritebacks.ownerId,
  paymentId: accountingWritebacks.paymentId,
  provider: accountingWritebacks.provider,
  amountCents: accountingWritebacks.amountCents,
  currency: accountingWritebacks.currency,
  accountId: accountingWritebacks.accountId,
  attempts: accountingWritebacks.attempts,
  refusals: accountingWritebacks.refusals,
  externalId: invoices.externalId,
  customerId: debtors.externalId,
  number: invoices.number,
  paidOn: payments.paidOn,
  note: payments.note,
};

/** The rows due now (of one owner, or of every account for the watchdog), oldest due first. */
function dueRows(db: Db, now: number, limit: number, ownerId?: string) {
  return db
    .select(dueColumns)
    .from(accountingWritebacks)
    .innerJoin(invoices, eq(invoices.id, accountingWritebacks.invoiceId))
    .innerJoin(payments, eq(payments.id, accountingWritebacks.paymentId))
    .leftJoin(
      debtors,
      and(eq(debtors.id, invoices.debtorId), eq(debtors.sourceProvider, accountingWritebacks.provider)),
    )
    .where(
      and(
        ownerId ? eq(accountingWritebacks.ownerId, ownerId) : undefined,
        eq(accountingWritebacks.status, "pending"),
        lte(accountingWritebacks.nextAttemptAt, now),
      ),
    )
    .orderBy(asc(accountingWritebacks.nextAttemptAt), asc(accountingWritebacks.id))
    .limit(limit);
}

/** "120.00 EUR on INV-004": the payment as the user and the books name it. */
const described = (row: Pick<Due, "amountCents" | "currency" | "number">) =>
  `${(row.amountCents / 100).toFixed(2)} ${row.currency}${row.number ? ` on ${row.number}` : ""}`;

/** The Idempotency-Key of a row's request: the same for every attempt, new only after a definite refusal. */
export const writebackKey = (row: Pick<Due, "ownerId" | "paymentId" | "refusals"> & { invoiceId: number }) =>
  `dunly-payment-${row.ownerId}-${row.paymentId}-${row.invoiceId}-${row.refusals}`;

/**
 * QuickBooks' requestid of a row's request (at most 50 characters, unique per company): derived
 * from the row as Xero's key is, the same for every attempt, new only after a definite refusal
 * (QuickBooks answers a requestid it has seen with its first answer, a refusal included).
 */
export async function quickBooksRequestId(row: Parameters<typeof writebackKey>[0]) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(writebackKey(row)));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `dunly-${hex.slice(0, 44)}`;
}

/** Claims the row for one attempt (counted); false when another sender has it or it is no longer due. */
async function claim(db: Db, row: Due, now: number) {
  const [claimed] = await db
    .update(accountingWritebacks)
    .set({ nextAttemptAt: now + CLAIM_MS, attempts: sql`${accountingWritebacks.attempts} + 1`, updatedAt: now })
    .where(
      and(
        eq(accountingWritebacks.id, row.id),
        eq(accountingWritebacks.status, "pending"),
        lte(accountingWritebacks.nextAttemptAt, now),
      ),
    )
    .returning({ attempts: accountingWritebacks.attempts, invoiceId: accountingWritebacks.invoiceId });
  return claimed ?? null;
}

/**
 * A failed attempt: retried after its back-off, or given up (shown on the tab) past the last.
 * `refused`: the tool answered and made nothing, so the next attempt has a new key. `free`: not the tool's
 * answer (the connection must be renewed first): it waits without using up an attempt. `final`:
 * nothing can be written any more (given up now).
 */
async function failedAttempt(
  db: Db,
  row: Due,
  attempts: number,
  message: string,
  now: number,
  options: { refused?: boolean; free?: boolean; final?: boolean } = {},
) {
  const used = options.free ? Math.max(0, attempts - 1) : attempts;
  const giveUp = options.final || used >= MAX_WRITEBACK_ATTEMPTS;
  const wait = options.free ? FREE_WAIT_MS : (BACKOFF_MS[Math.max(0, used - 1)] ?? FREE_WAIT_MS);
  const label = BOOKS_LABEL[row.provider];
  await db
    .update(accountingWritebacks)
    .set({
      status: giveUp ? "failed" : "pending",
      attempts: used,
      refusals: options.refused ? sql`${accountingWritebacks.refusals} + 1` : accountingWritebacks.refusals,
      nextAttemptAt: giveUp ? null : now + wait,
      lastError: !giveUp
        ? message
        : options.final
          ? `${message} Record it in ${label}.`
          : `${message} Dunly stopped trying after ${used} attempts: record it in ${label}, or try again.`,
      updatedAt: now,
    })
    .where(eq(accountingWritebacks.id, row.id));
}

interface XeroPaymentAnswer {
  Payments?: { PaymentID?: string; StatusAttributeString?: string; ValidationErrors?: { Message?: string }[] }[];
}

/** What the tool answered a row's request: its payment's id, or why it made none (its own words). */
type Posted = { id: string } | { refused: string };

/** PUT Payments to Xero under the row's Idempotency-Key. */
async function postToXero(db: Db, setup: XeroSetup, connection: ConnectionRow, row: Due, invoiceId: number) {
  const answer = await xeroRequest<XeroPaymentAnswer>(
    setup,
    xeroSession(db, setup, connection),
    apiUrl(setup, "Payments"),
    {
      method: "PUT",
      idempotencyKey: writebackKey({ ...row, invoiceId }),
      body: {
        Payments: [
          {
            Invoice: { InvoiceID: row.externalId },
            Account: { AccountID: row.accountId },
            Date: row.paidOn,
            Amount: row.amountCents / 100,
            Reference: (row.note.trim() || "Recorded in Dunly").slice(0, 255),
          },
        ],
      },
    },
  );
  const [payment] = answer.Payments ?? [];
  const problems = (payment?.ValidationErrors ?? []).map((e) => e.Message?.trim().replace(/\.+$/, "")).filter(Boolean);
  if (!payment?.PaymentID || problems.length > 0) {
    return { refused: problems.join(". ") || "it answered without a payment" } satisfies Posted;
  }
  return { id: payment.PaymentID } satisfies Posted;
}

/**
 * POST a Payment to QuickBooks under the row's requestid: the invoice's customer, the amount, the
 * day, the bank account, one line linked to the invoice.
 */
async function postToQuickBooks(
  db: Db,
  setup: QuickBooksSetup,
  connection: ConnectionRow,
  row: Due,
  invoiceId: number,
): Promise<Posted> {
  if (!row.customerId) return { refused: "the invoice's customer is not known in QuickBooks" };
  const answer = await quickBooksRequest<{ Payment?: { Id?: string } }>(
    setup,
    quickBooksSession(db, setup, connection),
    "payment",
    { requestid: await quickBooksRequestId({ ...row, invoiceId }) },
    {
      CustomerRef: { value: row.customerId },
      TotalAmt: row.amountCents / 100,
      TxnDate: row.paidOn,
      DepositToAccountRef: { value: row.accountId },
      PrivateNote: (row.note.trim() || "Recorded in Dunly").slice(0, 255),
      Line: [{ Amount: row.amountCents / 100, LinkedTxn: [{ TxnId: row.externalId, TxnType: "Invoice" }] }],
    },
  );
  return answer.Payment?.Id ? { id: answer.Payment.Id } : { refused: "it answered without a payment" };
}

/** One attempt at one row: the tool's payment, or the failure in words. */
async function sendOne(
  db: Db,
  post: (row: Due, invoiceId: number) => Promise<Posted>,
  connection: ConnectionRow,
  row: Due,
  now: number,
) {
  const label = BOOKS_LABEL[row.provider];
  const claimed = await claim(db, row, now);
  if (!claimed) return "skipped" as const;
  if (connection.status !== "connected") {
    await failedAttempt(
      db,
      row,
      claimed.attempts,
      `The payment of ${described(row)} is not in ${label} yet: ${label} asks to be connected again. Connect ${label} again and Dunly writes it.`,
      now,
      { free: true },
    );
    return "failed" as const;
  }
  if (!row.externalId) {
    await failedAttempt(
      db,
      row,
      claimed.attempts,
      `The payment of ${described(row)} is not in ${label}: its invoice is no longer ${label}'s.`,
      now,
      { final: true },
    );
    return "failed" as const;
  }
  try {
    const posted = await post(row, claimed.invoiceId);
    if ("refused" in posted) {
      await failedAttempt(
        db,
        row,
        claimed.attempts,
        `${label} refused the payment of ${described(row)}: ${posted.refused}.`,
        now,
        { refused: true },
      );
      return "failed" as const;
    }
    await db
      .update(accountingWritebacks)
      .set({ status: "sent", externalPaymentId: posted.id, nextAttemptAt: null, lastError: null, updatedAt: now })
      .where(eq(accountingWritebacks.id, row.id));
    return "sent" as const;
  } catch (error) {
    if (!(error instanceof BooksError)) {
      console.error(`[dunly] writing payment ${row.paymentId} back to ${label} failed`, error);
      await failedAttempt(
        db,
        row,
        claimed.attempts,
        `The payment of ${described(row)} is not in ${label} yet: an error in Dunly stopped it. Dunly tries again.`,
        now,
      );
      return "failed" as const;
    }
    // A 409 is a request with this key still under way at the tool: the same key again, later.
    if (error.kind === "refused" && error.status !== 409) {
      const detail = (error as BooksError & { detail?: string }).detail;
      await failedAttempt(
        db,
        row,
        claimed.attempts,
        `${label} refused the payment of ${described(row)}: ${detail ?? `it answered ${error.status ?? "an error"}`}.`,
        now,
        { refused: true },
      );
    } else {
      const why =
        error.status === 409
          ? `${label} is still working on an earlier attempt.`
          : error.message.replace(/ Dunly tries again at the next sync\.$/, "");
      await failedAttempt(
        db,
        row,
        claimed.attempts,
        `The payment of ${described(row)} is not in ${label} yet: ${why} Dunly tries again.`,
        now,
        { free: error.kind === "reconnect" },
      );
    }
    return "failed" as const;
  }
}

/**
 * Sends what is due (one owner's, or every account's for the watchdog), at most `limit` rows, each
 * to its own tool through that tool's one client. A row whose account has no connection to its
 * tool any more is given up in words (nothing can be written); one whose tool is not available on
 * this deployment now waits.
 */
export async function sendWritebacks(
  db: Db,
  setups: AccountingSetups,
  options: { ownerId?: string; now?: number; limit?: number } = {},
) {
  const now = options.now ?? Date.now();
  const rows = await dueRows(db, now, options.limit ?? WRITEBACKS_PER_RUN, options.ownerId);
  const outcome = { sent: 0, failed: 0 };
  const connections = new Map<string, ConnectionRow | undefined>();
  for (const row of rows) {
    if (!connections.has(row.ownerId)) connections.set(row.ownerId, await connectionOf(db, row.ownerId));
    const connection = connections.get(row.ownerId);
    const label = BOOKS_LABEL[row.provider];
    const xero = row.provider === "xero" ? setups.xero : null;
    const quickbooks = row.provider === "quickbooks" ? setups.quickbooks : null;
    if (!connection || connection.provider !== row.provider || !(xero || quickbooks)) {
      if (!(xero || quickbooks) && connection) continue; // The tool is not available on this deployment now: the row waits.
      const claimed = await claim(db, row, now);
      if (!claimed) continue;
      await failedAttempt(
        db,
        row,
        claimed.attempts,
        `The payment of ${described(row)} is not in ${label}: ${label} was disconnected before Dunly wrote it.`,
        now,
        { final: true },
      );
      outcome.failed++;
      continue;
    }
    const post = xero
      ? (r: Due, invoiceId: number) => postToXero(db, xero, connection, r, invoiceId)
      : (r: Due, invoiceId: number) => postToQuickBooks(db, quickbooks as QuickBooksSetup, connection, r, invoiceId);
    const done = await sendOne(db, post, connection, row, now);
    if (done === "sent") outcome.sent++;
    if (done === "failed") outcome.failed++;
    // A connection refreshed meanwhile: the next row reads its new tokens.
    if (done !== "skipped") connections.delete(row.ownerId);
  }
  return outcome;
}

/** The owner's rows the tab shows: not written yet (pending with the last error, or given up), newest first; and how many were written. */
export async function writebackView(db: Db, ownerId: string) {
  const [rows, [sent]] = await db.batch([
    db
      .select({
        id: accountingWritebacks.id,
        status: accountingWritebacks.status,
        amountCents: accountingWritebacks.amountCents,
        currency: accountingWritebacks.currency,
        number: invoices.number,
        paidOn: payments.paidOn,
        attempts: accountingWritebacks.attempts,
        nextAttemptAt: accountingWritebacks.nextAttemptAt,
        lastError: accountingWritebacks.lastError,
      })
      .from(accountingWritebacks)
      .innerJoin(invoices, eq(invoices.id, accountingWritebacks.invoiceId))
      .innerJoin(payments, eq(payments.id, accountingWritebacks.paymentId))
      .where(
        and(eq(accountingWritebacks.ownerId, ownerId), inArray(accountingWritebacks.status, ["pending", "failed"])),
      )
      .orderBy(desc(accountingWritebacks.id))
      .limit(LISTED),
    db
      .select({ n: count() })
      .from(accountingWritebacks)
      .where(and(eq(accountingWritebacks.ownerId, ownerId), eq(accountingWritebacks.status, "sent"))),
  ]);
  return { waiting: rows, sent: sent?.n ?? 0 };
}

/** "Try again" on the owner's given-up row: pending now, its attempts counted afresh. False: not the owner's, or not given up. */
export async function retryWriteback(db: Db, ownerId: string, id: number, now = Date.now()) {
  const [row] = await db
    .update(accountingWritebacks)
    .set({ status: "pending", attempts: 0, nextAttemptAt: now, updatedAt: now })
    .where(
      and(
        eq(accountingWritebacks.ownerId, ownerId),
        eq(accountingWritebacks.id, id),
        eq(accountingWritebacks.status, "failed"),
      ),
    )
    .returning({ id: accountingWritebacks.id });
  return Boolean(row);
}
