import { useId } from "react";
import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { FieldError, Label } from "~/components/ui/input";
import { inputClass } from "~/components/ui/variants";
import { formatDate } from "~/domain/dates";
import type { Translate } from "~/domain/i18n";
import type { PaidClaimKey } from "~/domain/i18n/paid-claim";
import { formatMoney } from "~/domain/money";
import { say } from "~/domain/page-copy";
import {
  CLAIM_REFERENCE_MAX,
  type ClaimField,
  type ClaimFormView,
  type ClaimMessage,
  type ClaimSaid,
  type ClaimValues,
} from "~/schemas/paid-claim";

/**
 * "I've paid", saying what: the debtor ticks the invoices they paid or enters the amount, the day
 * and their bank reference. A plain form (no JavaScript needed) on their page and behind the
 * e-mail's "I've paid" link; the server reads it (app/schemas/paid-claim.ts) and a refusal comes
 * back with field errors and everything as typed. Written in the debtor's language (`t`).
 */

/** "€600.50 on 20 November 2026 for INV-7 (reference RF18)": what the debtor said, in their language. */
export function claimSaidWords(t: Translate<PaidClaimKey>, claim: ClaimSaid, locale: string) {
  const amount =
    claim.amountCents !== null && claim.currency ? formatMoney(claim.amountCents, claim.currency, locale) : null;
  const invoices = claim.invoices.map((number) => number ?? t("claim.said.anInvoice")).join(", ");
  return [
    amount ?? (claim.invoices.length > 0 ? invoices : t("claim.said.payment")),
    claim.paidOn ? t("claim.said.on", { date: formatDate(claim.paidOn, locale) }) : null,
    amount && claim.invoices.length > 0 ? t("claim.said.for", { invoices }) : null,
    claim.reference ? t("claim.said.reference", { reference: claim.reference }) : null,
  ]
    .filter(Boolean)
    .join(" ");
}

export function PaidClaimForm({
  view,
  t,
  intent,
  busy,
  errors: refusals,
  values,
  submitLabel,
}: {
  view: ClaimFormView;
  t: Translate<PaidClaimKey>;
  intent?: string;
  busy: boolean;
  errors?: Partial<Record<ClaimField, ClaimMessage>>;
  values?: Partial<ClaimValues>;
  submitLabel: string;
}) {
  const id = useId();
  const ticked = new Set(values?.invoices ?? []);
  const errors = refusals
    ? Object.fromEntries(Object.entries(refusals).map(([field, message]) => [field, say(t, message)]))
    : undefined;
  const describedBy = (field: ClaimField, hint?: string) =>
    [hint, errors?.[field] ? `${id}-${field}-error` : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <Form method="post" className="flex flex-col gap-4">
      {intent && <input type="hidden" name="intent" value={intent} />}
      {view.invoices.length > 0 && (
        <fieldset
          className="flex flex-col gap-2"
          aria-invalid={errors?.invoices ? true : undefined}
          aria-describedby={describedBy("invoices")}
        >
          <legend className="mb-1 text-sm font-medium">{t("claim.which")}</legend>
          {view.invoices.map((invoice) => (
            <label
              key={invoice.ref}
              className="flex min-h-11 items-center gap-3 rounded-md border border-border px-3 py-2"
            >
              <input
                type="checkbox"
                name="invoices"
                value={invoice.ref}
                defaultChecked={ticked.has(invoice.ref)}
                className="size-4 shrink-0"
              />
              <span className="min-w-0 flex-1 break-words">
                {invoice.number ?? t("claim.invoice")}
                <span className="text-muted">{` · ${t("claim.due", { date: formatDate(invoice.dueOn, view.locale) })}`}</span>
              </span>
              <span className="shrink-0 tabular-nums">
                {formatMoney(invoice.balanceCents, invoice.currency, view.locale)}
              </span>
            </label>
          ))}
          <FieldError id={`${id}-invoices-error`} errors={errors?.invoices ? [errors.invoices] : undefined} />
        </fieldset>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor={`${id}-amount`}>{t("claim.amount")}</Label>
          <input
            id={`${id}-amount`}
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder={view.amountExample}
            defaultValue={values?.amount}
            aria-invalid={errors?.amount ? true : undefined}
            aria-describedby={describedBy("amount", `${id}-amount-hint`)}
            className={`${inputClass} mt-1`}
          />
          <p id={`${id}-amount-hint`} className="mt-1 text-xs text-muted">
            {t("claim.amountHint")}
          </p>
          <FieldError id={`${id}-amount-error`} errors={errors?.amount ? [errors.amount] : undefined} />
        </div>
        {view.currencies.length > 1 && (
          <div>
            <Label htmlFor={`${id}-currency`}>{t("claim.currency")}</Label>
            <select
              id={`${id}-currency`}
              name="currency"
              defaultValue={values?.currency ?? view.currencies[0]}
              aria-invalid={errors?.currency ? true : undefined}
              aria-describedby={describedBy("currency")}
              className={`${inputClass} mt-1`}
            >
              {view.currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-currency-error`} errors={errors?.currency ? [errors.currency] : undefined} />
          </div>
        )}
        <div>
          <Label htmlFor={`${id}-paid-on`}>{t("claim.date")}</Label>
          <input
            id={`${id}-paid-on`}
            name="paid_on"
            type="date"
            required
            max={view.today}
            defaultValue={values?.paid_on ?? view.today}
            aria-invalid={errors?.paid_on ? true : undefined}
            aria-describedby={describedBy("paid_on")}
            className={`${inputClass} mt-1`}
          />
          <FieldError id={`${id}-paid_on-error`} errors={errors?.paid_on ? [errors.paid_on] : undefined} />
        </div>
        <div>
          <Label htmlFor={`${id}-reference`}>{t("claim.reference")}</Label>
          <input
            id={`${id}-reference`}
            name="reference"
            type="text"
            maxLength={CLAIM_REFERENCE_MAX}
            autoComplete="off"
            defaultValue={values?.reference}
            aria-invalid={errors?.reference ? true : undefined}
            aria-describedby={describedBy("reference", `${id}-reference-hint`)}
            className={`${inputClass} mt-1`}
          />
          <p id={`${id}-reference-hint`} className="mt-1 text-xs text-muted">
            {t("claim.referenceHint")}
          </p>
          <FieldError id={`${id}-reference-error`} errors={errors?.reference ? [errors.reference] : undefined} />
        </div>
      </div>
      {/* It may name the sender ("Tell … I've paid"), in a language with long words: it wraps on a phone. */}
      <SubmitButton busy={busy} variant="outline" size="wrap" className="w-full sm:w-auto sm:self-start">
        {submitLabel}
      </SubmitButton>
    </Form>
  );
}
