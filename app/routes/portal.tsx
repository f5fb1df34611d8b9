import { parseWithValibot } from "@conform-to/valibot";
import { data, redirect } from "react-router";
import { sendNoticesAfter } from "~/activity/index.server";
import { getApp } from "~/auth/context.server";
import { bankTransfersFor, listBankAccounts } from "~/bank/index.server";
import { DebtorBrandFrame } from "~/components/debtor-brand";
import { DEBTOR_LINK_HEADERS, debtorLinkMeta } from "~/components/debtor-link-page";
import type { PortalPlanForm, PortalPlanView } from "~/components/portal/plan-card";
import {
  PORTAL_DONE,
  type PortalDone,
  type PortalErrors,
  PortalPage,
  type PortalValues,
  type PortalView,
} from "~/components/portal/portal-page";
import { RouteError } from "~/components/route-error";
import { type Db, getDb } from "~/db/client.server";
import type { BankAccountRecord } from "~/domain/bank-transfer";
import { formatDate } from "~/domain/dates";
import { CHARGE_COPY } from "~/domain/i18n/charges";
import { DEBTOR_LINK_COPY } from "~/domain/i18n/debtor-link";
import { PAID_CLAIM_COPY } from "~/domain/i18n/paid-claim";
import { PLAN_COPY } from "~/domain/i18n/payment-plan";
import { PORTAL_COPY, type PortalKey } from "~/domain/i18n/portal";
import { formatMoney } from "~/domain/money";
import { amountExample } from "~/domain/number-locale";
import { englishCopy, type PageMessage, pageCopy, translate } from "~/domain/page-copy";
import { instalmentStates, LIVE_PLAN_STATUSES, nextPayment, planFirstWindow } from "~/domain/payment-plan";
import { promiseEndsAt, promiseWindow } from "~/domain/promise";
import { localDateString } from "~/domain/schedule-time";
import { chargeSummary, chargeWords } from "~/domain/statement-charges";
import { safeTimeZone } from "~/domain/time-zone";
import type { PayTarget, PlanView, PortalCharge } from "~/ledger/index.server";
import {
  acceptPlan,
  createPlan,
  debtorPlans,
  declinePlan,
  onlinePaymentOf,
  payOnline,
  paysOnline,
  pendingOnlinePayment,
  planTotals,
  sendPlanLetter,
} from "~/ledger/index.server";
import { invoiceRefs, type OptOutTarget, verifyPortalToken } from "~/links/index.server";
import { readForm } from "~/platform/action-result.server";
import type { AppConfig } from "~/platform/config.server";
import { replanDueSchedules } from "~/reminders/index.server";
import {
  chargeTotalsFrom,
  claimFormOf,
  claimPaid,
  claimSaidOf,
  disputeInvoice,
  optOutAddress,
  owedTotalsFrom,
  type PortalState,
  portalState,
  promiseToPay,
} from "~/responses/index.server";
import { PORTAL_INTENTS } from "~/schemas/intents";
import { readPaidClaim } from "~/schemas/paid-claim";
import { type PlanErrors, type PlanValues, planRuleField, planRuleMessage, readPlanForm } from "~/schemas/payment-plan";
import { DisputeSchema, portalMessage, promiseSchema } from "~/schemas/portal";
import type { PageHandle } from "~/ui/should-hydrate";
import type { Route } from "./+types/portal";

/**
 * The debtor's page: /d/<signed token>, linked from
 * every reminder, no session needed. It names the sender as the reminders did, lists the debtor's
 * open and disputed invoices with their balances, the totals per currency and the payments
 * received, and lets the debtor pay (the sender's payment page), say "I've paid", promise to pay by
 * a date, dispute an invoice or opt out: plain forms (no JavaScript needed) that post here (same
 * origin: the Origin check applies), then come back with a short confirmation
 * (POST/redirect/GET). Nothing on it, in its URLs or in its forms is an id: invoices are named by
 * references that mean something only with this token (invoiceRefs). Any token that is not a
 * portal token of an existing debtor gets the same 404 "This link is no longer valid.". It is written
 * in the debtor's language (the token's read brings it: debtorLanguage), and only that language's
 * words reach the browser.
 */

// The token is in the URL: never leak it through Referer, never cache or index the page.
export function headers() {
  return DEBTOR_LINK_HEADERS;
}

