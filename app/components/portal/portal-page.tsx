import { type ReactNode, useId, useState } from "react";
import { Form, useNavigation } from "react-router";
import { richText } from "~/components/debtor-copy";
import { InvalidDebtorLink } from "~/components/debtor-link-page";
import { Button, SubmitButton } from "~/components/ui/button";
import { FieldError, Label } from "~/components/ui/input";
import { buttonVariants, inputClass } from "~/components/ui/variants";
import type { BankTransfer } from "~/domain/bank-transfer";
import type { MessageBrand } from "~/domain/brand";
import { formatDate } from "~/domain/dates";
import { DISPUTE_REASON_MAX } from "~/domain/dispute";
import type { Translate } from "~/domain/i18n";
import type { ChargeCopyKey } from "~/domain/i18n/charges";
import type { DebtorLinkKey } from "~/domain/i18n/debtor-link";
import type { PaidClaimKey } from "~/domain/i18n/paid-claim";
import type { PlanKey } from "~/domain/i18n/payment-plan";
import type { PortalKey } from "~/domain/i18n/portal";
import { formatMoney } from "~/domain/money";
import { type PageCopy, type PageMessage, say, translate } from "~/domain/page-copy";
import { addDays, PROMISE_MAX_DAYS } from "~/domain/promise";
import type { ChargeSummaryRow } from "~/domain/statement-charges";
import { PORTAL_INTENTS } from "~/schemas/intents";
import type { ClaimField, ClaimFormView, ClaimMessage, ClaimSaid, ClaimValues } from "~/schemas/paid-claim";
import type { PlanErrors, PlanValues } from "~/schemas/payment-plan";
import { claimSaidWords, PaidClaimForm } from "./paid-claim-form";
import { PlanSection, type PortalPlanForm, type PortalPlanView } from "./plan-card";

/**
 * The debtor's page (app/routes/portal.tsx): one
 * column that reads on a phone, plain forms that work without JavaScript, every control labelled,
 * every word in the debtor's language (`copy`: the loader sends that language only).
 */

type Words = PortalKey | PaidClaimKey | DebtorLinkKey | ChargeCopyKey | PlanKey;
type T = Translate<Words>;

/** The confirmations the page shows after an action (its `done` query parameter). */
export const PORTAL_DONE = {
  promised: "promised",
  disputed: "disputed",
  paid: "paid",
  "opted-out": "opted-out",
  "plan-requested": "plan-requested",
  "plan-accepted": "plan-accepted",
  "plan-declined": "plan-declined",
} as const;
export type PortalDone = keyof typeof PORTAL_DONE;

export interface PortalInvoiceView {
  /** The page's reference for the invoice: meaningful only with this page's token. */
  ref: string;
  number: string | null;
  issuedOn: string;
  dueOn: string;
  amountCents: number;
  balanceCents: number;
  currency: string;
  disputed: boolean;
  /** The debtor said they paid it; the sender is checking. */
  claimed: boolean;
  /** The invoice's own PDF, behind this page's token; null without one. */
  documentUrl: string | null;
  /** Its late-payment charges, owed or paid (decisions/067). */
  charges: PortalChargeView[];
  /** What paying this invoice alone asks: its balance and its charges still owed. */
  payCents: number;
}

/** A late-payment charge as the debtor reads it: its label and legal basis in their language, and its money. */
export interface PortalChargeView {
  label: string;
  /** The legal basis in words; null: none readable. */
  basis: string | null;
  currency: string;
  amountCents: number;
  paidCents: number;
  owedCents: number;
  invoiceNumber: string | null;
  invoiceDueOn: string;
}

