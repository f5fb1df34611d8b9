import { type ReactNode, useId, useState } from "react";
import { Form, useNavigation } from "react-router";
import { InvalidDebtorLink } from "~/components/debtor-link-page";
import { Button, SubmitButton } from "~/components/ui/button";
import { FieldError, Label } from "~/components/ui/input";
import { buttonVariants, inputClass } from "~/components/ui/variants";
import type { BankTransfer } from "~/domain/bank-transfer";
import type { MessageBrand } from "~/domain/brand";
import { formatDate } from "~/domain/dates";
import { DISPUTE_REASON_MAX, invoiceLabel } from "~/domain/dispute";
import { formatMoney } from "~/domain/money";
import { addDays, PROMISE_MAX_DAYS } from "~/domain/promise";
import { PORTAL_INTENTS } from "~/schemas/intents";
import {
  type ClaimField,
  type ClaimFormView,
  type ClaimSaid,
  type ClaimValues,
  claimSaidText,
} from "~/schemas/paid-claim";
import { PaidClaimForm } from "./paid-claim-form";

/**
 * The debtor's page (app/routes/portal.tsx): one
 * column that reads on a phone, plain forms that work without JavaScript, every control labelled.
 */

/** The confirmations the page shows after an action (its `done` query parameter). */
export const PORTAL_DONE = {
  promised: "promised",
  disputed: "disputed",
  paid: "paid",
  "opted-out": "opted-out",
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
}

export interface PortalView {
  state: "ok";
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
  payments: { paidOn: string; amountCents: number; currency: string }[];
  promisedOn: string | null;
  promiseBroken: boolean;
  /** The user's number and date format: the page writes dates in it, as their e-mails did. */
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
}

/** The page after a refused action: which form, what went wrong, what was typed. */
type PortalAnswer = PortalView & {
  intent?: string;
  errors?: { form?: string; promised_on?: string; invoice?: string; reason?: string } & Partial<
    Record<ClaimField, string>
  >;
  values?: { promised_on?: string; invoice?: string; reason?: string } & Partial<ClaimValues>;
};

type Answer = { state: "invalid" } | PortalAnswer;

/** What the page says after Checkout: only what the verified events recorded, never the redirect itself. */
function checkoutMessage(view: PortalView): string | null {
  const c = view.checkout;
  if (!c) return null;
  const amount = formatMoney(c.amountCents, c.currency);
  switch (c.status) {
    case "paid":
      return `Payment received, thank you. ${view.sender} has your payment of ${amount}; a receipt is on its way to you.`;
    case "pending":
      return `Your payment of ${amount} is being processed by your bank. Reminders are paused meanwhile; this page says so once it has arrived.`;
    case "failed":
      return `Your bank payment of ${amount} failed. Nothing was paid; you can try again below.`;
    default:
      return `Your payment of ${amount} has not been confirmed yet. If you paid, reload this page in a moment.`;
  }
}

function doneMessage(view: PortalView): string | null {
  // Told by e-mail, or shown in Dunly when the sender switched those e-mails off.
  const told = view.emailed ? `${view.sender} has been told` : `${view.sender} sees in Dunly`;
  switch (view.done) {
    case "promised":
      return view.promisedOn
        ? `Thank you. ${told} ${view.emailed ? "you" : "that you"} will pay by ${formatDate(view.promisedOn, view.locale)}. Reminders are paused until then.`
        : `Thank you. ${told} when you will pay.`;
    case "disputed":
      return `Thank you. ${told} what is wrong. Reminders leave the invoice out until they have looked at it.`;
    case "paid":
      return view.emailed
        ? `Thank you. ${view.sender} has been told and checks your payment; reminders leave out what you paid.`
        : `Thank you. ${view.sender} sees your answer in Dunly and checks your payment; reminders leave out what you paid.`;
    case "opted-out":
      return `You will not get any more reminders from ${view.sender} at this address.`;
    default:
      return null;
  }
}

