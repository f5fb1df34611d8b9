import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormError, FormField, InputField } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { localToday } from "~/domain/calendar-date";
import { formatMoney, fromCents, toCents } from "~/domain/money";
import { formatCalendarDate } from "~/domain/time-zone";
import { INVOICE_INTENTS } from "~/entities/intents";
import type { ActionResult } from "~/lib/action-result";
import { useFocusAfterRender } from "~/lib/use-focus-after-render";
import { useFormResult } from "~/lib/use-form-result";
import { useValibotForm } from "~/lib/use-valibot-form";
import type { invoiceToJson } from "~/models/invoice.server";
import type { debtorAction } from "~/routes/debtor-action.server";
import { CURRENCIES, INVOICE_NUMBER_MAX, InvoiceSchema } from "~/schemas/invoice";

/** An invoice as GET /api/debtors/:id/invoices lists it (and the debtor page's loader gives it). */
export type Invoice = ReturnType<typeof invoiceToJson>;

/** The invoices of a debtor as loaded: the list, a failure, or null while loading. */
export type InvoicesState = { invoices: Invoice[] } | { error: true } | null;

/** The debtor the section is about. */
interface InvoiceDebtor {
  id: number;
  fullName: string;
  currency: string;
}

/** Still owed: open, or disputed (owed until the user resolves the dispute). */
export const isOwed = (i: Invoice) => i.status === "open" || i.status === "disputed";

/** What is left to pay on an invoice, in cents. */
export const balanceCents = (i: Invoice) => (i.status === "void" ? 0 : toCents(i.amount) - toCents(i.paid));

/** How an invoice is named where a sentence needs it: its number, or its due date. */
export function invoiceName(i: Invoice) {
  return i.number ? `invoice ${i.number}` : `the invoice due ${formatCalendarDate(i.due_on)}`;
}

/**
 * The debtor's invoices from the JSON API (owner-scoped: GET /api/debtors/:id/invoices), for the
 * debtor's modal; loaded again whenever `refresh` changes or `reload` is called.
 */
export function useInvoices(debtorId: number, refresh: string) {
  const [version, setVersion] = useState(0);
  const [loaded, setLoaded] = useState<{ debtorId: number; state: NonNullable<InvoicesState> } | null>(null);
  useEffect(() => {
    // Read by the effect: a new value loads the list again.
    void refresh;
    void version;
    const controller = new AbortController();
    fetch(`/api/debtors/${debtorId}/invoices`, { headers: { Accept: "application/json" }, signal: controller.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        setLoaded({ debtorId, state: { invoices: (await res.json()) as Invoice[] } });
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ debtorId, state: { error: true } });
      });
    return () => controller.abort();
  }, [debtorId, refresh, version]);
  const state: InvoicesState = loaded?.debtorId === debtorId ? loaded.state : null;
  return { state, reload: () => setVersion((n) => n + 1) };
}

const STATUS = {
  open: { label: "Open", tone: "warn" },
  paid: { label: "Paid", tone: "good" },
  void: { label: "Void", tone: "neutral" },
  disputed: { label: "Disputed", tone: "bad" },
} as const;

/** The invoice's status as a badge; a disputed one with the debtor's reason under it. */
function InvoiceStatus({ invoice }: { invoice: Invoice }) {
  const s = STATUS[invoice.status];
  return (
    <span className="flex flex-col items-start gap-1">
      <Badge tone={s.tone}>{s.label}</Badge>
      {invoice.status === "disputed" && invoice.dispute_reason && (
        <span className="break-words text-xs text-muted">{`Reason: ${invoice.dispute_reason}`}</span>
      )}
    </span>
  );
}

/**
 * The Invoices section of a debtor (docs/architecture.md §10, Invoices), in the debtor's Configure
 * modal and on their page: every invoice (number, dates, amount, paid, balance, status) with Edit
 * and Void (after a confirmation), and the form that adds one. Every write posts to the page's
 * debtor action (app/routes/invoice-action.server.ts). The table's rows become cards wherever the
 * section is narrow (app.css, .invoice-table).
 */
