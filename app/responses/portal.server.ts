import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, ne, or, sql } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { debtorReplies, debtors, invoices, onlinePayments, optOuts, paymentPlans, payments, users } from "~/db/schema";
import type { BankTransfer } from "~/domain/bank-transfer";
import { formatDate } from "~/domain/dates";
import { debtorWriting } from "~/domain/debtor-mail-copy";
import { translator } from "~/domain/i18n";
import { CHARGE_COPY } from "~/domain/i18n/charges";
import { formatMoney } from "~/domain/money";
import { amountExample } from "~/domain/number-locale";
import { daysOverdue } from "~/domain/statement";
import { chargeSummary, chargeWords } from "~/domain/statement-charges";
import type { StatementDocument } from "~/domain/statement-document";
import { type PortalCharge, portalChargesOf, portalChargesQuery } from "~/ledger/index.server";
import type { ClaimableInvoice, ClaimFormView, ClaimSaid } from "~/schemas/paid-claim";

/**
 * What the debtor's pages read: the portal's state
 * of one debtor (their open and disputed invoices, payments, promise and answers), what they still
 * owe (also on /p and /u), and the dashboard's list of debtors' answers waiting for the user.
 * Every read is of one debtor (through an index on debtor_id) or one owner (through an index on
 * owner_id).
 */

/** The most invoices and payments the debtor's page lists. */
export const PORTAL_LIST_LIMIT = 100;

/** An invoice the debtor still has to deal with: open (owed) or disputed. */
export interface PortalInvoice {
  id: number;
  number: string | null;
  issuedOn: string;
  dueOn: string;
  amountCents: number;
  paidCents: number;
  currency: string;
  status: "open" | "disputed";
  /** The debtor said they paid it; the user has not answered yet. */
  claimedAt: number | null;
  /** The invoice's own PDF, when the user attached one: its file name. */
  documentName: string | null;
}

export interface PortalPayment {
  paidOn: string;
  amountCents: number;
  currency: string;
}

export interface PortalState {
  debtor: {
    fullName: string;
    status: "active" | "paid" | "opted_out" | "bouncing";
    timeZone: string;
    promisedOn: string | null;
    promiseBrokenAt: number | null;
    paidClaimedAt: number | null;
    paidClaimCents: number | null;
    paidClaimCurrency: string | null;
    paidClaimOn: string | null;
    paidClaimReference: string | null;
    /** The user's number and date format (users.locale): their debtor's page writes dates in it. */
    ownerLocale: string | null;
    /** The debtor's language (debtors.language); null: the user's (app/domain/languages.ts). */
    language: string | null;
  };
  /** Open and disputed invoices, the oldest due first. */
  invoices: PortalInvoice[];
  /** Payments received, the newest first. */
  payments: PortalPayment[];
  /**
   * Late-payment charges (decisions/067): those of the listed invoices, owed or paid (never a waived
   * one as a line: it is not owed), and those still owed on invoices paid in full.
   */
  charges: PortalCharge[];
  /** The debtor's address opted out of the owner's reminders. */
  optedOut: boolean;
  /** The owner is e-mailed about their debtors' answers. */
  emailed: boolean;
}

/** What is still owed on open invoices, per currency. */
export interface OwedTotal {
  currency: string;
  cents: number;
}

/** The debtor's open invoices' balances per currency (invoices (debtor_id, status, …)), not yet run. */
export function owedTotalsQuery(db: Db, ownerId: string, debtorId: number) {
  return (
    db
      .select({ currency: invoices.currency, cents: sql<number>`sum(${invoices.amountCents} - ${invoices.paidCents})` })
      .from(invoices)
      // A unary + keeps the owner's condition but not its index: the debtor's index is the narrow one.
      .where(and(eq(invoices.debtorId, debtorId), eq(invoices.status, "open"), sql`+${invoices.ownerId} = ${ownerId}`))
      .groupBy(invoices.currency)
      .orderBy(invoices.currency)
  );
}