/** The user's page, not Dunly's: their brand instead of Dunly's header (docs/decisions/058). */
export const handle = { debtorPage: true } satisfies PageHandle;

type Errors = PortalErrors;
type Values = PortalValues;
type Copy = PortalView["copy"];

type Answer =
  | { state: "invalid"; copy: Copy }
  | (PortalView & {
      errors?: Errors;
      values?: Values;
      intent?: string;
      planErrors?: PlanErrors;
      planValues?: PlanValues;
    });

/** A link that is not valid names no debtor: the page in English. */
const invalid = () =>
  data<Answer>(
    { state: "invalid", copy: englishCopy(PORTAL_COPY, PAID_CLAIM_COPY, DEBTOR_LINK_COPY, CHARGE_COPY, PLAN_COPY) },
    { status: 404 },
  );

/** A refusal of the page's own (a key of its catalogue). */
const says = (key: PortalKey, values?: PageMessage<PortalKey>["values"]): PageMessage<PortalKey> =>
  values ? { key, values } : { key };

/** The page's values, with each invoice named by its reference for this token. */
async function viewOf(
  config: AppConfig,
  target: OptOutTarget,
  state: PortalState & PlanState,
  now: number,
  done: PortalDone | null,
  online: Pick<PortalView, "payOnline" | "checkout" | "pendingOnline">,
  accounts: readonly BankAccountRecord[],
  token: string,
): Promise<PortalView> {
  const base = `/d/${encodeURIComponent(token)}`;
  const refOf = await invoiceRefs(config, target.key);
  const open = state.invoices.filter((i) => i.status === "open");
  const zone = safeTimeZone(state.debtor.timeZone);
  const claim = await claimFormOf(refOf, state, target.locale, localDateString(now, zone), target.locale);
  // Late-payment charges (decisions/067), each in words in the debtor's language.
  const chargeOf = (c: PortalCharge) => {
    const words = chargeWords(c, target.language, {
      money: (cents, currency) => formatMoney(cents, currency, target.locale),
      date: (iso) => formatDate(iso, target.locale),
    });
    return {
      label: words.label,
      basis: words.basis,
      currency: c.currency,
      amountCents: c.amountCents,
      paidCents: c.paidCents,
      owedCents: c.owedCents,
      invoiceNumber: c.invoiceNumber,
      invoiceDueOn: c.invoiceDueOn,
    };
  };
  const totals = owedTotalsFrom(state.invoices);
  const chargeTotals = chargeTotalsFrom(state.charges);
  // What Pay online asks (app/ledger/online/checkout.server.ts): the open invoices' balances and
  // every charge still owed, per currency; one invoice: its balance and its charges.
  const owedCharges = new Map<string, number>();
  const owedOn = new Map<number, number>();
  for (const c of state.charges) {
    owedCharges.set(c.currency, (owedCharges.get(c.currency) ?? 0) + c.owedCents);
    owedOn.set(c.invoiceId, (owedOn.get(c.invoiceId) ?? 0) + c.owedCents);
  }
  const payTotals = [...new Set([...totals.map((t) => t.currency), ...owedCharges.keys()])]
    .sort()
    .map((currency) => ({
      currency,
      cents: (totals.find((t) => t.currency === currency)?.cents ?? 0) + (owedCharges.get(currency) ?? 0),
    }))
    .filter((t) => t.cents > 0);
  return {
    state: "ok",
    copy: pageCopy(
      target.language,
      target.locale,
      PORTAL_COPY,
      PAID_CLAIM_COPY,
      DEBTOR_LINK_COPY,
      CHARGE_COPY,
      PLAN_COPY,
    ),
    sender: target.senderName,
    brand: target.brand,
    payUrl: target.payUrl,
    ...online,
    statementUrl: `${base}/statement.pdf`,
    invoices: await Promise.all(
      state.invoices.map(async (i) => ({
        ref: await refOf(i.id),
        number: i.number,
        issuedOn: i.issuedOn,
        dueOn: i.dueOn,
        amountCents: i.amountCents,
        balanceCents: i.amountCents - i.paidCents,
        currency: i.currency,
        disputed: i.status === "disputed",
        claimed: i.claimedAt !== null,
        documentUrl: i.documentName === null ? null : `${base}/invoice/${await refOf(i.id)}`,
        charges: state.charges.filter((c) => c.invoiceId === i.id && !c.invoicePaid).map(chargeOf),
        payCents: i.amountCents - i.paidCents + (owedOn.get(i.id) ?? 0),
      })),
    ),
    totals,
    payTotals,
    chargesOnPaid: state.charges.filter((c) => c.invoicePaid).map(chargeOf),
    chargeSummary: chargeTotals.length > 0 ? chargeSummary(totals, chargeTotals) : [],
    // Bank transfer in each currency owed, the reference quoting its open invoices (decisions/051).
    // And in a currency only late-payment charges are owed in (decisions/067).
    bankTransfer: bankTransfersFor(
      accounts,
      [...open, ...payTotals.map((t) => ({ number: null, currency: t.currency }))],
      state.debtor.fullName,
    ),
    payments: state.payments,
    promisedOn: state.debtor.promisedOn,
    promiseBroken: state.debtor.promiseBrokenAt !== null,
    locale: claim.view.locale,
    claimSaid: claimSaidOf(state),
    claimForm: claim.view,
    optedOut: state.optedOut,
    emailed: state.emailed,
    window: promiseWindow(now, zone),
    done,
    ...plansView(state, now, target.locale),
  };
}