export function DebtorInvoices({
  debtor,
  state,
  onResult,
  onWritten,
  onRetry,
  addCollapsed = false,
  heading: Heading = "h3",
}: {
  debtor: InvoiceDebtor;
  state: InvoicesState;
  /** Every answer (its toast). */
  onResult: (data: ActionResult) => void;
  /** After a write that worked: the list is loaded again (the page's loader does it by itself). */
  onWritten?: () => void;
  onRetry?: () => void;
  /** The add form opens from a button (the modal, which opens on its first field) instead of showing. */
  addCollapsed?: boolean;
  heading?: "h2" | "h3";
}) {
  const headingId = useId();
  const [editing, setEditing] = useState<number | null>(null);
  const [voiding, setVoiding] = useState<number | null>(null);
  const [adding, setAdding] = useState(!addCollapsed);
  const focusAfterRender = useFocusAfterRender();
  const idBase = useId();
  const actionId = (what: "edit" | "void", id: number) => `${idBase}-${what}-${id}`;
  const addButtonId = `${idBase}-add`;

  const written = (data: ActionResult) => {
    onResult(data);
    if (!data.ok) return;
    onWritten?.();
    if (editing !== null) focusAfterRender(actionId("edit", editing));
    setEditing(null);
    setVoiding(null);
  };
  const closeRow = (what: "edit" | "void", id: number) => {
    setEditing(null);
    setVoiding(null);
    focusAfterRender(actionId(what, id));
  };

  const invoices = state && "invoices" in state ? state.invoices : null;
  const open = invoices?.filter(isOwed).length ?? 0;

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4" data-testid="debtor-invoices">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Heading id={headingId} className={Heading === "h2" ? "text-xl font-semibold" : "text-lg font-semibold"}>
          Invoices
        </Heading>
        {invoices && invoices.length > 0 && (
          <p className="text-sm text-muted" data-testid="open-invoices">
            {`${open} open, ${invoices.length} in all`}
          </p>
        )}
      </div>

      {!state ? (
        <p className="text-sm text-muted" role="status">
          Loading invoices…
        </p>
      ) : "error" in state ? (
        <p className="text-sm text-danger" role="alert">
          The invoices could not be loaded.{" "}
          {onRetry && (
            <Button variant="link" size="sm" onClick={onRetry}>
              Try again
            </Button>
          )}
        </p>
      ) : state.invoices.length === 0 ? (
        <p className="text-sm text-muted">No invoices yet.</p>
      ) : (
        <div className="invoice-table-box">
          <table className="list-table invoice-table" aria-labelledby={headingId}>
            <thead>
              <tr>
                <th scope="col" className="pr-3">
                  Invoice
                </th>
                <th scope="col" className="pr-3">
                  Issued
                </th>
                <th scope="col" className="pr-3">
                  Due
                </th>
                <th scope="col" className="pr-3">
                  Amount
                </th>
                <th scope="col" className="pr-3">
                  Paid
                </th>
                <th scope="col" className="pr-3">
                  Balance
                </th>
                <th scope="col" className="pr-3">
                  Status
                </th>
                <th scope="col" className="list-action">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {state.invoices.map((i) => {
                const money = (amount: number) => formatMoney(toCents(amount), i.currency);
                if (editing === i.id || voiding === i.id) {
                  return (
                    <tr key={i.id}>
                      <td colSpan={8}>
                        {editing === i.id ? (
                          <InvoiceForm
                            debtor={debtor}
                            invoice={i}
                            onResult={written}
                            onCancel={() => closeRow("edit", i.id)}
                          />
                        ) : (
                          <VoidConfirm invoice={i} onResult={written} onCancel={() => closeRow("void", i.id)} />
                        )}
                      </td>
                    </tr>
                  );
                }
                return (
                  <tr key={i.id} data-testid="invoice-row">
                    <td className="pr-3 font-medium [overflow-wrap:anywhere]">
                      {i.number ?? (
                        <>
                          <span aria-hidden>—</span>
                          <span className="sr-only">No number</span>
                        </>
                      )}
                    </td>
                    <td data-label="Issued" className="pr-3">
                      {formatCalendarDate(i.issued_on)}
                    </td>
                    <td data-label="Due" className="pr-3">
                      {formatCalendarDate(i.due_on)}
                    </td>
                    <td data-label="Amount" className="pr-3">
                      {money(i.amount)}
                    </td>
                    <td data-label="Paid" className="pr-3">
                      {money(i.paid)}
                    </td>
                    <td data-label="Balance" className="pr-3">
                      {formatMoney(balanceCents(i), i.currency)}
                    </td>
                    <td data-label="Status" className="pr-3">
                      <InvoiceStatus invoice={i} />
                    </td>
                    <td className="list-action">
                      {i.status !== "void" && (
                        <div className="flex flex-wrap gap-2 @min-[40rem]:flex-nowrap @min-[40rem]:justify-end">
                          <Button
                            id={actionId("edit", i.id)}
                            variant="outline"
                            size="sm"
                            aria-label={`Edit ${invoiceName(i)}`}
                            onClick={() => {
                              setVoiding(null);
                              setEditing(i.id);
                            }}
                          >
                            Edit
                          </Button>
                          <Button
                            id={actionId("void", i.id)}
                            variant="outline"
                            size="sm"
                            aria-label={`Void ${invoiceName(i)}`}
                            onClick={() => {
                              setEditing(null);
                              setVoiding(i.id);
                            }}
                          >
                            Void
                          </Button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {adding ? (
        <div className="flex flex-col gap-2">
          <h4 className="font-semibold">Add an invoice</h4>
          <InvoiceForm
            debtor={debtor}
            onResult={(data) => {
              written(data);
              if (data.ok && addCollapsed) {
                setAdding(false);
                focusAfterRender(addButtonId);
              }
            }}
            onCancel={
              addCollapsed
                ? () => {
                    setAdding(false);
                    focusAfterRender(addButtonId);
                  }
                : undefined
            }
          />
        </div>
      ) : (
        <div>
          <Button id={addButtonId} variant="outline" onClick={() => setAdding(true)}>
            Add invoice
          </Button>
        </div>
      )}
    </section>
  );
}

/**
 * Add (no `invoice`) or edit an invoice: number (optional), amount, currency (the debtor's by
 * default), issue date (today by default) and due date (blank: the issue date). Checked here and
 * again by the action with the same schema; the server adds what only it knows (an amount below
 * what was paid, a number already used), on the same fields.
 */
function InvoiceForm({
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
  const [form, fields] = useValibotForm(InvoiceSchema, {
    id: invoice ? `invoice-edit-${invoice.id}` : `invoice-add-${debtor.id}`,
    lastResult: busy ? undefined : reply?.result,
    defaultValue: invoice
      ? {
          number: invoice.number ?? "",
          amount: String(fromCents(toCents(invoice.amount))),
          currency: invoice.currency,
          issued_on: invoice.issued_on,
          due_on: invoice.due_on,
        }
      : { currency: debtor.currency, issued_on: today },
  });
  const dueHelpId = `${form.id}-due-help`;
  const current = invoice?.currency ?? debtor.currency;
  // A currency outside the list (written before it existed) stays choosable.
  const currencies: string[] = (CURRENCIES as readonly string[]).includes(current)
    ? [...CURRENCIES]
    : [current, ...CURRENCIES];
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
          type="number"
          label="Amount"
          inputMode="decimal"
          step="0.01"
          min="0.01"
          autoComplete="off"
        />
        <FormField meta={fields.currency} label="Currency">
          <select
            {...getSelectProps(fields.currency)}
            key={fields.currency.key}
            className="mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm"
          >
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </FormField>
        <FormField meta={fields.issued_on} label="Issue date">
          <Input {...getInputProps(fields.issued_on, { type: "date" })} key={fields.issued_on.key} className="mt-1" />
        </FormField>
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
function VoidConfirm({
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