/** The totals with something owed (a currency whose balances sum to nothing is left out). */
export function owedTotalsOf(rows: OwedTotal[]): OwedTotal[] {
  return rows.filter((r) => r.cents > 0).map((r) => ({ currency: r.currency, cents: Number(r.cents) }));
}

/**
 * The charges still owed per currency that count beside the invoices' totals: those of open invoices
 * and of invoices paid in full (a disputed invoice's are listed, outside the total, as the invoice is).
 */
export function chargeTotalsFrom(list: readonly PortalCharge[]): OwedTotal[] {
  const byCurrency = new Map<string, number>();
  for (const c of list) {
    if (c.invoiceStatus === "disputed" || c.owedCents <= 0) continue;
    byCurrency.set(c.currency, (byCurrency.get(c.currency) ?? 0) + c.owedCents);
  }
  return owedTotalsOf(
    [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, cents]) => ({ currency, cents })),
  );
}

/** The open invoices' balances per currency, from the page's invoices. */
export function owedTotalsFrom(list: readonly PortalInvoice[]): OwedTotal[] {
  const byCurrency = new Map<string, number>();
  for (const i of list) {
    if (i.status !== "open") continue;
    byCurrency.set(i.currency, (byCurrency.get(i.currency) ?? 0) + (i.amountCents - i.paidCents));
  }
  return owedTotalsOf(
    [...byCurrency].sort(([a], [b]) => a.localeCompare(b)).map(([currency, cents]) => ({ currency, cents })),
  );
}

/**
 * The portal's state of the owner's debtor, in one batch, or undefined when the debtor is gone.
 * The address is the token's (lower-cased), for the opt-out row.
 */
export async function portalState(
  db: Db,
  target: { ownerId: string; debtorId: number; email: string },
): Promise<PortalState | undefined> {
  const { ownerId, debtorId } = target;
  const [debtorRows, invoiceRows, paymentRows, optOutRows, chargeRows] = await db.batch([
    db
      .select({
        fullName: debtors.fullName,
        status: debtors.status,
        timeZone: debtors.timeZone,
        promisedOn: debtors.promisedOn,
        promiseBrokenAt: debtors.promiseBrokenAt,
        paidClaimedAt: debtors.paidClaimedAt,
        paidClaimCents: debtors.paidClaimCents,
        paidClaimCurrency: debtors.paidClaimCurrency,
        paidClaimOn: debtors.paidClaimOn,
        paidClaimReference: debtors.paidClaimReference,
        emailed: sql<number>`(SELECT ${users.notifyDebtorActions} FROM ${users} WHERE ${users.id} = ${debtors.ownerId})`,
        ownerLocale: sql<string | null>`(SELECT ${users.locale} FROM ${users} WHERE ${users.id} = ${debtors.ownerId})`,
        language: debtors.language,
      })
      .from(debtors)
      .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
      .limit(1),
    db
      .select({
        id: invoices.id,
        number: invoices.number,
        issuedOn: invoices.issuedOn,
        dueOn: invoices.dueOn,
        amountCents: invoices.amountCents,
        paidCents: invoices.paidCents,
        currency: invoices.currency,
        status: invoices.status,
        claimedAt: invoices.claimedAt,
        documentName: invoices.documentName,
      })
      .from(invoices)
      .where(
        and(
          eq(invoices.debtorId, debtorId),
          inArray(invoices.status, ["open", "disputed"]),
          sql`+${invoices.ownerId} = ${ownerId}`,
        ),
      )
      .orderBy(asc(invoices.dueOn), asc(invoices.id))
      .limit(PORTAL_LIST_LIMIT),
    db
      .select({ paidOn: payments.paidOn, amountCents: payments.amountCents, currency: payments.currency })
      .from(payments)
      .where(and(eq(payments.debtorId, debtorId), eq(payments.ownerId, ownerId)))
      .orderBy(desc(payments.paidOn), desc(payments.id))
      .limit(PORTAL_LIST_LIMIT),
    db
      .select({ email: optOuts.email })
      .from(optOuts)
      .where(and(eq(optOuts.ownerId, ownerId), eq(optOuts.email, target.email.trim().toLowerCase())))
      .limit(1),
    portalChargesQuery(db, ownerId, debtorId),
  ]);
  const row = debtorRows[0];
  if (!row) return undefined;
  const { emailed, ...debtor } = row;
  return {
    emailed: emailed === 1,
    debtor,
    invoices: invoiceRows.filter((i): i is PortalInvoice => i.status === "open" || i.status === "disputed"),
    payments: paymentRows,
    charges: portalChargesOf(chargeRows),
    optedOut: optOutRows.length > 0 || debtor.status === "opted_out",
  };
}