/** How long an ended plan (declined, broken, paid) stays on the page. */
const ENDED_PLAN_SHOWN_MS = 30 * 86_400_000;

/**
 * The page's payment plans (decisions/066): per currency the newest plan, when it is waiting,
 * running or ended lately, with each instalment's state from what the ledger says is paid; and the
 * request form over the currencies owed without a live plan.
 */
function plansView(state: PortalState & PlanState, now: number, locale: string) {
  const today = localDateString(now, safeTimeZone(state.debtor.timeZone));
  const newest = new Map<string, PlanView>();
  for (const p of state.plans) if (!newest.has(p.currency)) newest.set(p.currency, p);
  const plans: PortalPlanView[] = [];
  for (const p of newest.values()) {
    const live = (LIVE_PLAN_STATUSES as readonly string[]).includes(p.status);
    if (p.status === "cancelled" || (!live && (p.endedAt ?? 0) < now - ENDED_PLAN_SHOWN_MS)) continue;
    const next = p.status === "active" ? nextPayment(p.instalments, p.paidCents, today) : null;
    plans.push({
      currency: p.currency,
      status: p.status as PortalPlanView["status"],
      totalCents: p.totalCents,
      paidCents: p.paidCents,
      message: p.message,
      instalments: instalmentStates(p.instalments, p.paidCents, today),
      next: next ? { cents: next.cents, dueOn: next.dueOn } : null,
    });
  }
  const liveIn = new Set(
    state.plans.filter((p) => (LIVE_PLAN_STATUSES as readonly string[]).includes(p.status)).map((p) => p.currency),
  );
  const totals = state.planTotals.filter((t) => !liveIn.has(t.currency));
  const planForm: PortalPlanForm | null =
    totals.length > 0 ? { totals, window: planFirstWindow(today), amountExample: amountExample(locale) } : null;
  return { plans, planForm };
}

/** The debtor's plans and what a new one would cover, read with the page. */
interface PlanState {
  plans: PlanView[];
  planTotals: { currency: string; cents: number }[];
}

const doneOf = (value: string | null): PortalDone | null =>
  value !== null && Object.hasOwn(PORTAL_DONE, value) ? (value as PortalDone) : null;

/** The debtor behind the token and their state, or null for any token that is not valid. */
async function load(db: Db, config: AppConfig, token: string | undefined) {
  const target = await verifyPortalToken(db, config, token);
  if (!target) return null;
  const [state, plans, totals] = await Promise.all([
    portalState(db, target),
    debtorPlans(db, target.ownerId, target.debtorId),
    planTotals(db, target.ownerId, target.debtorId),
  ]);
  return state ? { target, state: { ...state, plans, planTotals: totals } } : null;
}

/**
 * Pay online on this page (decisions/018): whether Pay goes to Checkout, the payment the debtor came
 * back from (`?checkout=<session>`, the debtor's own only: what the webhook recorded of it, never
 * the redirect itself), and a bank payment still pending.
 */