export interface PortalView {
  state: "ok";
  /** The page's words in the debtor's language, and the locale its dates and amounts are written in. */
  copy: PageCopy<Words>;
  sender: string;
  /** The user's brand (docs/decisions/058): the page's frame shows it. */
  brand: MessageBrand;
  payUrl: string | null;
  /** Pay online on the sender's own Stripe account (decisions/018): a Checkout Session made by the server. */
  payOnline: boolean;
  /** What became of the payment online the debtor came back from (?checkout=), as the webhook recorded it. */
  checkout: {
    status: "open" | "pending" | "paid" | "failed" | "expired";
    amountCents: number;
    currency: string;
  } | null;
  /** A bank payment online still being processed. */
  pendingOnline: { amountCents: number; currency: string } | null;
  /** Bank transfer in each currency owed, with the reference to quote (decisions/051). */
  bankTransfer: BankTransfer[];
  invoices: PortalInvoiceView[];
  /** The statement as a PDF, made when it is downloaded. */
  statementUrl: string;
  totals: { currency: string; cents: number }[];
  /**
   * What Pay online asks per currency (decisions/065, 067): the open invoices' balances and every
   * late-payment charge still owed in it; without charges, `totals`.
   */
  payTotals: { currency: string; cents: number }[];
  /** Charges still owed on invoices paid in full. */
  chargesOnPaid: PortalChargeView[];
  /** Per currency: invoices, charges and both (empty: no charge is owed, the page shows its one total). */
  chargeSummary: ChargeSummaryRow[];
  payments: { paidOn: string; amountCents: number; currency: string }[];
  promisedOn: string | null;
  promiseBroken: boolean;
  /** Where the page writes dates and amounts: the debtor's language's (debtorLocale). */
  locale: string;
  /** What the pending "I've paid" said; null without one. */
  claimSaid: ClaimSaid | null;
  /** The "I've paid" form: the invoices that may be ticked, the debtor's today and number format. */
  claimForm: ClaimFormView;
  optedOut: boolean;
  /** The sender gets an e-mail of the debtor's answers: only then does the page say they "have been told". */
  emailed: boolean;
  /** The dates a promise may name, in the debtor's zone. */
  window: { min: string; max: string };
  done: PortalDone | null;
  /** Payment plans (decisions/066): the debtor's, per currency, and the form to ask for one (null: none can be asked). */
  plans: PortalPlanView[];
  planForm: PortalPlanForm | null;
}

/** The refusals of the page's forms: keys of its catalogues, written by the page. */
export type PortalErrors = Partial<Record<"form" | "promised_on" | "invoice" | "reason", PageMessage<PortalKey>>> &
  Partial<Record<ClaimField, ClaimMessage>>;
/** What was typed, kept on a refusal. */
export type PortalValues = { promised_on?: string; invoice?: string; reason?: string } & Partial<ClaimValues>;

/** The page after a refused action: which form, what went wrong, what was typed. */
type PortalAnswer = PortalView & {
  intent?: string;
  errors?: PortalErrors;
  values?: PortalValues;
  /** The payment-plan form's refusals and what was typed in it. */
  planErrors?: PlanErrors;
  planValues?: PlanValues;
};

type Answer = { state: "invalid"; copy: PageCopy<Words> } | PortalAnswer;

/** What the page says after Checkout: only what the verified events recorded, never the redirect itself. */
function checkoutMessage(view: PortalView, t: T): string | null {
  const c = view.checkout;
  if (!c) return null;
  const values = { sender: view.sender, amount: formatMoney(c.amountCents, c.currency, view.locale) };
  switch (c.status) {
    case "paid":
      return t("portal.checkout.paid", values);
    case "pending":
      return t("portal.checkout.pending", values);
    case "failed":
      return t("portal.checkout.failed", values);
    default:
      return t("portal.checkout.open", values);
  }
}

function doneMessage(view: PortalView, t: T): string | null {
  // Told by e-mail, or shown in Dunly when the sender switched those e-mails off.
  const sender = view.sender;
  switch (view.done) {
    case "promised":
      return view.promisedOn
        ? t(view.emailed ? "portal.done.promisedEmailed" : "portal.done.promisedInDunly", {
            sender,
            date: formatDate(view.promisedOn, view.locale),
          })
        : t(view.emailed ? "portal.done.whenEmailed" : "portal.done.whenInDunly", { sender });
    case "disputed":
      return t(view.emailed ? "portal.done.disputedEmailed" : "portal.done.disputedInDunly", { sender });
    case "paid":
      return t(view.emailed ? "portal.done.paidEmailed" : "portal.done.paidInDunly", { sender });
    case "opted-out":
      return t("portal.optedOut", { sender });
    case "plan-requested":
      return t("plan.done.requested", { sender });
    case "plan-accepted":
      return t("plan.done.accepted");
    case "plan-declined":
      return t("plan.done.declined", { sender });
    default:
      return null;
  }
}

