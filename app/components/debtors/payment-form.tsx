import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useState } from "react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormError, FormField, InputField } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { localToday } from "~/domain/calendar-date";
import { formatDate } from "~/domain/dates";
import { formatMoney, fromCents, toCents } from "~/domain/money";
import { amountExample, formatAmountInput } from "~/domain/number-locale";
import type { paymentToJson } from "~/ledger/index.server";
import type { ActionResult } from "~/platform/action-result";
import { PAYMENT_INTENTS } from "~/schemas/intents";
import { PAYMENT_NOTE_MAX, paymentSchema } from "~/schemas/payment";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import { balanceCents, chargesOwedCents, type Invoice, isOwed } from "./invoice-view";

/** A payment as GET /api/debtors/:id/payments lists it. */
export type Payment = ReturnType<typeof paymentToJson>;

/** Today in the browser's own zone, "YYYY-MM-DD": the default date and the latest one allowed. */
const browserToday = () => localToday();

/** An owed invoice as "Apply to" lists it: its number (or due date) and what is left on it. */
function applyToLabel(i: Invoice, locale: string) {
  const name = i.number ?? `Due ${formatDate(i.due_on, locale)}`;
  const charges = chargesOwedCents(i);
  const left = `${formatMoney(balanceCents(i), i.currency)} left${charges > 0 ? ` + ${formatMoney(charges, i.currency)} late charges` : ""}`;
  return `${name} · ${left}${i.status === "disputed" ? " (disputed)" : ""}`;
}

/**
 * Add (no `payment`) or edit a payment: amount (at most `maxCents`, or what is left on the invoice
 * chosen in "Apply to"), date (not after today in the browser's zone) and an optional note; checked
 * here and again by the action with the same schema. A new payment applies to the open invoices,
 * oldest due date first, unless one is chosen. The debtor modal's Payments section uses it, and so
 * does the dashboard's "Confirm payment" (`confirm`: its own intent, a prefilled amount and note,
 * and the text of its button).
 */
export function PaymentForm({
  debtor,
  payment,
  maxCents,
  invoices,
  onResult,
  onCancel,
  confirm,
}: {
  debtor: { id: number; currency: string };
  payment?: Payment;
  maxCents: number;
  invoices?: Invoice[] | null;
  onResult: (data: ActionResult) => void;
  onCancel?: () => void;
  /** The dashboard's "Confirm payment"; `today`: the server's date for a form rendered without JavaScript. */
  confirm?: {
    intent: string;
    amountCents: number;
    note: string;
    submitLabel: string;
    formId: string;
    today?: string;
    /** The day the debtor said they paid, and the one invoice they named: the form starts with them. */
    paidOn?: string | null;
    invoiceId?: number | null;
  };
}) {
  const fetcher = useFetcher<typeof debtorAction>();
  const busy = fetcher.state !== "idle";
  const intent = confirm?.intent ?? (payment ? PAYMENT_INTENTS.edit : PAYMENT_INTENTS.add);
  const [applyTo, setApplyTo] = useState(confirm?.invoiceId ? String(confirm.invoiceId) : "");
  const reply = useFormResult(fetcher, [intent], (data) => {
    if (data.ok) setApplyTo("");
    if (data.ok || data.message) onResult(data);
  });
  const [today] = useState(() => confirm?.today ?? browserToday());
  const owedInvoices = payment ? [] : (invoices ?? []).filter(isOwed);
  const chosen = owedInvoices.find((i) => String(i.id) === applyTo);
  const locale = useLocale();
  const limits = chosen
    ? { today, maxCents: balanceCents(chosen) + chargesOwedCents(chosen), currency: chosen.currency, locale }
    : { today, maxCents, currency: debtor.currency, locale };
  const [form, fields] = useValibotForm(paymentSchema(limits), {
    id: confirm?.formId ?? (payment ? `payment-edit-${payment.id}` : `payment-add-${debtor.id}`),
    lastResult: busy ? undefined : reply?.result,
    defaultValue: payment
      ? {
          amount: formatAmountInput(fromCents(toCents(payment.amount)), locale),
          paid_on: payment.paid_on,
          note: payment.note,
        }
      : confirm
        ? {
            amount: formatAmountInput(fromCents(confirm.amountCents), locale),
            paid_on: confirm.paidOn && confirm.paidOn <= today ? confirm.paidOn : today,
            note: confirm.note,
            invoice_id: confirm.invoiceId ? String(confirm.invoiceId) : "",
          }
        : // "" selects "Oldest due first" again when the form resets after a payment.
          { paid_on: today, invoice_id: "" },
  });
  const amountLabel = payment ? "Amount paid" : "Amount";
  return (
    <fetcher.Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
      <input type="hidden" name="intent" value={intent} />
      {payment ? (
        <input type="hidden" name="id" value={payment.id} />
      ) : (
        <input type="hidden" name="debtor_id" value={debtor.id} />
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField
          meta={fields.amount}
          type="text"
          label={amountLabel}
          inputMode="decimal"
          placeholder={`For example ${amountExample(locale)}`}
          autoComplete="off"
          autoFocus={Boolean(payment)}
        />
        <FormField meta={fields.paid_on} label="Date paid">
          <Input
            {...getInputProps(fields.paid_on, { type: "date" })}
            key={fields.paid_on.key}
            className="mt-1"
            max={today}
          />
        </FormField>
      </div>
      {owedInvoices.length > 0 && (
        <FormField meta={fields.invoice_id} label="Apply to">
          <select
            {...getSelectProps(fields.invoice_id)}
            key={fields.invoice_id.key}
            onChange={(event) => setApplyTo(event.target.value)}
            className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
          >
            <option value="">Oldest due first</option>
            {owedInvoices.map((i) => (
              <option key={i.id} value={i.id}>
                {applyToLabel(i, locale)}
              </option>
            ))}
          </select>
        </FormField>
      )}
      <InputField
        meta={fields.note}
        type="text"
        label="Note (optional)"
        maxLength={PAYMENT_NOTE_MAX}
        autoComplete="off"
      />
      <FormError form={form} />
      <div className="flex justify-end gap-2">
        {onCancel && (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <SubmitButton busy={busy}>{confirm?.submitLabel ?? (payment ? "Save payment" : "Add payment")}</SubmitButton>
      </div>
    </fetcher.Form>
  );
}