async function onlineOf(env: Env, config: AppConfig, db: Db, target: OptOutTarget, sessionId: string | null) {
  const [pays, checkout, pending] = await Promise.all([
    paysOnline(env, config, db, target.ownerId),
    sessionId && sessionId.length <= 255 ? onlinePaymentOf(db, target.ownerId, target.debtorId, sessionId) : undefined,
    pendingOnlinePayment(db, target.ownerId, target.debtorId),
  ]);
  return { payOnline: pays, checkout: checkout ?? null, pendingOnline: pending ?? null };
}

export async function loader({ params, context, url }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  const found = await load(db, config, params.token);
  if (!found) return invalid();
  const online = await onlineOf(env, config, db, found.target, url.searchParams.get("checkout"));
  return data<Answer>(
    await viewOf(
      config,
      found.target,
      found.state,
      Date.now(),
      doneOf(url.searchParams.get("done")),
      online,
      await listBankAccounts(db, found.target.ownerId),
      params.token,
    ),
  );
}

/** The fields a Pay form may send: no amount, no debtor (the server decides both). */
const PAY_FIELDS = new Set(["intent", "invoice", "currency"]);
/** Pay while a bank payment in that currency is pending (the page offers no Pay then: a stale page's post). */
const PAY_PENDING: PortalKey = "portal.error.payPending";