export function PortalPage({ answer }: { answer: Answer }) {
  const t = translate(answer.copy);
  if (answer.state === "invalid") {
    return (
      <section className="mx-auto flex max-w-md flex-col items-center gap-6 px-4 py-16 text-center">
        <InvalidDebtorLink title={t("portal.title")} t={t} />
      </section>
    );
  }
  const view = answer;
  const confirmation = checkoutMessage(view, t) ?? doneMessage(view, t);
  const open = view.invoices.filter((i) => !i.disputed);
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:py-12">
      <header className="flex flex-col gap-2">
        <h1 className="break-words text-2xl font-bold sm:text-3xl">{t("portal.heading", { sender: view.sender })}</h1>
        <p className="text-muted">{t("portal.intro", { sender: view.sender })}</p>
      </header>
      {confirmation && (
        <p role="status" className="break-words rounded-md border border-success px-4 py-3">
          {confirmation}
        </p>
      )}
      {view.errors?.form && (
        <p role="alert" className="break-words rounded-md border border-danger px-4 py-3 text-danger">
          {say(t, view.errors.form)}
        </p>
      )}
      <Invoices view={view} t={t} />
      <Payments payments={view.payments} locale={view.locale} t={t} />
      <section aria-labelledby="respond-heading" className="flex flex-col gap-4">
        <h2 id="respond-heading" className="text-xl font-semibold">
          {t("portal.respond")}
        </h2>
        {view.payOnline && view.payTotals.length > 0 && <PayOnlineCard view={view} open={open} t={t} />}
        {!view.payOnline && view.payUrl && view.payTotals.length > 0 && (
          <Card title={t("portal.pay.title")}>
            <p className="text-sm text-muted">{t("portal.pay.page", { sender: view.sender })}</p>
            <a
              href={view.payUrl}
              rel="noopener noreferrer"
              className={buttonVariants({ size: "lg", className: "w-full sm:w-auto" })}
            >
              {t("portal.pay.now")}
            </a>
          </Card>
        )}
        {view.bankTransfer.map((b) => (
          <BankTransferCard key={b.currency} transfer={b} several={view.bankTransfer.length > 1} t={t} />
        ))}
        <PlanSection
          plans={view.plans}
          form={view.planForm}
          payOnline={view.payOnline}
          locale={view.locale}
          sender={view.sender}
          t={t}
          intent={view.intent}
          errors={view.planErrors}
          values={view.planValues}
        />
        <PaidCard view={view} t={t} />
        {open.length > 0 && <PromiseCard view={view} t={t} />}
        {open.length > 0 && <DisputeCard view={view} open={open} t={t} />}
        <OptOutCard view={view} t={t} />
      </section>
    </div>
  );
}

/**
 * Pay online (decisions/018): a form per currency (everything open in it) and, with several open
 * invoices, one per invoice. The forms name no amount: the server reads it from the ledger.
 */
