import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { bindParam, OWNER_ID, preparedQuery } from "~/db/prepared.server";
import { debtors, invoices } from "~/db/schema";
import { syncedInvoiceMessage } from "~/domain/books";
import { fromCents, toCents } from "~/domain/money";
import { FieldsRefused } from "~/domain/refused";
import type { DataScope } from "~/platform/scope.server";
import {
  belowPaidMessage,
  CURRENCY_PAID_MESSAGE,
  DUE_BEFORE_ISSUE_MESSAGE,
  type InvoiceInput,
  NUMBER_TAKEN_MESSAGE,
} from "~/schemas/invoice";
import { accrueAfterWrite } from "./charges/accrual.server";
import { closeDisputePauseStatement } from "./charges/pauses.server";
import { commitLedgerWrite, insertInvoiceStatement } from "./ledger.server";
import { readSettled, SETTLE_STATEMENTS, settleStatements } from "./payments.server";

/**
 * Invoices: what a debtor owes, one row each. Every write settles the
 * ledger in its own batch (app/ledger/ledger.server.ts) and, when nothing is owed any more,
 * completes the debtor's schedules through the lifecycle's commit, which disarms them. Every function is scoped to the
 * owner: another user's debtor or invoice looks missing.
 */

/** The most invoices one debtor keeps: the statement, the debtor page and the allocation stay bounded. */
export const MAX_INVOICES_PER_DEBTOR = 500;

export const TOO_MANY_INVOICES_MESSAGE = `This debtor already has ${MAX_INVOICES_PER_DEBTOR} invoices, the most one debtor can have.`;
/** A synced invoice (decisions/060) is the accounting tool's: changed there, never in Dunly. */
export const SYNCED_INVOICE_MESSAGE = syncedInvoiceMessage("xero");
export const VOID_PAID_MESSAGE = "Payments were recorded on this invoice: delete them before voiding it.";

export const invoiceColumns = {
  id: invoices.id,
  debtorId: invoices.debtorId,
  number: invoices.number,
  amountCents: invoices.amountCents,
  currency: invoices.currency,
  issuedOn: invoices.issuedOn,
  dueOn: invoices.dueOn,
  status: invoices.status,
  paidCents: invoices.paidCents,
  disputeReason: invoices.disputeReason,
  disputedAt: invoices.disputedAt,
  chasePausedAt: invoices.chasePausedAt,
  documentName: invoices.documentName,
  documentSize: invoices.documentSize,
  createdAt: invoices.createdAt,
  sourceProvider: invoices.sourceProvider,
  sourceUrl: invoices.sourceUrl,
  // Its late-payment charges still owed (decisions/065): not waived, less what was paid on them.
  chargesOwedCents:
    sql<number>`(SELECT coalesce(sum(c.amount_cents - c.paid_cents), 0) FROM charges AS c WHERE c.invoice_id = "invoices"."id" AND c.waived_at IS NULL)`.as(
      "charges_owed_cents",
    ),
};

export type InvoiceRow = Pick<
  typeof invoices.$inferSelect,
  Exclude<keyof typeof invoiceColumns, "chargesOwedCents">
> & {
  chargesOwedCents: number;
};

const owned = (ownerId: string, id: number) => and(eq(invoices.ownerId, ownerId), eq(invoices.id, id));

/**
 * The owner's debtor's invoices, oldest due first (void ones last), through invoices (debtor_id,
 * status, due_on); undefined when the debtor is not the owner's. One batch.
 */
export async function listInvoices(db: Db, ownerId: string, debtorId: number) {
  const [[debtor], rows] = await db.batch([
    db
      .select({ id: debtors.id, currency: debtors.currency })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId))),
    db
      .select(invoiceColumns)
      .from(invoices)
      .where(and(eq(invoices.ownerId, ownerId), eq(invoices.debtorId, debtorId)))
      .orderBy(sql`${invoices.status} = 'void'`, asc(invoices.dueOn), asc(invoices.id))
      .limit(MAX_INVOICES_PER_DEBTOR),
  ]);
  if (!debtor) return undefined;
  return { debtor, invoices: rows };
}

/**
 * The debtor page's invoices (listInvoices' rows, prepared once per isolate for the page's batch): bound with the owner and `debtorId`; none when the debtor is not theirs.
 */
export const debtorInvoicesQuery = preparedQuery((db) =>
  db
    .select(invoiceColumns)
    .from(invoices)
    .where(and(eq(invoices.ownerId, OWNER_ID), eq(invoices.debtorId, bindParam("debtorId"))))
    .orderBy(sql`${invoices.status} = 'void'`, asc(invoices.dueOn), asc(invoices.id))
    .limit(MAX_INVOICES_PER_DEBTOR),
);

/** The owner's invoice, or undefined. */
export async function getInvoice(db: Db, ownerId: string, id: number) {
  return db.select(invoiceColumns).from(invoices).where(owned(ownerId, id)).get();
}

/** What an invoice write did: the invoice, the debtor's balance after it and the schedules it completed. */
export interface InvoiceWrite {
  invoice: InvoiceRow;
  debtor: NonNullable<ReturnType<typeof readSettled>>["debtor"];
  completedScheduleIds: string[];
}