export function PortalPage({ answer }: { answer: Answer }) {
  if (answer.state === "invalid") {
    return (
      <section className="mx-auto flex max-w-md flex-col items-center gap-6 px-4 py-16 text-center">
        <InvalidDebtorLink title="Your statement" />
      </section>
    );
  }
  const view = answer;
  const confirmation = checkoutMessage(view) ?? doneMessage(view);
  const open = view.invoices.filter((i) => !i.disputed);
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:py-12">
      <header className="flex flex-col gap-2">
        <h1 className="break-words text-2xl font-bold sm:text-3xl">{`Your statement from ${view.sender}`}</h1>
        <p className="text-muted">
          {`${view.sender} sent you payment reminders. This page shows what is still open and what you have paid, and lets you answer.`}
        </p>
      </header>
      {confirmation && (
        <p role="status" className="break-words rounded-md border border-success px-4 py-3">
          {confirmation}
        </p>
      )}
      {view.errors?.form && (
        <p role="alert" className="break-words rounded-md border border-danger px-4 py-3 text-danger">
          {view.errors.form}
        </p>
      )}
      <Invoices view={view} />
      <Payments payments={view.payments} locale={view.locale} />
      <section aria-labelledby="respond-heading" className="flex flex-col gap-4">
        <h2 id="respond-heading" className="text-xl font-semibold">
          Respond
        </h2>
        {view.payOnline && view.totals.length > 0 && <PayOnlineCard view={view} open={open} />}
        {!view.payOnline && view.payUrl && view.totals.length > 0 && (
          <Card title="Pay">
            <p className="text-sm text-muted">{`Pay on ${view.sender}'s payment page.`}</p>
            <a
              href={view.payUrl}
              rel="noopener noreferrer"
              className={buttonVariants({ size: "lg", className: "w-full sm:w-auto" })}
            >
              Pay now
            </a>
          </Card>
        )}
        {view.bankTransfer.map((b) => (
          <BankTransferCard key={b.currency} transfer={b} several={view.bankTransfer.length > 1} />
        ))}
        <PaidCard view={view} />
        {open.length > 0 && <PromiseCard view={view} />}
        {open.length > 0 && <DisputeCard view={view} open={open} />}
        <OptOutCard view={view} />
      </section>
    </div>
  );
}

/**
 * Pay online (decisions/018): a form per currency (everything open in it) and, with several open
 * invoices, one per invoice. The forms name no amount: the server reads it from the ledger.
 */
