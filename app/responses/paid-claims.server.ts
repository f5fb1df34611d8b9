import { and, asc, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import { debtorEventWhere, noticeInsert } from "~/activity/index.server";
import type { Bindable, Db } from "~/db/client.server";
import { hasChasedInvoice, owesSql } from "~/db/owed";
import { debtorEvents, debtors, invoices } from "~/db/schema";
import { claimedWords } from "~/domain/claim-answer";
import { formatDate } from "~/domain/dates";
import { formatMoney, toCents } from "~/domain/money";
import { addPayment, type PaymentWrite, type PaymentWriteError } from "~/ledger/index.server";
import { debtorParties, portalLink } from "~/links/index.server";
import { sendRecorded } from "~/mail/index.server";
import type { AppConfig } from "~/platform/config.server";
import type { DataScope, OwnerScope } from "~/platform/scope.server";
import { commit, type ResumeOutcome, replanDueSchedules, resumeAfterPaidClaim } from "~/reminders/index.server";
import { claimSaidText } from "~/schemas/paid-claim";
import type { PaymentInput } from "~/schemas/payment";

/**
 * "I've paid". Every reminder links to `/p/<key>.<signature>`: the debtor's
 * opt_out_key and an HMAC signed for the purpose "paid" (app/links/signed-links.server.ts), so an opt-out
 * token is no paid token and the other way round, and neither moves to another debtor. The
 * debtor's click (a POST from the page, never the GET a link scanner makes) records the claim,
 * pauses the debtor's enabled schedules and puts a notice on the user's dashboard, where the user
 * confirms the payment (the payment form in a dialog, prefilled with what is still owed) or
 * resumes the reminders.
 */

/** stopped_reason of a schedule paused by the debtor's "I've paid": "Resume reminders" restarts exactly these. */
export const PAID_CLAIM_REASON = "paid_claimed" as const;

const owned = (ownerId: string, debtorId: number) => and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId));

/**
 * What the debtor says they paid: the invoices they picked (their own open ones), or an amount in a
 * currency, or both; the day; their bank reference. Read from their form by readPaidClaim.
 */
export interface ClaimInput {
  invoiceIds: number[];
  amountCents: number | null;
  currency: string | null;
  paidOn: string;
  reference: string | null;
}

/** The claimed invoices of an amount given without picking any: what it covers, oldest due first. */
async function coveredBy(db: Db, ownerId: string, debtorId: number, cents: number, currency: string) {
  const open = await db
    .select({ id: invoices.id, balance: sql<number>`${invoices.amountCents} - ${invoices.paidCents}` })
    .from(invoices)
    .where(
      and(
        eq(invoices.debtorId, debtorId),
        eq(invoices.ownerId, ownerId),
        eq(invoices.status, "open"),
        eq(invoices.currency, currency),
        isNull(invoices.claimedAt),
        sql`${invoices.amountCents} > ${invoices.paidCents}`,
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id))
    .limit(100);
  const ids: number[] = [];
  let left = cents;
  for (const invoice of open) {
    if (left <= 0) break;
    ids.push(invoice.id);
    left -= invoice.balance;
  }
  return ids;
}