// The dashboard: debtors' answers waiting for the user ------------------------------------------

/** What a debtor said from their page that the user has to know or answer. */
export type DebtorResponseKind =
  | "promised"
  | "promise_broken"
  | "disputed"
  | "opted_out"
  | "paid_online"
  | "replied"
  | "plan_requested";

export interface DebtorResponse {
  kind: DebtorResponseKind;
  debtorId: number;
  fullName: string;
  /** 'promised': the date promised; 'disputed': the invoice's due date; else null. */
  date: string | null;
  /** When it happened: the promise's end or break, the dispute. */
  at: number | null;
  /**
   * 'disputed': the invoice (the user's own id, for "Resolve dispute"), its number and the reason.
   * 'paid_online': reason is "<cents> <currency>", what was recorded (decisions/018).
   * 'replied': invoiceId is the reply's id (debtor_replies, decisions/020), reason its subject.
   * 'plan_requested': invoiceId is the plan's id (decisions/066), date its first date, reason
   * "<total cents> <currency> <instalments>".
   */
  invoiceId: number | null;
  invoiceNumber: string | null;
  reason: string | null;
}

/** The most answers the dashboard lists (the latest; each debtor's page has all of theirs). */
export const DEBTOR_RESPONSES_LIMIT = 10;

/** How long an opt-out stays among the dashboard's answers. */
export const OPT_OUT_ANSWER_DAYS = 30;

/**
 * The owner's pending promises, broken promises waiting for consent, open disputes and recent
 * opt-outs, in one statement (a UNION ALL over partial indexes of the owner's promises and
 * disputes, migration 0012, and the owner's opted-out debtors), the latest first, at most `limit`;
 * a debtor who has paid is left out. Not yet run: a statement of the dashboard's batch.
 */
