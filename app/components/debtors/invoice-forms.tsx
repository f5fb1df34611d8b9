import { getFormProps, getInputProps } from "@conform-to/react";
import { useState } from "react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { CurrencySelect } from "~/components/currency-select";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormError, FormField, InputField } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { localToday } from "~/domain/calendar-date";
import { formatMoney, fromCents, toCents } from "~/domain/money";
import { amountExample, formatAmountInput } from "~/domain/number-locale";
import type { ActionResult } from "~/platform/action-result";
import { INVOICE_INTENTS } from "~/schemas/intents";
import { INVOICE_NUMBER_MAX, invoiceSchema } from "~/schemas/invoice";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import { type Invoice, type InvoiceDebtor, invoiceName } from "./invoice-view";

/**
 * The Invoices section's forms (app/components/debtors/debtor-invoices.tsx), loaded when one is
 * opened. Each posts to the page's debtor action (app/actions/invoice-action.server.ts).
 */

/**
 * Add (no `invoice`) or edit an invoice: number (optional), amount, currency (the debtor's by
 * default), issue date (today by default) and due date (blank: the issue date). Checked here and
 * again by the action with the same schema; the server adds what only it knows (an amount below
 * what was paid, a number already used), on the same fields.
 */
export function InvoiceForm({
  debtor,
  invoice,
  onResult,
  onCancel,
}: {
  debtor: InvoiceDebtor;
  invoice?: Invoice;
  onResult: (data: ActionResult) => void;
  onCancel?: () => void;
}) {
  const fetcher = useFetcher<typeof debtorAction>();
  const busy = fetcher.state !== "idle";
  const intent = invoice ? INVOICE_INTENTS.edit : INVOICE_INTENTS.add;
  const reply = useFormResult(fetcher, [intent], (data) => {
    if (data.ok || data.message) onResult(data);
  });
  const [today] = useState(localToday);
  const locale = useLocale();
  const [form, fields] = useValibotForm(invoiceSchema(locale), {
    id: invoice ? `invoice-edit-${invoice.id}` : `invoice-add-${debtor.id}`,
    lastResult: busy ? undefined : reply?.result,
    defaultValue: invoice
      ? {
          number: invoice.number ?? "",
          amount: formatAmountInput(fromCents(toCents(invoice.amount)), locale),
          currency: invoice.currency,
          issued_on: invoice.issued_on,
          due_on: invoice.due_on,
        }
      : { currency: debtor.currency, issued_on: today },
  });
  const dueHelpId = `${form.id}-due-help`;
  const what = invoice ? invoiceName(invoice) : "a new invoice";

  return (
    <fetcher.Form method="post" {...getFormProps(form)} aria-label={invoice ? `Edit ${what}` : "Add an invoice"}>
      <input type="hidden" name="intent" value={intent} />
      {invoice ? (
        <input type="hidden" name="id" value={invoice.id} />
      ) : (
        <input type="hidden" name="debtor_id" value={debtor.id} />
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField
          meta={fields.number}
          type="text"
          label="Invoice number (optional)"
          placeholder="e.g. INV-2026-002"
          autoComplete="off"
          maxLength={INVOICE_NUMBER_MAX}
          autoFocus={Boolean(invoice || onCancel)}
        />
        <InputField
          meta={fields.amount}
          type="text"
          label="Amount"
          inputMode="decimal"
          placeholder={`For example ${amountExample(locale)}`}
          autoComplete="off"
        />
        <CurrencySelect meta={fields.currency} label="Currency" current={invoice?.currency ?? debtor.currency} />
        <InputField meta={fields.issued_on} type="date" label="Issue date" />
        <FormField meta={fields.due_on} label="Due date (optional)">
          <Input
            {...getInputProps(fields.due_on, { type: "date", ariaDescribedBy: dueHelpId })}
            key={fields.due_on.key}
            className="mt-1"
          />
          <p id={dueHelpId} className="mt-1 text-xs text-muted">
            {invoice ? "Blank: unchanged." : "Blank: due on the issue date."}
          </p>
        </FormField>
      </div>
      <FormError form={form} />
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <SubmitButton busy={busy}>{invoice ? "Save invoice" : "Add invoice"}</SubmitButton>
      </div>
    </fetcher.Form>
  );
}

/** "Void …?": the invoice is owed no more. Refused, with the reason shown here, while payments are on it. */
export function VoidConfirm({
  invoice,
  onResult,
  onCancel,
}: {
  invoice: Invoice;
  onResult: (data: ActionResult) => void;
  onCancel: () => void;
}) {
  const fetcher = useFetcher<typeof debtorAction>();
  const reply = useFormResult(fetcher, [INVOICE_INTENTS.void], onResult);
  const refused = reply && !reply.ok && fetcher.state === "idle" ? reply.message : null;
  const amount = formatMoney(toCents(invoice.amount), invoice.currency);
  return (
    <fetcher.Form method="post" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value={INVOICE_INTENTS.void} />
      <input type="hidden" name="id" value={invoice.id} />
      <p role="alert" className="text-sm">
        {`Void ${invoiceName(invoice)} of ${amount}? It will no longer be owed, and reminders will not mention it.`}
      </p>
      {refused && (
        <p className="text-sm text-danger" role="alert" data-testid="void-refused">
          {refused}
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={onCancel} autoFocus>
          Cancel
        </Button>
        <SubmitButton variant="danger" busy={fetcher.state !== "idle"}>
          Void invoice
        </SubmitButton>
      </div>
    </fetcher.Form>
  );
}