export async function action({ params, context, request }: Route.ActionArgs) {
  const { env, config, ctx } = getApp(context);
  const db = getDb(env.DB);
  const found = await load(db, config, params.token);
  if (!found) return invalid();
  const { target, state } = found;
  const now = Date.now();
  // The user's notice of what was recorded.
  const tell = () => sendNoticesAfter(ctx, env, db, config, target.ownerId);
  // Back to the page, with what was done (POST/redirect/GET): a reload repeats nothing.
  const done = (what: PortalDone) => redirect(`/d/${params.token}?done=${what}`);
  /** The page again with what went wrong and what was typed (nothing is lost). */
  const refused = async (
    intent: string,
    status: number,
    errors: Errors,
    values: Values = {},
    plan: { planErrors?: PlanErrors; planValues?: PlanValues } = {},
  ) =>
    data<Answer>(
      {
        ...(await viewOf(
          config,
          target,
          state,
          now,
          null,
          await onlineOf(env, config, db, target, null),
          await listBankAccounts(db, target.ownerId),
          params.token,
        )),
        intent,
        errors,
        values,
        ...plan,
      },
      { status },
    );

  const form = await readForm(request);
  if ("refused" in form) return refused("", 400, { form: says("portal.error.unreadable") });
  const { formData } = form;
  const intent = String(formData.get("intent") ?? "");
  switch (intent) {
    case PORTAL_INTENTS.pay: {
      // The amount and the debtor come from the token and the ledger; a form that names either is refused.
      const extra = [...formData.keys()].filter((k) => !PAY_FIELDS.has(k));
      if (extra.length > 0) {
        return refused(intent, 400, { form: says("portal.error.payFields") });
      }
      const ref = String(formData.get("invoice") ?? "");
      let pay: PayTarget;
      if (ref) {
        // The reference means something only among this debtor's own open invoices.
        const refOf = await invoiceRefs(config, target.key);
        const open = state.invoices.filter((i) => i.status === "open");
        const refs = await Promise.all(open.map((i) => refOf(i.id)));
        const invoice = open[refs.indexOf(ref)];
        if (!invoice) return refused(intent, 400, { invoice: says("portal.error.chooseOpen") });
        pay = { invoiceId: invoice.id };
      } else {
        const currency = String(formData.get("currency") ?? "");
        if (currency && !state.invoices.some((i) => i.status === "open" && i.currency === currency)) {
          return refused(intent, 400, { invoice: says("portal.error.currency") });
        }
        pay = { currency: currency || null };
      }
      const started = await payOnline(env, config, db, target, params.token, pay, now);
      if (started === null) {
        if (target.payUrl) return redirect(target.payUrl, 303);
        return refused(intent, 409, {
          form: says("portal.error.payUnavailable", { sender: target.senderName }),
        });
      }
      if ("error" in started) {
        const form = says(started.error === "payment-pending" ? PAY_PENDING : "portal.error.nothingToPay");
        return refused(intent, 409, { form });
      }
      return redirect(started.url, 303);
    }
    case PORTAL_INTENTS.paid: {
      // As on /p: what they paid, read against their own open invoices; the invoices leave reminders
      // (the schedules hold in D1, then their alarms are disarmed, only when nothing else is chased).
      // Amounts are read as the page writes them: in the debtor's locale.
      const locale = target.locale;
      const today = localDateString(now, safeTimeZone(state.debtor.timeZone));
      const { claimable } = await claimFormOf(
        await invoiceRefs(config, target.key),
        state,
        locale,
        today,
        target.locale,
      );
      const read = readPaidClaim(formData, { open: claimable, locale, today });
      if (!read.ok && state.debtor.paidClaimedAt === null) return refused(intent, 400, read.errors, read.values);
      const { claimed } = read.ok
        ? await claimPaid({ env, db }, target.ownerId, target.debtorId, read.claim, now)
        : { claimed: false };
      if (claimed) tell();
      // Not recorded and not told before: nothing is owed any more.
      if (!claimed && state.debtor.paidClaimedAt === null) {
        return refused(intent, 409, { form: says("portal.error.nothingToTell") });
      }
      return done("paid");
    }
    case PORTAL_INTENTS.optOut: {
      // As on /u: every schedule to this address for this user completes, then is disarmed.
      const { debtorIds } = await optOutAddress({ env, db }, target.ownerId, target.email, now);
      if (debtorIds.length > 0) tell();
      return done("opted-out");
    }
    case PORTAL_INTENTS.promise: {
      const values = { promised_on: String(formData.get("promised_on") ?? "") };
      if (state.debtor.promiseBrokenAt !== null) {
        return refused(
          intent,
          409,
          { form: says("portal.error.promiseBroken", { sender: target.senderName }) },
          values,
        );
      }
      if (state.debtor.promisedOn !== null) {
        return refused(intent, 409, { form: says("portal.error.promised") }, values);
      }
      if (!state.invoices.some((i) => i.status === "open")) {
        return refused(intent, 409, { form: says("portal.error.nothingToPromise") }, values);
      }
      const zone = safeTimeZone(state.debtor.timeZone);
      const submission = parseWithValibot(formData, {
        schema: promiseSchema(promiseWindow(now, zone)),
      });
      if (submission.status !== "success") {
        return refused(intent, 400, { promised_on: portalMessage(submission.error?.promised_on?.[0]) }, values);
      }
      const promisedOn = submission.value.promised_on;
      const endsAt = promiseEndsAt(promisedOn, zone);
      if (endsAt === null) return refused(intent, 400, { promised_on: says("portal.error.promiseDate") }, values);
      const { promised } = await promiseToPay({ env, db }, target.ownerId, target.debtorId, promisedOn, endsAt, now);
      if (!promised) return refused(intent, 409, { form: says("portal.error.promiseFailed") }, values);
      tell();
      return done("promised");
    }
    case PORTAL_INTENTS.dispute: {
      const values = {
        invoice: String(formData.get("invoice") ?? ""),
        reason: String(formData.get("reason") ?? ""),
      };
      const submission = parseWithValibot(formData, { schema: DisputeSchema });
      if (submission.status !== "success") {
        return refused(
          intent,
          400,
          {
            invoice: portalMessage(submission.error?.invoice?.[0]),
            reason: portalMessage(submission.error?.reason?.[0]),
          },
          values,
        );
      }
      // The reference means something only among this debtor's own open invoices.
      const refOf = await invoiceRefs(config, target.key);
      const open = state.invoices.filter((i) => i.status === "open");
      const refs = await Promise.all(open.map((i) => refOf(i.id)));
      const invoice = open[refs.indexOf(submission.value.invoice)];
      if (!invoice) return refused(intent, 400, { invoice: says("portal.error.chooseOpen") }, values);
      const { disputed } = await disputeInvoice(
        { env, db },
        target.ownerId,
        target.debtorId,
        invoice,
        submission.value.reason,
        now,
      );
      if (!disputed) return refused(intent, 409, { form: says("portal.error.disputeFailed") }, values);
      tell();
      // The disputed invoice's steps leave the debtor's due-date schedules that still run.
      await replanDueSchedules({ env, db, ownerId: target.ownerId, now }, [target.debtorId]);
      return done("disputed");
    }
    case PORTAL_INTENTS.planRequest: {
      // The debtor asks for a plan (decisions/066): read in their number format, split against what
      // the ledger says is owed, made once (a live plan in the currency refuses a second).
      const today = localDateString(now, safeTimeZone(state.debtor.timeZone));
      const dateIn = (d: string) => formatDate(d, target.locale);
      const currencies = state.planTotals.map((t) => t.currency);
      const read = readPlanForm(formData, { currencies, locale: target.locale });
      if (!read.ok) return refused(intent, 400, {}, {}, { planErrors: read.errors, planValues: read.values });
      const made = await createPlan({ env, db, ownerId: target.ownerId, now }, target.debtorId, "debtor", {
        ...read.value,
        today,
      });
      if ("error" in made) {
        const planErrors: PlanErrors =
          made.error === "live" || made.error === "stale" || made.error === "not-found"
            ? { form: { key: "plan.error.live" } }
            : { [planRuleField(made.error, read.value.shape.mode)]: planRuleMessage(made.error, today, dateIn) };
        return refused(intent, made.error === "live" ? 409 : 400, {}, {}, { planErrors, planValues: read.values });
      }
      tell();
      return done("plan-requested");
    }
    case PORTAL_INTENTS.planAccept:
    case PORTAL_INTENTS.planDecline: {
      // The debtor answers the user's offer in a currency (the page names no plan id).
      const currency = String(formData.get("currency") ?? "");
      const offer = state.plans.find((p) => p.currency === currency && p.status === "offered");
      const stale = { planErrors: { form: { key: "plan.error.stale" as const } } };
      if (!offer) return refused(intent, 409, {}, {}, stale);
      const scope = { env, db, ownerId: target.ownerId, now };
      const today = localDateString(now, safeTimeZone(state.debtor.timeZone));
      if (intent === PORTAL_INTENTS.planAccept) {
        const accepted = await acceptPlan(scope, offer.id, { by: "debtor", debtorId: target.debtorId, today });
        if ("error" in accepted) return refused(intent, 409, {}, {}, stale);
        tell();
        await sendPlanLetter(scope, config, accepted.plan, "confirmed");
        return done("plan-accepted");
      }
      const declined = await declinePlan(scope, offer.id, { by: "debtor", debtorId: target.debtorId });
      if ("error" in declined) return refused(intent, 409, {}, {}, stale);
      tell();
      return done("plan-declined");
    }
    case PORTAL_INTENTS.planPay: {
      // The next instalment (with any missed before it), its amount from the ledger, never the form's.
      const extra = [...formData.keys()].filter((k) => k !== "intent" && k !== "currency");
      if (extra.length > 0) return refused(intent, 400, { form: says("portal.error.payFields") });
      const currency = String(formData.get("currency") ?? "");
      const plan = state.plans.find((p) => p.currency === currency && p.status === "active");
      if (!plan) return refused(intent, 409, {}, {}, { planErrors: { form: { key: "plan.error.stale" } } });
      const started = await payOnline(env, config, db, target, params.token, { planId: plan.id }, now);
      if (started === null) {
        if (target.payUrl) return redirect(target.payUrl, 303);
        return refused(intent, 409, { form: says("portal.error.payUnavailable", { sender: target.senderName }) });
      }
      if ("error" in started) {
        return refused(intent, 409, {
          form: says(started.error === "payment-pending" ? PAY_PENDING : "portal.error.nothingToPay"),
        });
      }
      return redirect(started.url, 303);
    }
    default:
      return refused(intent, 400, { form: says("portal.error.unknown") });
  }
}

export default function Portal({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData ?? loaderData;
  return (
    <DebtorBrandFrame
      brand={answer.state === "invalid" ? null : answer.brand}
      lightTheme={translate(answer.copy)("link.lightTheme")}
    >
      <PortalPage answer={answer} />
    </DebtorBrandFrame>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your statement." />;
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const data = loaderData as Answer | undefined;
  const copy = data?.copy;
  return debtorLinkMeta(
    copy ? translate(copy)("portal.title") : "Your statement",
    data && "sender" in data ? data.sender : null,
  );
};