export function debtorResponsesQuery(
  db: Db,
  ownerId: Bindable<string>,
  {
    optedOutSince = 0,
    limit = DEBTOR_RESPONSES_LIMIT,
  }: { optedOutSince?: Bindable<number>; limit?: Bindable<number> } = {},
) {
  // Every column aliased, and the two selects alike: D1 answers a batch's rows by column name.
  const promises = db
    .select({
      kind: sql<DebtorResponseKind>`CASE WHEN ${debtors.promisedOn} IS NOT NULL THEN 'promised' ELSE 'promise_broken' END`.as(
        "kind",
      ),
      debtorId: sql<number>`${debtors.id}`.as("debtor_id"),
      fullName: sql<string>`${debtors.fullName}`.as("full_name"),
      date: sql<string | null>`${debtors.promisedOn}`.as("date"),
      at: sql<number | null>`coalesce(${debtors.promiseEndsAt}, ${debtors.promiseBrokenAt})`.as("at"),
      invoiceId: sql<number | null>`NULL`.as("invoice_id"),
      invoiceNumber: sql<string | null>`NULL`.as("invoice_number"),
      reason: sql<string | null>`NULL`.as("reason"),
    })
    .from(debtors)
    .where(
      and(
        eq(debtors.ownerId, ownerId),
        or(isNotNull(debtors.promisedOn), isNotNull(debtors.promiseBrokenAt)),
        ne(debtors.status, "paid"),
      ),
    );
  const disputes = db
    .select({
      kind: sql<DebtorResponseKind>`'disputed'`.as("kind"),
      debtorId: sql<number>`${invoices.debtorId}`.as("debtor_id"),
      fullName: sql<string>`${debtors.fullName}`.as("full_name"),
      date: sql<string | null>`${invoices.dueOn}`.as("date"),
      at: sql<number | null>`${invoices.disputedAt}`.as("at"),
      invoiceId: sql<number | null>`${invoices.id}`.as("invoice_id"),
      invoiceNumber: sql<string | null>`${invoices.number}`.as("invoice_number"),
      reason: sql<string | null>`${invoices.disputeReason}`.as("reason"),
    })
    .from(invoices)
    .innerJoin(debtors, eq(debtors.id, invoices.debtorId))
    .where(and(eq(invoices.ownerId, ownerId), eq(invoices.status, "disputed")));
  // Opted out (from their page, the e-mail's one-click link or a complaint) since `optedOutSince`, while they are.
  const optedOut = db
    .select({
      kind: sql<DebtorResponseKind>`'opted_out'`.as("kind"),
      debtorId: sql<number>`${debtors.id}`.as("debtor_id"),
      fullName: sql<string>`${debtors.fullName}`.as("full_name"),
      date: sql<string | null>`NULL`.as("date"),
      at: sql<number | null>`${optOuts.createdAt}`.as("at"),
      invoiceId: sql<number | null>`NULL`.as("invoice_id"),
      invoiceNumber: sql<string | null>`NULL`.as("invoice_number"),
      reason: sql<string | null>`NULL`.as("reason"),
    })
    .from(debtors)
    .innerJoin(optOuts, and(eq(optOuts.ownerId, debtors.ownerId), eq(optOuts.email, sql`lower(${debtors.email})`)))
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.status, "opted_out"), gte(optOuts.createdAt, optedOutSince)));
  // Paid online (decisions/018) in the same window, through the owner's index of online payments.
  const paidOnline = db
    .select({
      kind: sql<DebtorResponseKind>`'paid_online'`.as("kind"),
      debtorId: sql<number>`${onlinePayments.debtorId}`.as("debtor_id"),
      fullName: sql<string>`${debtors.fullName}`.as("full_name"),
      date: sql<string | null>`NULL`.as("date"),
      at: sql<number | null>`${onlinePayments.updatedAt}`.as("at"),
      invoiceId: sql<number | null>`NULL`.as("invoice_id"),
      invoiceNumber: sql<string | null>`NULL`.as("invoice_number"),
      reason: sql<
        string | null
      >`(${onlinePayments.receivedCents} - ${onlinePayments.refundedCents} - ${onlinePayments.disputeLostCents}) || ' ' || ${onlinePayments.currency}`.as(
        "reason",
      ),
    })
    .from(onlinePayments)
    .innerJoin(debtors, eq(debtors.id, onlinePayments.debtorId))
    .where(
      and(
        eq(onlinePayments.ownerId, ownerId),
        eq(onlinePayments.status, "paid"),
        gte(onlinePayments.updatedAt, optedOutSince),
      ),
    );
  // E-mail replies the user has not handled (decisions/020), automatic ones left out, through the
  // owner's index (owner_id, handled_at, created_at).
  const replies = db
    .select({
      kind: sql<DebtorResponseKind>`'replied'`.as("kind"),
      debtorId: sql<number>`${debtorReplies.debtorId}`.as("debtor_id"),
      fullName: sql<string>`${debtors.fullName}`.as("full_name"),
      date: sql<string | null>`NULL`.as("date"),
      at: sql<number | null>`${debtorReplies.createdAt}`.as("at"),
      invoiceId: sql<number | null>`${debtorReplies.id}`.as("invoice_id"),
      invoiceNumber: sql<string | null>`NULL`.as("invoice_number"),
      reason: sql<string | null>`${debtorReplies.subject}`.as("reason"),
    })
    .from(debtorReplies)
    .innerJoin(debtors, eq(debtors.id, debtorReplies.debtorId))
    .where(and(eq(debtorReplies.ownerId, ownerId), isNull(debtorReplies.handledAt), eq(debtorReplies.auto, false)));
  // Payment plans the debtor asked for and the user has not answered (decisions/066), through the
  // owner's index (owner_id, status, updated_at).
  const plans = db
    .select({
      kind: sql<DebtorResponseKind>`'plan_requested'`.as("kind"),
      debtorId: sql<number>`${paymentPlans.debtorId}`.as("debtor_id"),
      fullName: sql<string>`${debtors.fullName}`.as("full_name"),
      date: sql<string | null>`${paymentPlans.firstOn}`.as("date"),
      at: sql<number | null>`${paymentPlans.createdAt}`.as("at"),
      invoiceId: sql<number | null>`${paymentPlans.id}`.as("invoice_id"),
      invoiceNumber: sql<string | null>`NULL`.as("invoice_number"),
      reason: sql<
        string | null
      >`${paymentPlans.totalCents} || ' ' || ${paymentPlans.currency} || ' ' || (SELECT count(*) FROM plan_instalments AS pl WHERE pl.plan_id = ${paymentPlans.id})`.as(
        "reason",
      ),
    })
    .from(paymentPlans)
    .innerJoin(debtors, eq(debtors.id, paymentPlans.debtorId))
    .where(and(eq(paymentPlans.ownerId, ownerId), eq(paymentPlans.status, "requested")));
  // D1 allows five terms in a compound SELECT: the replies and the plans are one, a subquery's own.
  const repliesAndPlans = db.select().from(replies.unionAll(plans).as("replies_and_plans"));
  return promises
    .unionAll(disputes)
    .unionAll(optedOut)
    .unionAll(paidOnline)
    .unionAll(repliesAndPlans)
    .orderBy(sql`"at" DESC`, sql`"debtor_id" DESC`, sql`"invoice_id" DESC`)
    .limit(limit);
}

