import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, invoices, onlinePayments } from "~/db/schema";
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
 * still owed, one open invoice or every open invoice in one currency. The amount and currency are
 * read here from the invoices, never from the request; the session is recorded (online_payments) so
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
  if ("invoiceId" in target) return rows;
  if ("planId" in target) return rows;
  const currency = target.currency ?? rows[0]?.currency;
  return rows.filter((r) => r.currency === currency);
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
  const all = await owedLines(db, debtor.ownerId, debtor.id, target);
  const lines = instalment ? all.filter((l) => l.currency === instalment.currency) : "planId" in target ? [] : all;
  const first = lines[0];
  const owed = lines.reduce((sum, l) => sum + Number(l.balance), 0);
  // A plan's instalment: never more than its invoices still owe.
  const amountCents = instalment ? Math.min(instalment.cents, owed) : owed;
  if (!first || amountCents <= 0) return { error: "nothing-owed" };
  const currency = first.currency;
  // A bank payment still pending in this currency may yet arrive (decisions/018): a second payment
  // started now could pay the same invoices twice, so none starts until it has arrived or failed.
  if (await pendingOnlinePayment(db, debtor.ownerId, debtor.id, currency)) return { error: "payment-pending" };
  const t = translator(PORTAL_COPY, debtor.language, debtor.locale);
  const name = instalment
    ? t("portal.checkout.lines", { count: lines.length, amount: formatMoney(amountCents, currency, debtor.locale) })
    : lines.length === 1
      ? first.number?.trim()
        ? t("portal.checkout.line", { number: first.number.trim() })
        : t("portal.checkout.lineUnnumbered")
      : t("portal.checkout.lines", {
          count: lines.length,
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
