import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { charges, debtors, invoices, onlinePayments } from "~/db/schema";
import { translator } from "~/domain/i18n";
import { PORTAL_COPY } from "~/domain/i18n/portal";
import type { Language } from "~/domain/languages";
import { formatMoney, toStripeAmount } from "~/domain/money";
import { nextPayment } from "~/domain/payment-plan";
import type { StripeSetup } from "~/stripe/index.server";
import { debtorPlans, debtorToday } from "../plans/plans.server";
import { pendingOnlinePayment } from "./online-payments.server";
import type { StripeAccountRow } from "./stripe-account.server";

/**
 * Pay online (decisions/018): a Checkout Session on the
 * user's connected account (a direct charge: the Stripe-Account header) for what the ledger says is
 * still owed, one open invoice or every open invoice in one currency, with the late-payment charges
 * owed on them (that invoice's, or every one in that currency: decisions/065). The amount and
 * currency are read here from the invoices and charges, never from the request; the session is recorded (online_payments) so
 * the webhook maps it back to its debtor without trusting its metadata.
 */

/**
 * What to pay: one of the debtor's open invoices, all of them in a currency (null: the oldest's), or
 * the next instalment of their active payment plan (decisions/066: its unpaid part, read from the ledger).
 */
export type PayTarget = { invoiceId: number } | { currency: string | null } | { planId: number };

export type CheckoutOutcome = { url: string; sessionId: string } | { error: "nothing-owed" | "payment-pending" };

/** The debtor's open invoices with something left, oldest due first (the target's). */
async function owedLines(db: Db, ownerId: string, debtorId: number, target: PayTarget) {
  const rows = await db
    .select({
      id: invoices.id,
      number: invoices.number,
      currency: invoices.currency,
      balance: sql<number>`${invoices.amountCents} - ${invoices.paidCents}`,
    })
    .from(invoices)
    .where(
      and(
        eq(invoices.debtorId, debtorId),
        eq(invoices.ownerId, ownerId),
        eq(invoices.status, "open"),
        gt(invoices.amountCents, invoices.paidCents),
        "invoiceId" in target ? eq(invoices.id, target.invoiceId) : undefined,
      ),
    )
    .orderBy(asc(invoices.dueOn), asc(invoices.id));
  // A plan's instalment pays principal only (its invoices' charges come after the plan: decisions/066).
  if ("planId" in target) return { lines: rows, charges: [] };
  const owed = await chargesOwed(db, ownerId, debtorId, target);
  const currency = "invoiceId" in target ? undefined : (target.currency ?? rows[0]?.currency ?? owed[0]?.currency);
  const inCurrency = <T extends { currency: string }>(list: T[]) =>
    currency === undefined ? list : list.filter((r) => r.currency === currency);
  return { lines: inCurrency(rows), charges: inCurrency(owed) };
}

/** The late-payment charges the debtor still owes, per invoice (the target's invoice only, when one is chosen). */
function chargesOwed(db: Db, ownerId: string, debtorId: number, target: PayTarget) {
  return db
    .select({
      invoiceId: charges.invoiceId,
      currency: charges.currency,
      owed: sql<number>`sum(${charges.amountCents} - ${charges.paidCents})`,
    })
    .from(charges)
    .innerJoin(invoices, eq(invoices.id, charges.invoiceId))
    .where(
      and(
        eq(charges.ownerId, ownerId),
        eq(charges.debtorId, debtorId),
        sql`${charges.waivedAt} IS NULL`,
        // Not a void invoice's, nor a disputed one's (owed only once the dispute is lost, as its principal).
        sql`${invoices.status} IN ('open', 'paid')`,
        gt(charges.amountCents, charges.paidCents),
        "invoiceId" in target ? eq(charges.invoiceId, target.invoiceId) : undefined,
      ),
    )
    .groupBy(charges.invoiceId, charges.currency)
    .orderBy(asc(invoices.dueOn), asc(charges.invoiceId));
}

/**
 * The next instalment of the debtor's active plan `planId` as a line to pay: its unpaid part (and
 * any missed before it) from what the ledger says is paid, in the plan's currency; null when the
 * plan is not the debtor's, not active, or paid.
 */
async function planLine(db: Db, ownerId: string, debtorId: number, planId: number, now: number) {
  const plan = (await debtorPlans(db, ownerId, debtorId)).find((p) => p.id === planId && p.status === "active");
  if (!plan) return null;
  const [debtor] = await db
    .select({ timeZone: debtors.timeZone })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)));
  const next = nextPayment(plan.instalments, plan.paidCents, debtorToday(now, debtor?.timeZone));
  return next
    ? { currency: plan.currency, cents: Math.min(next.cents, plan.totalCents - plan.paidCents), seq: next.seq }
    : null;
}