/** Runs an invoice write's batch: its own statements, the settle statements, then the invoice as it is now. */
async function writeInvoice(
  { env, db }: DataScope,
  ownerId: string,
  debtorId: number,
  invoiceId: number | null,
  statements: readonly unknown[],
  now: number,
  amountPaid = 0,
  currency = "USD",
): Promise<InvoiceWrite | undefined> {
  const written = await commitLedgerWrite(
    { env, db, now },
    (consequences) => [
      // biome-ignore lint/suspicious/noExplicitAny: the caller's drizzle statements, batched as they are.
      ...(statements as any[]),
      ...settleStatements(consequences, db, ownerId, debtorId, now),
      invoiceId === null
        ? db
            .select(invoiceColumns)
            .from(invoices)
            .where(and(eq(invoices.ownerId, ownerId), eq(invoices.debtorId, debtorId), eq(invoices.updatedAt, now)))
            .orderBy(sql`${invoices.id} DESC`)
            .limit(1)
        : db.select(invoiceColumns).from(invoices).where(owned(ownerId, invoiceId)),
    ],
    {
      numberTaken: () => {
        throw new FieldsRefused({ number: [NUMBER_TAKEN_MESSAGE] });
      },
      overPaid: () => {
        throw new FieldsRefused({ amount: [belowPaidMessage(amountPaid, currency)] });
      },
    },
  );
  if ("refused" in written) return written.refused;
  const { results } = written;
  const n = statements.length;
  const settled = readSettled(results.slice(n, n + SETTLE_STATEMENTS));
  const [invoice] = results[n + SETTLE_STATEMENTS] as InvoiceRow[];
  if (!settled || !invoice) return undefined;
  // Its amount, due date or status changed: the late-payment charges follow (decisions/065).
  await accrueAfterWrite({ db, ownerId, now }, [debtorId]);
  return { invoice, ...settled };
}

/**
 * Adds an invoice to the owner's debtor: the debtor's currency unless given, issued `today` unless
 * given, due on its issue date unless given. A number the account already uses is refused
 * (FieldsRefused), and so is one more than MAX_INVOICES_PER_DEBTOR. A debtor who had paid
 * everything owes again; their stopped schedules do not restart by themselves. Undefined when the
 * debtor is not the owner's.
 */
export async function addInvoice(
  { env, db }: DataScope,
  ownerId: string,
  debtorId: number,
  input: InvoiceInput,
  { now, today }: { now: number; today: string },
): Promise<InvoiceWrite | undefined> {
  const [{ n } = { n: 0 }] = await db
    .select({ n: count() })
    .from(invoices)
    .where(and(eq(invoices.ownerId, ownerId), eq(invoices.debtorId, debtorId)));
  if (n >= MAX_INVOICES_PER_DEBTOR) throw new FieldsRefused({ amount: [TOO_MANY_INVOICES_MESSAGE] });
  const issuedOn = input.issued_on ?? (input.due_on && input.due_on < today ? input.due_on : today);
  const insert = insertInvoiceStatement(db, and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)), {
    number: input.number ?? null,
    amountCents: toCents(input.amount),
    currency: input.currency,
    issuedOn,
    dueOn: input.due_on ?? issuedOn,
    now,
  });
  return writeInvoice({ env, db }, ownerId, debtorId, null, [insert], now);
}

/**
 * Changes the owner's invoice (not a void one): its amount may not go below what was paid on it,
 * its currency may change only while nothing was paid on it, and its number must stay unique in
 * the account (each refused with FieldsRefused; the ledger's CHECK backs the first under a race).
 * Undefined when it is not the owner's.
 */
export async function editInvoice(
  { env, db }: DataScope,
  ownerId: string,
  id: number,
  input: InvoiceInput,
  now: number,
): Promise<InvoiceWrite | undefined> {
  const current = await getInvoice(db, ownerId, id);
  if (!current || current.status === "void") return undefined;
  if (current.sourceProvider) throw new FieldsRefused({ amount: [syncedInvoiceMessage(current.sourceProvider)] });
  const amountCents = toCents(input.amount);
  const currency = input.currency ?? current.currency;
  if (amountCents < current.paidCents) {
    throw new FieldsRefused({ amount: [belowPaidMessage(current.paidCents, current.currency)] });
  }
  if (currency !== current.currency && current.paidCents > 0) {
    throw new FieldsRefused({ currency: [CURRENCY_PAID_MESSAGE] });
  }
  const issuedOn = input.issued_on ?? current.issuedOn;
  // biome-ignore lint/complexity/useMathMinMax: "YYYY-MM-DD" strings, ordered as dates (Math.max takes numbers).
  const dueOn = input.due_on ?? (current.dueOn < issuedOn ? issuedOn : current.dueOn);
  if (dueOn < issuedOn) throw new FieldsRefused({ due_on: [DUE_BEFORE_ISSUE_MESSAGE] });
  const update = db
    .update(invoices)
    .set({ number: input.number ?? null, amountCents, currency, issuedOn, dueOn, updatedAt: now })
    .where(and(owned(ownerId, id), ne(invoices.status, "void")));
  return writeInvoice({ env, db }, ownerId, current.debtorId, id, [update], now, current.paidCents, current.currency);
}