/** The answers from debtorResponsesQuery's rows. */
export function debtorResponsesOf(rows: Awaited<ReturnType<typeof debtorResponsesQuery>>): DebtorResponse[] {
  return rows.map((r) => ({ ...r }));
}

/**
 * The "I've paid" form of the debtor's page and of the e-mail's link: the open invoices that may be
 * ticked (something left to pay, not disputed, not already claimed), each named by the page's
 * reference, with what the server needs to read the form back.
 */
export async function claimFormOf(
  refOf: (id: number) => Promise<string>,
  state: PortalState,
  numberLocale: string,
  today: string,
  /** Where the page writes dates (the debtor's: debtorLocale). */
  locale: string,
): Promise<{ view: ClaimFormView; claimable: ClaimableInvoice[] }> {
  const open = state.invoices.filter((i) => i.status === "open" && i.claimedAt === null && i.amountCents > i.paidCents);
  const claimable = await Promise.all(
    open.map(async (i) => ({
      ref: await refOf(i.id),
      id: i.id,
      currency: i.currency,
      balanceCents: i.amountCents - i.paidCents,
    })),
  );
  return {
    claimable,
    view: {
      invoices: open.map((i, n) => ({
        ref: claimable[n]?.ref ?? "",
        number: i.number,
        dueOn: i.dueOn,
        balanceCents: i.amountCents - i.paidCents,
        currency: i.currency,
      })),
      currencies: [...new Set(open.map((i) => i.currency))],
      today,
      amountExample: amountExample(numberLocale),
      locale,
    },
  };
}

/** What the debtor's pending "I've paid" said; null without one. */
export function claimSaidOf(state: PortalState): ClaimSaid | null {
  const d = state.debtor;
  if (d.paidClaimedAt === null) return null;
  return {
    amountCents: d.paidClaimCents,
    currency: d.paidClaimCurrency,
    paidOn: d.paidClaimOn,
    reference: d.paidClaimReference,
    invoices: state.invoices.filter((i) => i.claimedAt !== null).map((i) => i.number),
  };
}