function PayOnlineCard({ view, open }: { view: PortalAnswer; open: PortalInvoiceView[] }) {
  // Nothing in the currency of a pending bank payment: it may yet arrive, and a second payment
  // would pay the same invoices twice (the server refuses one too).
  const pendingCurrency = view.pendingOnline?.currency;
  const payable = open.filter((i) => i.balanceCents > 0 && i.currency !== pendingCurrency);
  const totals = view.totals.filter((t) => t.currency !== pendingCurrency);
  return (
    <Card title="Pay">
      {view.pendingOnline ? (
        <p className="text-sm">{`A bank payment of ${formatMoney(view.pendingOnline.amountCents, view.pendingOnline.currency)} is being processed. Paying in ${view.pendingOnline.currency} again waits until it has arrived or failed.`}</p>
      ) : (
        <p className="text-sm text-muted">{`Pay ${view.sender} securely by card or bank through Stripe.`}</p>
      )}
      {view.intent === PORTAL_INTENTS.pay && view.errors?.invoice && (
        <p role="alert" className="text-sm text-danger">
          {view.errors.invoice}
        </p>
      )}
      {totals.map((t) => (
        <form key={t.currency} method="post">
          <input type="hidden" name="intent" value={PORTAL_INTENTS.pay} />
          <input type="hidden" name="currency" value={t.currency} />
          <Button type="submit" size="lg" className="w-full sm:w-auto">
            {`Pay ${formatMoney(t.cents, t.currency)}`}
          </Button>
        </form>
      ))}
      {payable.length > 1 && (
        <ul className="flex flex-col gap-2 text-sm" aria-label="Pay one invoice">
          {payable.map((i) => (
            <li key={i.ref}>
              <form method="post" className="flex flex-wrap items-center gap-2">
                <input type="hidden" name="intent" value={PORTAL_INTENTS.pay} />
                <input type="hidden" name="invoice" value={i.ref} />
                <Button type="submit" variant="outline" size="wrap" className="text-left">
                  {`Pay ${i.number ? `invoice ${i.number}` : `the invoice due ${formatDate(i.dueOn, view.locale)}`} only (${formatMoney(i.balanceCents, i.currency)})`}
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

function Invoices({ view }: { view: PortalView }) {
  return (
    <section aria-labelledby="invoices-heading" className="flex flex-col gap-3">
      <h2 id="invoices-heading" className="text-xl font-semibold">
        Open invoices
      </h2>
      {view.invoices.length === 0 ? (
        <p>Nothing is open. Thank you.</p>
      ) : (
        <>
          <ul className="flex flex-col gap-2" data-testid="portal-invoices">
            {view.invoices.map((i) => (
              <li key={i.ref} className="rounded-lg border border-border bg-surface p-3 text-sm">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="break-words font-semibold">
                    {i.number ? `Invoice ${i.number}` : "Invoice"}
                    {i.disputed && (
                      <span className="ml-2 rounded bg-surface-2 px-2 py-0.5 text-xs font-medium">Disputed</span>
                    )}
                    {i.claimed && (
                      <span className="ml-2 rounded bg-surface-2 px-2 py-0.5 text-xs font-medium">
                        Paid, being checked
                      </span>
                    )}
                  </p>
                  <p className="font-semibold">{formatMoney(i.balanceCents, i.currency)}</p>
                </div>
                <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-muted">
                  <dt>Issued</dt>
                  <dd>{formatDate(i.issuedOn, view.locale)}</dd>
                  <dt>Due</dt>
                  <dd>{formatDate(i.dueOn, view.locale)}</dd>
                  {i.balanceCents !== i.amountCents && (
                    <>
                      <dt>Amount</dt>
                      <dd>{`${formatMoney(i.amountCents, i.currency)}, of which ${formatMoney(i.balanceCents, i.currency)} is still open`}</dd>
                    </>
                  )}
                </dl>
                {i.documentUrl && (
                  <a
                    href={i.documentUrl}
                    className="mt-2 inline-block font-medium text-primary underline-offset-4 hover:underline"
                  >
                    {`Download ${i.number ? `invoice ${i.number}` : "the invoice"} (PDF)`}
                  </a>
                )}
              </li>
            ))}
          </ul>
          {view.totals.length > 0 && (
            <p className="text-base" data-testid="portal-total">
              {"Total still owed: "}
              <strong>{view.totals.map((t) => formatMoney(t.cents, t.currency)).join(" + ")}</strong>
            </p>
          )}
          <p>
            <a href={view.statementUrl} className="font-medium text-primary underline-offset-4 hover:underline">
              Download this statement (PDF)
            </a>
            <span className="text-sm text-muted"> for your accounts department</span>
          </p>
          {view.invoices.some((i) => i.disputed) && (
            <p className="text-sm text-muted">
              A disputed invoice is not in the total while {view.sender} looks at it.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function Payments({ payments, locale }: { payments: PortalView["payments"]; locale: string }) {
  return (
    <section aria-labelledby="payments-heading" className="flex flex-col gap-3">
      <h2 id="payments-heading" className="text-xl font-semibold">
        Payments received
      </h2>
      {payments.length === 0 ? (
        <p className="text-muted">No payments have been recorded yet.</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" data-testid="portal-payments">
          {payments.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once; two payments may be alike.
            <li key={i} className="flex justify-between gap-3 border-b border-border py-1">
              <span>{formatDate(p.paidOn, locale)}</span>
              <span className="font-medium">{formatMoney(p.amountCents, p.currency)}</span>
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

function PaidCard({ view }: { view: PortalAnswer }) {
  const busy = useBusy(PORTAL_INTENTS.paid);
  if (view.claimSaid) {
    return (
      <Card title="I've paid">
        <p>{`You told ${view.sender} you paid ${claimSaidText(view.claimSaid, view.locale)}. Reminders leave it out until they have checked the payment.`}</p>
      </Card>
    );
  }
  if (view.totals.length === 0 || view.claimForm.invoices.length === 0) return null;
  const mine = view.intent === PORTAL_INTENTS.paid;
  return (
    <Card title="I've paid">
      <p className="text-sm text-muted">{`Already paid? Tell ${view.sender} what you paid, and reminders leave it out until they have checked the payment.`}</p>
      <PaidClaimForm
        view={view.claimForm}
        intent={PORTAL_INTENTS.paid}
        busy={busy}
        errors={mine ? view.errors : undefined}
        values={mine ? view.values : undefined}
        submitLabel={`Tell ${view.sender} I've paid`}
      />
    </Card>
  );
}

function PromiseCard({ view }: { view: PortalAnswer }) {
  const busy = useBusy(PORTAL_INTENTS.promise);
  const id = useId();
  if (view.promisedOn) {
    return (
      <Card title="Promise to pay">
        <p>
          {`You promised to pay by ${formatDate(view.promisedOn, view.locale)}. Reminders are paused until then and start again on ${formatDate(addDays(view.promisedOn, 1) ?? view.promisedOn, view.locale)} if something is still open.`}
        </p>
      </Card>
    );
  }
  if (view.promiseBroken) {
    return (
      <Card title="Promise to pay">
        <p>{`The date you promised has passed. Please contact ${view.sender} directly to agree on a new date.`}</p>
      </Card>
    );
  }
  const mine = view.intent === PORTAL_INTENTS.promise;
  const error = mine ? view.errors?.promised_on : undefined;
  return (
    <Card title="Promise to pay">
      <p className="text-sm text-muted">
        {`Choose the date you will pay by, at most ${PROMISE_MAX_DAYS} days from today. Reminders pause until then and start again the day after if something is still open.`}
      </p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={PORTAL_INTENTS.promise} />
        <div>
          <Label htmlFor={`${id}-date`}>I will pay by</Label>
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
          Promise to pay
        </SubmitButton>
      </Form>
    </Card>
  );
}

function DisputeCard({ view, open }: { view: PortalAnswer; open: PortalInvoiceView[] }) {
  const busy = useBusy(PORTAL_INTENTS.dispute);
  const id = useId();
  const mine = view.intent === PORTAL_INTENTS.dispute;
  const invoiceError = mine ? view.errors?.invoice : undefined;
  const reasonError = mine ? view.errors?.reason : undefined;
  return (
    <Card title="Dispute an invoice">
      <p className="text-sm text-muted">
        {`Something wrong with an invoice? Tell ${view.sender} what. Reminders leave it out until they have looked at it.`}
      </p>
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value={PORTAL_INTENTS.dispute} />
        <div>
          <Label htmlFor={`${id}-invoice`}>Invoice</Label>
          <select
            id={`${id}-invoice`}
            name="invoice"
            required
            defaultValue={mine ? view.values?.invoice : open.length === 1 ? open[0]?.ref : ""}
            aria-invalid={invoiceError ? true : undefined}
            aria-describedby={invoiceError ? `${id}-invoice-error` : undefined}
            className={`${inputClass} mt-1`}
          >
            {open.length > 1 && <option value="">Choose an invoice</option>}
            {open.map((i) => (
              <option key={i.ref} value={i.ref}>
                {`${invoiceLabel(i)} · ${formatMoney(i.balanceCents, i.currency)} · due ${formatDate(i.dueOn, view.locale)}`}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-invoice-error`} errors={invoiceError ? [invoiceError] : undefined} />
        </div>
        <div>
          <Label htmlFor={`${id}-reason`}>What is wrong with it?</Label>
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
          <p id={`${id}-reason-hint`} className="text-xs text-muted">{`At most ${DISPUTE_REASON_MAX} characters.`}</p>
          <FieldError id={`${id}-reason-error`} errors={reasonError ? [reasonError] : undefined} />
        </div>
        <SubmitButton busy={busy} variant="outline" className="w-full sm:w-auto sm:self-start">
          Dispute invoice
        </SubmitButton>
      </Form>
    </Card>
  );
}

function OptOutCard({ view }: { view: PortalView }) {
  const busy = useBusy(PORTAL_INTENTS.optOut);
  return (
    <Card title="Stop reminders">
      {view.optedOut ? (
        <p>{`You will not get any more reminders from ${view.sender} at this address.`}</p>
      ) : (
        <>
          <p className="text-sm text-muted">{`Stop payment reminders from ${view.sender} to this address.`}</p>
          <Form method="post">
            <input type="hidden" name="intent" value={PORTAL_INTENTS.optOut} />
            <SubmitButton busy={busy} variant="outline" className="w-full sm:w-auto">
              Stop reminders
            </SubmitButton>
          </Form>
        </>
      )}
    </Card>
  );
}

/** Pay by bank transfer: each detail with a button that copies it as a bank's form takes it. */
function BankTransferCard({ transfer, several }: { transfer: BankTransfer; several: boolean }) {
  const lines = [...transfer.lines, { label: "Reference", shown: transfer.reference, copy: transfer.reference }];
  return (
    <Card title={several ? `Pay by bank transfer (${transfer.currency})` : "Pay by bank transfer"}>
      <dl className="flex flex-col gap-2 text-sm" data-testid="bank-transfer">
        {lines.map((l) => (
          <div key={l.label} className="flex flex-wrap items-center justify-between gap-2">
            <div className="min-w-0">
              <dt className="text-muted">{l.label}</dt>
              <dd className="break-words font-mono">{l.shown}</dd>
            </div>
            <CopyButton value={l.copy} label={l.label} />
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** Copies `value`; says so for a moment (and to screen readers). */
function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={buttonVariants({ variant: "outline", size: "sm" })}
      aria-label={copied ? `${label} copied` : `Copy ${label}`}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </button>
  );
}