function PayOnlineCard({ view, open, t }: { view: PortalAnswer; open: PortalInvoiceView[]; t: T }) {
  // Nothing in the currency of a pending bank payment: it may yet arrive, and a second payment
  // would pay the same invoices twice (the server refuses one too).
  const pendingCurrency = view.pendingOnline?.currency;
  const payable = open.filter((i) => i.balanceCents > 0 && i.currency !== pendingCurrency);
  const totals = view.payTotals.filter((t) => t.currency !== pendingCurrency);
  const money = (cents: number, currency: string) => formatMoney(cents, currency, view.locale);
  return (
    <Card title={t("portal.pay.title")}>
      {view.pendingOnline ? (
        <p className="text-sm">
          {t("portal.pay.pending", {
            amount: money(view.pendingOnline.amountCents, view.pendingOnline.currency),
            currency: view.pendingOnline.currency,
          })}
        </p>
      ) : (
        <p className="text-sm text-muted">{t("portal.pay.stripe", { sender: view.sender })}</p>
      )}
      {view.intent === PORTAL_INTENTS.pay && view.errors?.invoice && (
        <p role="alert" className="text-sm text-danger">
          {say(t, view.errors.invoice)}
        </p>
      )}
      {totals.map((total) => (
        <form key={total.currency} method="post">
          <input type="hidden" name="intent" value={PORTAL_INTENTS.pay} />
          <input type="hidden" name="currency" value={total.currency} />
          <Button type="submit" size="lg" className="w-full sm:w-auto">
            {t("portal.pay.total", { amount: money(total.cents, total.currency) })}
          </Button>
        </form>
      ))}
      {payable.length > 1 && (
        <ul className="flex flex-col gap-2 text-sm" aria-label={t("portal.pay.one")}>
          {payable.map((i) => (
            <li key={i.ref}>
              <form method="post" className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="intent" value={PORTAL_INTENTS.pay} />
                <input type="hidden" name="invoice" value={i.ref} />
                <Button type="submit" variant="outline" size="wrap" className="text-left">
                  {i.number
                    ? t("portal.pay.oneNumbered", { number: i.number, amount: money(i.payCents, i.currency) })
                    : t("portal.pay.oneDue", {
                        date: formatDate(i.dueOn, view.locale),
                        amount: money(i.payCents, i.currency),
                      })}
                </Button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4">
      <h3 id={id} className="text-lg font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Invoices({ view, t }: { view: PortalView; t: T }) {
  const money = (cents: number, currency: string) => formatMoney(cents, currency, view.locale);
  return (
    <section aria-labelledby="invoices-heading" className="flex flex-col gap-3">
      <h2 id="invoices-heading" className="text-xl font-semibold">
        {t("portal.invoices.heading")}
      </h2>
      {view.invoices.length === 0 && view.chargesOnPaid.length === 0 ? (
        <p>{t("portal.invoices.none")}</p>
      ) : (
        <>
          <ul className="flex flex-col gap-2" data-testid="portal-invoices">
            {view.invoices.map((i) => (
              <li key={i.ref} className="rounded-lg border border-border bg-surface p-3 text-sm">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="break-words font-semibold">
                    {i.number ? t("portal.invoice.numbered", { number: i.number }) : t("portal.invoice")}
                    {i.disputed && (
                      <span className="ml-2 rounded bg-surface-2 px-2 py-0.5 text-xs font-medium">
                        {t("portal.invoice.disputed")}
                      </span>
                    )}
                    {i.claimed && (
                      <span className="ml-2 rounded bg-surface-2 px-2 py-0.5 text-xs font-medium">
                        {t("portal.invoice.claimed")}
                      </span>
                    )}
                  </p>
                  <p className="font-semibold">{money(i.balanceCents, i.currency)}</p>
                </div>
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-muted">
                  <dt>{t("portal.invoice.issued")}</dt>
                  <dd>{formatDate(i.issuedOn, view.locale)}</dd>
                  <dt>{t("portal.invoice.due")}</dt>
                  <dd>{formatDate(i.dueOn, view.locale)}</dd>
                  {i.balanceCents !== i.amountCents && (
                    <>
                      <dt>{t("portal.invoice.amount")}</dt>
                      <dd>
                        {t("portal.invoice.partly", {
                          amount: money(i.amountCents, i.currency),
                          balance: money(i.balanceCents, i.currency),
                        })}
                      </dd>
                    </>
                  )}
                </dl>
                {i.charges.length > 0 && (
                  <Charges charges={i.charges} locale={view.locale} t={t} label={t("charges.heading")} />
                )}
                {i.documentUrl && (
                  <a
                    href={i.documentUrl}
                    className="mt-2 inline-block font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {i.number
                      ? t("portal.invoice.downloadNumbered", { number: i.number })
                      : t("portal.invoice.download")}
                  </a>
                )}
              </li>
            ))}
          </ul>
          {view.chargesOnPaid.length > 0 && (
            <div className="flex flex-col gap-2" data-testid="portal-charges-on-paid">
              <h3 className="font-semibold">{t("charges.onPaid")}</h3>
              <div className="rounded-lg border border-border bg-surface p-3 text-sm">
                <Charges charges={view.chargesOnPaid} locale={view.locale} t={t} label={t("charges.onPaid")} onPaid />
              </div>
            </div>
          )}
          {view.chargeSummary.length > 0 && <ChargeTotals view={view} t={t} />}
          {view.chargeSummary.length === 0 && view.totals.length > 0 && (
            <p className="text-base" data-testid="portal-total">
              {richText(
                t,
                "portal.total",
                {},
                { total: <strong>{view.totals.map((o) => money(o.cents, o.currency)).join(" + ")}</strong> },
              )}
            </p>
          )}
          <p>
            <a href={view.statementUrl} className="font-medium text-primary underline-offset-4 hover:underline">
              {t("portal.statement.download")}
            </a>
            <span className="text-sm text-muted">{` ${t("portal.statement.purpose")}`}</span>
          </p>
          {view.invoices.some((i) => i.disputed) && (
            <p className="text-sm text-muted">{t("portal.disputedNote", { sender: view.sender })}</p>
          )}
        </>
      )}
    </section>
  );
}

/**
 * Late-payment charges (decisions/067): each with what it is, how it was computed, what is owed and
 * what was paid. A waived charge is not owed, so it is no line of its own.
 */
function Charges({
  charges,
  locale,
  t,
  label,
  onPaid = false,
}: {
  charges: PortalChargeView[];
  locale: string;
  t: T;
  label: string;
  onPaid?: boolean;
}) {
  const money = (cents: number, currency: string) => formatMoney(cents, currency, locale);
  return (
    <ul
      aria-label={label}
      className="mt-2 flex flex-col gap-2 border-t border-border pt-2"
      data-testid="portal-charges"
    >
      {charges.map((c, n) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once; two charges may read alike.
        <li key={n} className="flex flex-col gap-0.5">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <span className="break-words font-medium">
              {onPaid
                ? c.invoiceNumber
                  ? t("charges.ofInvoice", { label: c.label, number: c.invoiceNumber })
                  : t("charges.ofInvoiceDue", { label: c.label, date: formatDate(c.invoiceDueOn, locale) })
                : c.label}
            </span>
            {c.owedCents === 0 ? (
              <span className="rounded bg-surface-2 px-2 py-0.5 text-xs font-medium">
                {`${t("charges.paid")} · ${money(c.paidCents, c.currency)}`}
              </span>
            ) : (
              <span className="font-medium">{money(c.owedCents, c.currency)}</span>
            )}
          </div>
          {c.basis && <p className="break-words text-xs text-muted">{c.basis}</p>}
          {c.owedCents > 0 && c.paidCents > 0 && (
            <p className="text-xs text-muted">
              {t("charges.partlyPaid", {
                paid: money(c.paidCents, c.currency),
                amount: money(c.amountCents, c.currency),
              })}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** What is owed per currency with charges: the invoices, the charges and both, apart. */
function ChargeTotals({ view, t }: { view: PortalView; t: T }) {
  const several = view.chargeSummary.length > 1;
  const money = (cents: number, currency: string) => formatMoney(cents, currency, view.locale);
  return (
    <div className="flex flex-col gap-2" data-testid="portal-charge-totals">
      {view.chargeSummary.map((r) => (
        <dl key={r.currency} className="grid grid-cols-[1fr_auto] gap-x-4 text-base">
          <dt>{several ? t("charges.invoicesIn", { currency: r.currency }) : t("charges.invoices")}</dt>
          <dd className="text-right tabular-nums">{money(r.invoicesCents, r.currency)}</dd>
          <dt>{several ? t("charges.chargesIn", { currency: r.currency }) : t("charges.charges")}</dt>
          <dd className="text-right tabular-nums">{money(r.chargesCents, r.currency)}</dd>
          <dt className="font-semibold">
            {several ? t("charges.totalIn", { currency: r.currency }) : t("charges.total")}
          </dt>
          <dd className="text-right font-semibold tabular-nums">{money(r.totalCents, r.currency)}</dd>
        </dl>
      ))}
      <p className="text-sm text-muted">{t("charges.note")}</p>
    </div>
  );
}

function Payments({ payments, locale, t }: { payments: PortalView["payments"]; locale: string; t: T }) {
  return (
    <section aria-labelledby="payments-heading" className="flex flex-col gap-3">
      <h2 id="payments-heading" className="text-xl font-semibold">
        {t("portal.payments.heading")}
      </h2>
      {payments.length === 0 ? (
        <p className="text-muted">{t("portal.payments.none")}</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" data-testid="portal-payments">
          {payments.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once; two payments may be alike.
            <li key={i} className="flex justify-between gap-3 border-b border-border py-1">
              <span>{formatDate(p.paidOn, locale)}</span>
              <span className="font-medium">{formatMoney(p.amountCents, p.currency, locale)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Which of the page's forms is being sent (for its button's spinner). */
function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

function PaidCard({ view, t }: { view: PortalAnswer; t: T }) {
  const busy = useBusy(PORTAL_INTENTS.paid);
  if (view.claimSaid) {
    return (
      <Card title={t("portal.paid.title")}>
        <p>{t("portal.paid.said", { sender: view.sender, what: claimSaidWords(t, view.claimSaid, view.locale) })}</p>
      </Card>
    );
  }
  if (view.totals.length === 0 || view.claimForm.invoices.length === 0) return null;
  const mine = view.intent === PORTAL_INTENTS.paid;
  return (
    <Card title={t("portal.paid.title")}>
      <p className="text-sm text-muted">{t("portal.paid.intro", { sender: view.sender })}</p>
      <PaidClaimForm
        view={view.claimForm}
        t={t}
        intent={PORTAL_INTENTS.paid}
        busy={busy}
        errors={mine ? view.errors : undefined}
        values={mine ? view.values : undefined}
        submitLabel={t("portal.paid.submit", { sender: view.sender })}
      />
    </Card>
  );
}

function PromiseCard({ view, t }: { view: PortalAnswer; t: T }) {
  const busy = useBusy(PORTAL_INTENTS.promise);
  const id = useId();
  if (view.promisedOn) {
    return (
      <Card title={t("portal.promise.title")}>
        <p>
          {t("portal.promise.made", {
            date: formatDate(view.promisedOn, view.locale),
            restart: formatDate(addDays(view.promisedOn, 1) ?? view.promisedOn, view.locale),
          })}
        </p>
      </Card>
    );
  }
  if (view.promiseBroken) {
    return (
      <Card title={t("portal.promise.title")}>
        <p>{t("portal.promise.broken", { sender: view.sender })}</p>
      </Card>
    );
  }
  const mine = view.intent === PORTAL_INTENTS.promise;
  const refused = mine ? view.errors?.promised_on : undefined;
  // The window's dates in the page's own format (the schema names only the key).
  const error = refused
    ? say(t, {
        key: refused.key,
        values: {
          ...refused.values,
          min: formatDate(view.window.min, view.locale),
          max: formatDate(view.window.max, view.locale),
        },
      })
    : undefined;
  return (
    <Card title={t("portal.promise.title")}>
      <p className="text-sm text-muted">{t("portal.promise.intro", { days: PROMISE_MAX_DAYS })}</p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={PORTAL_INTENTS.promise} />
        <div>
          <Label htmlFor={`${id}-date`}>{t("portal.promise.label")}</Label>
          <input
            id={`${id}-date`}
            name="promised_on"
            type="date"
            required
            min={view.window.min}
            max={view.window.max}
            defaultValue={mine ? view.values?.promised_on : undefined}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className={`${inputClass} mt-1 sm:max-w-xs`}
          />
          <FieldError id={`${id}-error`} errors={error ? [error] : undefined} />
        </div>
        <SubmitButton busy={busy} className="w-full sm:w-auto sm:self-start">
          {t("portal.promise.submit")}
        </SubmitButton>
      </Form>
    </Card>
  );
}

function DisputeCard({ view, open, t }: { view: PortalAnswer; open: PortalInvoiceView[]; t: T }) {
  const busy = useBusy(PORTAL_INTENTS.dispute);
  const id = useId();
  const mine = view.intent === PORTAL_INTENTS.dispute;
  const invoiceError = mine ? say(t, view.errors?.invoice) : undefined;
  const reasonError = mine ? say(t, view.errors?.reason) : undefined;
  return (
    <Card title={t("portal.dispute.title")}>
      <p className="text-sm text-muted">{t("portal.dispute.intro", { sender: view.sender })}</p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={PORTAL_INTENTS.dispute} />
        <div>
          <Label htmlFor={`${id}-invoice`}>{t("portal.dispute.invoice")}</Label>
          <select
            id={`${id}-invoice`}
            name="invoice"
            required
            defaultValue={mine ? view.values?.invoice : open.length === 1 ? open[0]?.ref : ""}
            aria-invalid={invoiceError ? true : undefined}
            aria-describedby={invoiceError ? `${id}-invoice-error` : undefined}
            className={`${inputClass} mt-1`}
          >
            {open.length > 1 && <option value="">{t("portal.dispute.choose")}</option>}
            {open.map((i) => {
              const values = {
                amount: formatMoney(i.balanceCents, i.currency, view.locale),
                date: formatDate(i.dueOn, view.locale),
              };
              const number = i.number?.trim();
              return (
                <option key={i.ref} value={i.ref}>
                  {number
                    ? t("portal.dispute.optionNumbered", { ...values, number })
                    : t("portal.dispute.optionDue", values)}
                </option>
              );
            })}
          </select>
          <FieldError id={`${id}-invoice-error`} errors={invoiceError ? [invoiceError] : undefined} />
        </div>
        <div>
          <Label htmlFor={`${id}-reason`}>{t("portal.dispute.reason")}</Label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            required
            rows={4}
            maxLength={DISPUTE_REASON_MAX}
            defaultValue={mine ? view.values?.reason : undefined}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${id}-reason-error` : `${id}-reason-hint`}
            className={`${inputClass} mt-1 h-auto py-2`}
          />
          <p id={`${id}-reason-hint`} className="text-xs text-muted">
            {t("portal.dispute.max", { max: DISPUTE_REASON_MAX })}
          </p>
          <FieldError id={`${id}-reason-error`} errors={reasonError ? [reasonError] : undefined} />
        </div>
        <SubmitButton busy={busy} variant="outline" className="w-full sm:w-auto sm:self-start">
          {t("portal.dispute.submit")}
        </SubmitButton>
      </Form>
    </Card>
  );
}

function OptOutCard({ view, t }: { view: PortalView; t: T }) {
  const busy = useBusy(PORTAL_INTENTS.optOut);
  return (
    <Card title={t("portal.optOut.title")}>
      {view.optedOut ? (
        <p>{t("portal.optedOut", { sender: view.sender })}</p>
      ) : (
        <>
          <p className="text-sm text-muted">{t("portal.optOut.intro", { sender: view.sender })}</p>
          <Form method="post">
            <input type="hidden" name="intent" value={PORTAL_INTENTS.optOut} />
            <SubmitButton busy={busy} variant="outline" className="w-full sm:w-auto">
              {t("portal.optOut.submit")}
            </SubmitButton>
          </Form>
        </>
      )}
    </Card>
  );
}

/** The bank-transfer labels the page writes in the debtor's language (IBAN and BIC read alike in each). */
const BANK_LABELS: Record<string, PortalKey> = {
  "Account holder": "portal.bank.holder",
  "Account number": "portal.bank.accountNumber",
  "Sort code": "portal.bank.sortCode",
  "Routing number": "portal.bank.routingNumber",
};

/** Pay by bank transfer: each detail with a button that copies it as a bank's form takes it. */
function BankTransferCard({ transfer, several, t }: { transfer: BankTransfer; several: boolean; t: T }) {
  const lines = [
    ...transfer.lines.map((l) => {
      const key = BANK_LABELS[l.label];
      return { ...l, label: key ? t(key) : l.label };
    }),
    { label: t("portal.bank.reference"), shown: transfer.reference, copy: transfer.reference },
  ];
  return (
    <Card title={several ? t("portal.bank.titleIn", { currency: transfer.currency }) : t("portal.bank.title")}>
      <dl className="flex flex-col gap-2 text-sm" data-testid="bank-transfer">
        {lines.map((l) => (
          <div key={l.label} className="flex flex-wrap items-center justify-between gap-2">
            <div className="min-w-0">
              <dt className="text-muted">{l.label}</dt>
              <dd className="break-words font-mono">{l.shown}</dd>
            </div>
            <CopyButton value={l.copy} label={l.label} t={t} />
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Copies `value`; says so for a moment (and to screen readers). */
function CopyButton({ value, label, t }: { value: string; label: string; t: T }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={buttonVariants({ variant: "outline", size: "sm" })}
      aria-label={copied ? t("portal.copiedLabel", { label }) : t("portal.copyLabel", { label })}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      <span aria-live="polite">{copied ? t("portal.copied") : t("portal.copy")}</span>
    </button>
  );
}