/**
 * The statement PDF's content (`StatementDocument`): the debtor's open and disputed invoices as their
 * page lists them, each with where it stands on the debtor's `today`, the totals per currency and
 * how to pay. Every value written out here; the mail Worker only lays it out.
 */
export function statementDocumentOf(
  state: PortalState,
  input: { sender: string; today: string; bankTransfer: BankTransfer[]; portalUrl: string },
): StatementDocument {
  // In the debtor's language, its dates (and, but in English, its amounts) in that language's locale.
  const { language, locale, moneyLocale, t } = debtorWriting(state.debtor.language, state.debtor.ownerLocale);
  const overdue = (dueOn: string) => {
    const days = daysOverdue(dueOn, input.today);
    return days !== null && days > 0 ? t("overdue", { count: days }) : null;
  };
  const c = translator(CHARGE_COPY, language, locale);
  const money = (cents: number, currency: string) => formatMoney(cents, currency, moneyLocale);
  const date = (iso: string) => formatDate(iso, locale);
  const chargeLine = (charge: PortalCharge, onPaid: boolean) => {
    const words = chargeWords(charge, language, { money, date });
    return {
      label: onPaid
        ? charge.invoiceNumber
          ? c("charges.ofInvoice", { label: words.label, number: charge.invoiceNumber })
          : c("charges.ofInvoiceDue", { label: words.label, date: date(charge.invoiceDueOn) })
        : words.label,
      basis: words.basis,
      state:
        charge.owedCents === 0
          ? c("charges.paid")
          : charge.paidCents > 0
            ? c("charges.partlyPaid", {
                paid: money(charge.paidCents, charge.currency),
                amount: money(charge.amountCents, charge.currency),
              })
            : "",
      balance: money(charge.owedCents, charge.currency),
    };
  };
  const invoiceTotals = owedTotalsFrom(state.invoices);
  const chargeTotals = chargeTotalsFrom(state.charges);
  const onPaid = state.charges.filter((ch) => ch.invoicePaid);
  const summary = chargeSummary(invoiceTotals, chargeTotals);
  return {
    sender: input.sender,
    debtorName: state.debtor.fullName,
    date: formatDate(input.today, locale),
    ...(state.charges.length > 0
      ? {
          chargesOnPaid: onPaid.map((ch) => chargeLine(ch, true)),
          chargesOnPaidHeading: c("charges.onPaid"),
        }
      : {}),
    lines: state.invoices.map((i) => ({
      number: i.number ?? t("invoiceNoNumber"),
      issued: formatDate(i.issuedOn, locale),
      due: formatDate(i.dueOn, locale),
      state:
        i.status === "disputed"
          ? t("disputed")
          : i.claimedAt !== null
            ? t("beingChecked")
            : (overdue(i.dueOn) ?? t("open")),
      balance: formatMoney(i.amountCents - i.paidCents, i.currency, moneyLocale),
      ...(state.charges.length > 0
        ? {
            charges: state.charges
              .filter((ch) => ch.invoiceId === i.id && !ch.invoicePaid)
              .map((ch) => chargeLine(ch, false)),
          }
        : {}),
    })),
    totals:
      chargeTotals.length === 0
        ? invoiceTotals.map((total) => t("totalOwed", { amount: money(total.cents, total.currency) }))
        : summary.flatMap((r) => {
            const several = summary.length > 1;
            const named = (one: "charges.invoices" | "charges.charges" | "charges.total") =>
              several ? c(`${one}In` as "charges.invoicesIn", { currency: r.currency }) : c(one);
            return [
              `${named("charges.invoices")}: ${money(r.invoicesCents, r.currency)}`,
              `${named("charges.charges")}: ${money(r.chargesCents, r.currency)}`,
              `${named("charges.total")}: ${money(r.totalCents, r.currency)}`,
            ];
          }),
    bankTransfer: input.bankTransfer,
    portalUrl: input.portalUrl,
    language,
  };
}