/**
 * Creates the Checkout Session for `target` on `account` and records it; its success and cancel URLs
 * are the debtor's page (`portalUrl`), which says "received" only once the webhook recorded it.
 * Checkout and the line it names are in the debtor's language (Stripe's `locale`; the page's catalogue).
 */
export async function startCheckout(
  db: Db,
  stripe: StripeSetup,
  account: StripeAccountRow,
  debtor: { id: number; ownerId: string; email: string; language: Language; locale: string },
  target: PayTarget,
  portalUrl: string,
  now: number,
): Promise<CheckoutOutcome> {
  const instalment = "planId" in target ? await planLine(db, debtor.ownerId, debtor.id, target.planId, now) : null;
  const owed = await owedLines(db, debtor.ownerId, debtor.id, target);
  const lines = instalment
    ? owed.lines.filter((l) => l.currency === instalment.currency)
    : "planId" in target
      ? []
      : owed.lines;
  const first = lines[0];
  const principal = lines.reduce((sum, l) => sum + Number(l.balance), 0);
  // A plan's instalment: never more than its invoices still owe; otherwise the principal and the charges owed.
  const amountCents = instalment
    ? Math.min(instalment.cents, principal)
    : principal + owed.charges.reduce((sum, c) => sum + Number(c.owed), 0);
  const currency = first?.currency ?? owed.charges[0]?.currency;
  if (!currency || amountCents <= 0) return { error: "nothing-owed" };
  // The invoices paid for: their principal, their charges, or both.
  const invoiceCount = new Set([...lines.map((l) => l.id), ...owed.charges.map((c) => c.invoiceId)]).size;
  // A bank payment still pending in this currency may yet arrive (decisions/018): a second payment
  // started now could pay the same invoices twice, so none starts until it has arrived or failed.
  if (await pendingOnlinePayment(db, debtor.ownerId, debtor.id, currency)) return { error: "payment-pending" };
  const t = translator(PORTAL_COPY, debtor.language, debtor.locale);
  const name = instalment
    ? t("portal.checkout.lines", { count: lines.length, amount: formatMoney(amountCents, currency, debtor.locale) })
    : lines.length === 1 && invoiceCount === 1 && first
      ? first.number?.trim()
        ? t("portal.checkout.line", { number: first.number.trim() })
        : t("portal.checkout.lineUnnumbered")
      : t("portal.checkout.lines", {
          count: invoiceCount,
          amount: formatMoney(amountCents, currency, debtor.locale),
        });
  const session = await stripe.client.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: currency.toLowerCase(),
            unit_amount: toStripeAmount(amountCents, currency),
            product_data: { name },
          },
        },
      ],
      customer_email: debtor.email,
      locale: debtor.language,
      client_reference_id: String(debtor.id),
      metadata: {
        dunly_owner: debtor.ownerId,
        dunly_debtor: String(debtor.id),
        dunly_invoice: "invoiceId" in target ? String(target.invoiceId) : "all",
      },
      payment_intent_data: { metadata: { dunly_owner: debtor.ownerId, dunly_debtor: String(debtor.id) } },
      success_url: `${portalUrl}?checkout={CHECKOUT_SESSION_ID}`,
      cancel_url: portalUrl,
    },
    { stripeAccount: account.accountId },
  );
  if (!session.url) throw new Error("Stripe gave the Checkout Session no URL");
  await db.insert(onlinePayments).values({
    sessionId: session.id,
    ownerId: debtor.ownerId,
    debtorId: debtor.id,
    accountId: account.accountId,
    invoiceId: "invoiceId" in target ? target.invoiceId : null,
    amountCents,
    currency,
    status: "open",
    createdAt: now,
    updatedAt: now,
  });
  return { url: session.url, sessionId: session.id };
}

/** The debtor's own online payment `sessionId` (the portal's "?checkout="), or undefined. */
export function onlinePaymentOf(db: Db, ownerId: string, debtorId: number, sessionId: string) {
  return db
    .select({
      status: onlinePayments.status,
      amountCents: onlinePayments.amountCents,
      currency: onlinePayments.currency,
    })
    .from(onlinePayments)
    .where(
      and(
        eq(onlinePayments.sessionId, sessionId),
        eq(onlinePayments.ownerId, ownerId),
        eq(onlinePayments.debtorId, debtorId),
      ),
    )
    .get();
}