/** The timeline's words for a claim: "€600.50 on 2026-11-20, reference RF18". */
function claimDetail(claim: Pick<ClaimInput, "amountCents" | "currency" | "paidOn" | "reference">) {
  return [
    claim.amountCents !== null && claim.currency ? formatMoney(claim.amountCents, claim.currency) : null,
    claim.paidOn ? `paid on ${claim.paidOn}` : null,
    claim.reference ? `reference ${claim.reference}` : null,
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * Records the debtor's "I've paid" with what they say they paid, in one batch (one D1 transaction):
 * the invoices it names (or, for an amount alone, those it covers oldest due first) leave reminders
 * (claimed_at), the event 'paid_claimed' and the claim's details are recorded and the user's notice
 * written (the caller sends it: sendNotices). The debtor's ENABLED schedules hold ('paid_claimed')
 * only when nothing chased is left: the other invoices are still reminded of. Only when no claim is
 * pending and something is still owed: a repeated post changes nothing. Returns whether it recorded
 * a claim and the schedules it held (their alarms are disarmed).
 */
export async function claimPaid(
  { env, db }: DataScope,
  ownerId: string,
  debtorId: number,
  claim: ClaimInput,
  now = Date.now(),
): Promise<{ claimed: boolean; pausedScheduleIds: string[] }> {
  const held =
    claim.invoiceIds.length > 0 || claim.amountCents === null || claim.currency === null
      ? claim.invoiceIds
      : await coveredBy(db, ownerId, debtorId, claim.amountCents, claim.currency);
  const pending = and(owned(ownerId, debtorId), isNull(debtors.paidClaimedAt), owesSql(debtors.id));
  // Statements of a batch run in order: those before the debtor's update still see no claim.
  const claimable = sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${debtorId} AND ${debtors.ownerId} = ${ownerId} AND ${debtors.paidClaimedAt} IS NULL AND ${owesSql(debtorId)})`;
  const justClaimed = sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${debtorId} AND ${debtors.ownerId} = ${ownerId} AND ${debtors.paidClaimedAt} = ${now})`;
  const detail = claimDetail(claim);
  const { results, stopped } = await commit({ env, db, now }, (consequences) => [
    db
      .update(invoices)
      .set({ claimedAt: now, updatedAt: now })
      .where(
        and(
          inArray(invoices.id, held.length > 0 ? held : [-1]),
          eq(invoices.debtorId, debtorId),
          eq(invoices.ownerId, ownerId),
          eq(invoices.status, "open"),
          isNull(invoices.claimedAt),
          claimable,
        ),
      ),
    db.insert(debtorEvents).select(
      db
        // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
        .select({
          id: sql<number>`null`.as("id"),
          ownerId: debtors.ownerId,
          debtorId: debtors.id,
          type: sql<string>`'paid_claimed'`.as("type"),
          detail: sql<string>`${detail}`.as("detail"),
          createdAt: sql<number>`${now}`.as("created_at"),
        })
        .from(debtors)
        .where(pending),
    ),
    db
      .update(debtors)
      .set({
        paidClaimedAt: now,
        paidClaimCents: claim.amountCents,
        paidClaimCurrency: claim.currency,
        paidClaimOn: claim.paidOn,
        paidClaimReference: claim.reference,
        updatedAt: now,
      })
      .where(pending)
      .returning({ id: debtors.id }),
    // The user is told: only when the event above was recorded.
    noticeInsert(db, { ownerId, debtorId, kind: "paid_claimed", at: now }),
    // Nothing else to chase: the reminders wait for the user's answer.
    consequences({
      kind: "held",
      ownerId,
      debtorId,
      reason: PAID_CLAIM_REASON,
      onlyIf: and(justClaimed, sql`NOT ${hasChasedInvoice(debtorId)}`),
    }),
  ]);
  const claimed = results[2].length > 0;
  // A due-date cadence follows the invoices still chased.
  if (claimed && stopped.length === 0) await replanDueSchedules({ env, db, ownerId, now }, [debtorId]);
  return { claimed, pausedScheduleIds: stopped };
}

/** An invoice a pending claim names, as the dashboard shows it. */
export interface ClaimedInvoice {
  id: number;
  number: string | null;
  balanceCents: number;
  currency: string;
}

/** A debtor who said they paid, as the dashboard's notice shows them. */
export interface PaidClaim {
  id: number;
  fullName: string;
  paidClaimedAt: number;
  debtCents: number;
  paidCents: number;
  currency: string;
  /** What they said: the amount (null: the invoices in full), the day and their reference. */
  claimCents: number | null;
  claimCurrency: string | null;
  claimOn: string | null;
  claimReference: string | null;
  invoices: ClaimedInvoice[];
}

/**
 * A claim as the dashboard's notice and its confirm form show it: what the debtor said, in words in
 * the user's date format, and what the form starts with: the amount they gave in the debtor's
 * currency, else what the invoices they named still owe, else all that is owed; their day; the one
 * invoice they named; their reference.
 */
export function paidClaimView(c: PaidClaim, locale: string) {
  const owedCents = Math.max(0, c.debtCents - c.paidCents);
  const named = c.invoices.filter((i) => i.currency === c.currency);
  const said =
    c.claimOn === null && c.claimCents === null
      ? null
      : claimSaidText(
          {
            amountCents: c.claimCents,
            currency: c.claimCurrency,
            paidOn: c.claimOn,
            reference: c.claimReference,
            invoices: c.invoices.map((i) => i.number ?? "an invoice"),
          },
          locale,
        );
  return {
    id: c.id,
    fullName: c.fullName,
    paidClaimedAt: c.paidClaimedAt,
    owedCents,
    currency: c.currency,
    said,
    prefillCents:
      c.claimCents !== null && c.claimCurrency === c.currency
        ? c.claimCents
        : named.length > 0
          ? named.reduce((sum, i) => sum + i.balanceCents, 0)
          : owedCents,
    paidOn: c.claimOn,
    invoiceId: c.invoices.length === 1 ? (c.invoices[0]?.id ?? null) : null,
    reference: c.claimReference,
  };
}

/** The claim's columns cleared: the claim is answered. */
const NO_CLAIM = {
  paidClaimedAt: null,
  paidClaimCents: null,
  paidClaimCurrency: null,
  paidClaimOn: null,
  paidClaimReference: null,
} as const;

/** The debtor's invoices a claim held are chased again, when `onlyIf` holds (the claim is answered). */
function releaseClaimed(db: Db, ownerId: string, debtorId: number, now: number, onlyIf: SQL) {
  return db
    .update(invoices)
    .set({ claimedAt: null, updatedAt: now })
    .where(and(eq(invoices.debtorId, debtorId), eq(invoices.ownerId, ownerId), isNotNull(invoices.claimedAt), onlyIf));
}

/** SQL: the owner's debtor has a claim pending (put before the statement that answers it). */
const claimPending = (ownerId: string, debtorId: number) =>
  sql`EXISTS (SELECT 1 FROM ${debtors} WHERE ${debtors.id} = ${debtorId} AND ${debtors.ownerId} = ${ownerId} AND ${debtors.paidClaimedAt} IS NOT NULL)`;

/**
 * The owner's pending claims, newest first: one query through the debtors' owner index, not yet run
 * (a statement of the dashboard's batch); paidClaimsOf reads them.
 */
export function paidClaimsQuery(db: Db, ownerId: Bindable<string>, limit = 50, debtorId?: number) {
  return db
    .select({
      id: debtors.id,
      fullName: debtors.fullName,
      paidClaimedAt: debtors.paidClaimedAt,
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      currency: debtors.currency,
      claimCents: debtors.paidClaimCents,
      claimCurrency: debtors.paidClaimCurrency,
      claimOn: debtors.paidClaimOn,
      claimReference: debtors.paidClaimReference,
      // The invoices it holds (through invoices_debtor_idx; a claim names at most a page of them).
      invoices: sql<
        string | null
      >`(SELECT json_group_array(json_object('id', c.id, 'number', c.number, 'balanceCents', c.amount_cents - c.paid_cents, 'currency', c.currency)) FROM (SELECT i.id, i.number, i.amount_cents, i.paid_cents, i.currency FROM invoices AS i WHERE i.debtor_id = "debtors"."id" AND i.status = 'open' AND i.claimed_at IS NOT NULL ORDER BY i.due_on, i.id LIMIT 100) AS c)`,
    })
    .from(debtors)
    .where(
      and(
        eq(debtors.ownerId, ownerId),
        isNotNull(debtors.paidClaimedAt),
        debtorId === undefined ? undefined : eq(debtors.id, debtorId),
      ),
    )
    .orderBy(desc(debtors.paidClaimedAt), desc(debtors.id))
    .limit(limit);
}

/** The claims from paidClaimsQuery's rows. */
export function paidClaimsOf(rows: Awaited<ReturnType<typeof paidClaimsQuery>>): PaidClaim[] {
  return rows.map((r) => ({
    ...r,
    paidClaimedAt: r.paidClaimedAt ?? 0,
    invoices: r.invoices ? (JSON.parse(r.invoices) as ClaimedInvoice[]) : [],
  }));
}

/**
 * Clears the owner's debtor's pending claim, its invoices chased again, and records `type`, in one
 * batch; false when none was pending (nothing is written then).
 */
async function closeClaim(
  db: Db,
  ownerId: string,
  debtorId: number,
  type: "paid_claim_confirmed" | "paid_claim_rejected",
  detail: string,
  now: number,
) {
  const pending = claimPending(ownerId, debtorId);
  const [, , cleared] = await db.batch([
    releaseClaimed(db, ownerId, debtorId, now, pending),
    debtorEventWhere(db, type, detail, and(owned(ownerId, debtorId), isNotNull(debtors.paidClaimedAt)), now),
    db
      .update(debtors)
      .set({ ...NO_CLAIM, updatedAt: now })
      .where(and(owned(ownerId, debtorId), isNotNull(debtors.paidClaimedAt)))
      .returning({ id: debtors.id }),
  ]);
  return cleared.length > 0;
}

export type ClaimError = { error: "not-found" } | { error: "no-claim" };

/** The owner's debtor with a pending claim: what is still owed (cents, in their currency). */
export interface PendingClaim {
  owedCents: number;
  currency: string;
}

/** The owner's debtor with a pending claim and what they still owe, or why not. */
export async function pendingClaim(db: Db, ownerId: string, debtorId: number): Promise<ClaimError | PendingClaim> {
  const debtor = await db
    .select({
      debtCents: debtors.debtCents,
      paidCents: debtors.paidCents,
      currency: debtors.currency,
      paidClaimedAt: debtors.paidClaimedAt,
    })
    .from(debtors)
    .where(owned(ownerId, debtorId))
    .get();
  if (!debtor) return { error: "not-found" };
  if (debtor.paidClaimedAt == null) return { error: "no-claim" };
  return { owedCents: Math.max(0, debtor.debtCents - debtor.paidCents), currency: debtor.currency };
}

/** What "Confirm payment" did. */
export interface ConfirmOutcome {
  /** The payment recorded (0: nothing was owed any more, only the claim was cleared). */
  paidCents: number;
  currency: string;
  /** What is still owed after it. */
  owedCents: number;
  /** The schedules the payment completed (paid in full), already disarmed. */
  completedScheduleIds: string[];
  /** Paid in part: the schedules the claim paused that run again, and those that stay paused. */
  resumed: number;
  refused: number;
  /** On invoices synced from an accounting tool: whether Dunly writes it there (decisions/063). */
  books?: PaymentWrite["books"];
}

/**
 * "Confirm payment" with nothing owed any more (a payment recorded meanwhile): the claim is
 * cleared and 'paid_claim_confirmed' recorded, nothing else.
 */
export async function confirmNothingOwed(db: Db, ownerId: string, debtorId: number, currency: string, now: number) {
  if (!(await closeClaim(db, ownerId, debtorId, "paid_claim_confirmed", "", now)))
    return { error: "no-claim" } as const;
  return { paidCents: 0, currency, owedCents: 0, completedScheduleIds: [], resumed: 0, refused: 0 } as ConfirmOutcome;
}

/**
 * "Confirm payment": the payment the user entered in the dialog (the
 * payment form's input, checked by paymentSchema) is recorded, and in the same batch the claim is
 * cleared and 'paid_claim_confirmed' recorded (now, with the amount), only if the payment was
 * inserted and the claim was still pending. Paid in full, addPayment's batch completes the
 * schedules and the lifecycle disarms them. Paid in part, something is still owed
 * and no notice is left to resume from, so the schedules the claim paused run again (the
 * dialog says so). Nothing is written when the claim was already answered, the amount is more
 * than is owed, or the debtor has too many payments.
 */
export async function confirmPaidClaim(
  scope: OwnerScope,
  debtorId: number,
  input: PaymentInput,
): Promise<ConfirmOutcome | ClaimError | PaymentWriteError> {
  const { db, ownerId, now } = scope;
  const found = await pendingClaim(db, ownerId, debtorId);
  if ("error" in found) return found;
  const detail = formatMoney(toCents(input.amount), found.currency);
  const written = await addPayment(scope, ownerId, debtorId, input, now, {
    onlyIf: isNotNull(debtors.paidClaimedAt),
    andThen: (inserted) => [
      db.insert(debtorEvents).select(
        db
          // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
          .select({
            id: sql<number>`null`.as("id"),
            ownerId: debtors.ownerId,
            debtorId: debtors.id,
            type: sql<string>`'paid_claim_confirmed'`.as("type"),
            detail: sql<string>`${detail}`.as("detail"),
            createdAt: sql<number>`${now}`.as("created_at"),
          })
          .from(debtors)
          .where(and(owned(ownerId, debtorId), inserted)),
      ),
      releaseClaimed(db, ownerId, debtorId, now, claimPending(ownerId, debtorId)),
      db
        .update(debtors)
        .set({ ...NO_CLAIM, updatedAt: now })
        .where(and(owned(ownerId, debtorId), inserted)),
    ],
  });
  if ("error" in written) {
    // Nothing was written: the claim may have been answered meanwhile (another tab).
    if (written.error !== "not-found") {
      const still = await pendingClaim(db, ownerId, debtorId);
      if ("error" in still) return still;
    }
    return written;
  }
  const owedCents = Math.max(0, written.debtor.debtCents - written.debtor.paidCents);
  const outcome =
    owedCents > 0 ? await resumeAfterPaidClaim(scope, debtorId) : { resumed: [], refused: [] as unknown[] };
  // The invoices it held are chased again: a due-date cadence follows them.
  if (owedCents > 0) await replanDueSchedules(scope, [debtorId]);
  return {
    paidCents: written.payment.amountCents,
    currency: written.payment.currency,
    owedCents,
    completedScheduleIds: written.completedScheduleIds,
    resumed: outcome.resumed.length,
    refused: outcome.refused.length,
    books: written.books,
  };
}

/** What "Not received" answers the debtor: what they said they paid, and the invoices chased again. */
export interface RejectedClaim {
  claim: Pick<ClaimInput, "amountCents" | "currency" | "paidOn" | "reference">;
  invoices: ClaimedInvoice[];
}

/**
 * "Not received": the user could not find the payment the debtor claimed. In one batch the claim is
 * cleared, its invoices are chased again and 'paid_claim_rejected' recorded; then the schedules it
 * held run again (the lifecycle's resume: a debtor who paid, opted out or bounces keeps them paused)
 * and a due-date cadence follows the invoices again. The caller tells the debtor, politely.
 */
export async function rejectClaim(
  scope: OwnerScope,
  config: AppConfig,
  debtorId: number,
): Promise<(ResumeOutcome & { rejected: RejectedClaim; told: boolean }) | ClaimError> {
  const { db, ownerId, now } = scope;
  const [claim] = await paidClaimsQuery(db, ownerId, 1, debtorId);
  if (!claim) {
    const exists = await db.select({ id: debtors.id }).from(debtors).where(owned(ownerId, debtorId)).get();
    return { error: exists ? "no-claim" : "not-found" };
  }
  const [view] = paidClaimsOf([claim]);
  const rejected: RejectedClaim = {
    claim: {
      amountCents: view?.claimCents ?? null,
      currency: view?.claimCurrency ?? null,
      paidOn: view?.claimOn ?? "",
      reference: view?.claimReference ?? null,
    },
    invoices: view?.invoices ?? [],
  };
  const closed = await closeClaim(db, ownerId, debtorId, "paid_claim_rejected", claimDetail(rejected.claim), now);
  if (!closed) return { error: "no-claim" };
  const outcome = await resumeAfterPaidClaim(scope, debtorId);
  await replanDueSchedules(scope, [debtorId]);
  const told = await tellNotFound(scope, config, debtorId, rejected, claim.paidClaimedAt ?? now);
  return { ...outcome, rejected, told };
}

/**
 * The debtor's polite answer: what they said, that it was not found yet, how to settle it. Recorded
 * before it is sent (retried by the watchdog, listed in Settings → E-mails), once per claim. Not to
 * an address that opted out or bounces. Never throws: the claim is answered either way.
 */
async function tellNotFound(
  { env, db, ownerId }: OwnerScope,
  config: AppConfig,
  debtorId: number,
  rejected: RejectedClaim,
  claimedAt: number,
): Promise<boolean> {
  try {
    const parties = await debtorParties(db, ownerId, debtorId, config);
    if (!parties || parties.status === "opted_out" || parties.status === "bouncing") return false;
    const portalUrl = await portalLink(db, config, { id: debtorId, ownerId, optOutKey: parties.optOutKey });
    const { claim } = rejected;
    const amount =
      claim.amountCents !== null && claim.currency
        ? formatMoney(claim.amountCents, claim.currency, parties.moneyLocale)
        : null;
    const claimed = claimedWords(parties.language, {
      amount,
      paidOn: claim.paidOn ? formatDate(claim.paidOn, parties.locale) : null,
      reference: claim.reference,
    });
    await sendRecorded(env, db, {
      ownerId,
      debtorId,
      key: `claim-rejected:${debtorId}:${claimedAt}`,
      email: {
        kind: "claim-answer",
        message: {
          to: parties.email,
          senderName: parties.senderName,
          replyTo: parties.replyTo,
          debtorName: parties.debtorName,
          claimed,
          invoices: rejected.invoices.map(
            (i) =>
              `${i.number ?? parties.t("anInvoice")} (${formatMoney(i.balanceCents, i.currency, parties.moneyLocale)})`,
          ),
          portalUrl,
          language: parties.language,
          brand: parties.brand,
        },
      },
    });
    return true;
  } catch (error) {
    console.error(`[dunly] the answer to a claim of debtor ${debtorId} failed: ${(error as Error).message}`);
    return false;
  }
}