/**
 * Voids the owner's invoice: it is owed no more and no reminder lists it. Only while nothing was
 * paid on it (FieldsRefused otherwise: its payments are deleted first). Nothing owed any more, the
 * debtor's schedules complete. Undefined when it is not the owner's or already void.
 */
export async function voidInvoice(
  { env, db }: DataScope,
  ownerId: string,
  id: number,
  now: number,
  { bySync = false }: { bySync?: boolean } = {},
) {
  const current = await getInvoice(db, ownerId, id);
  if (!current || current.status === "void") return undefined;
  // Only the sync voids a synced invoice: the accounting tool voided or deleted it.
  if (current.sourceProvider && !bySync)
    throw new FieldsRefused({ id: [syncedInvoiceMessage(current.sourceProvider)] });
  if (current.paidCents > 0) throw new FieldsRefused({ id: [VOID_PAID_MESSAGE] });
  const update = db
    .update(invoices)
    .set({ status: "void", disputeReason: null, disputedAt: null, updatedAt: now })
    .where(and(owned(ownerId, id), eq(invoices.paidCents, 0)));
  // A dispute's pause of its interest ends with it (decisions/065).
  const endPause = closeDisputePauseStatement(
    db,
    ownerId,
    id,
    now,
    sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.id} = ${id} AND ${invoices.status} = 'void')`,
  );
  return writeInvoice({ env, db }, ownerId, current.debtorId, id, [update, endPause], now);
}

/**
 * The accounting tool changed a synced invoice (decisions/062): its total and due date become the
 * books' (a due date before the issue date is the issue date). Settled like any invoice write: a
 * paid invoice whose total went up is open again. A total below what was paid on it in Dunly is
 * refused (FieldsRefused): the caller says so in words. Undefined when it is not the owner's
 * synced invoice, or void.
 */
export async function followSyncedInvoice(
  { env, db }: DataScope,
  ownerId: string,
  id: number,
  books: { amountCents: number; dueOn: string },
  now: number,
) {
  const current = await getInvoice(db, ownerId, id);
  if (!current || current.status === "void" || !current.sourceProvider) return undefined;
  if (books.amountCents < current.paidCents) {
    throw new FieldsRefused({ amount: [belowPaidMessage(current.paidCents, current.currency)] });
  }
  // biome-ignore lint/complexity/useMathMinMax: "YYYY-MM-DD" strings, ordered as dates (Math.max takes numbers).
  const dueOn = books.dueOn < current.issuedOn ? current.issuedOn : books.dueOn;
  const update = db
    .update(invoices)
    .set({ amountCents: books.amountCents, dueOn, updatedAt: now })
    .where(and(owned(ownerId, id), ne(invoices.status, "void")));
  return writeInvoice({ env, db }, ownerId, current.debtorId, id, [update], now, current.paidCents, current.currency);
}

/**
 * "Don't chase this one" (`chased` false) or "Chase again": the owner's open or disputed invoice
 * is left out of reminders (and named apart on them) until chased again. Still owed. Undefined
 * when it is not the owner's, or paid or void.
 */
export async function setInvoiceChased(
  { env, db }: DataScope,
  ownerId: string,
  id: number,
  chased: boolean,
  now: number,
) {
  const current = await getInvoice(db, ownerId, id);
  if (!current || (current.status !== "open" && current.status !== "disputed")) return undefined;
  const update = db
    .update(invoices)
    .set({ chasePausedAt: chased ? null : (current.chasePausedAt ?? now), updatedAt: now })
    .where(owned(ownerId, id));
  return writeInvoice({ env, db }, ownerId, current.debtorId, id, [update], now);
}

/** An invoice as the API answers it (snake_case, decimal amounts). */
export function invoiceToJson(i: InvoiceRow) {
  return {
    id: i.id,
    debtor_id: i.debtorId,
    number: i.number,
    amount: fromCents(i.amountCents),
    paid: fromCents(i.paidCents),
    owed: i.status === "void" ? 0 : fromCents(i.amountCents - i.paidCents),
    // Its late-payment charges still owed (decisions/065), apart from the invoice's own balance.
    charges_owed: i.status === "void" ? 0 : fromCents(Number(i.chargesOwedCents)),
    currency: i.currency,
    issued_on: i.issuedOn,
    due_on: i.dueOn,
    status: i.status,
    dispute_reason: i.disputeReason,
    // False: the user said not to chase it; reminders leave it out and name it apart.
    chased: i.chasePausedAt === null,
    // Where it comes from: "dunly" (typed in or imported: editable) or the accounting tool (read-only).
    source: i.sourceProvider ?? "dunly",
    // The invoice's page in the accounting tool (a synced one), for the user.
    source_url: i.sourceUrl,
    // The invoice's own PDF, when one is attached: its file name and size in bytes.
    document: i.documentName === null ? null : { name: i.documentName, size: i.documentSize ?? 0 },
    created_at: i.createdAt,
  };
}
