import { Fragment, Suspense, useId, useState } from "react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { InvoiceCharges } from "~/components/debtors/debtor-charges";
import { notOnServer, onDemand } from "~/components/on-demand";
import { Badge } from "~/components/ui/badge";
import { Button, SubmitButton } from "~/components/ui/button";
import { BOOKS_LABEL, type BooksProvider } from "~/domain/books";
import { formatDate } from "~/domain/dates";
import { formatMoney, toCents } from "~/domain/money";
import { overdueLabel } from "~/domain/statement";
import { MAX_PDF_BYTES, PDF_TOO_LARGE } from "~/domain/upload-limits";
import type { ChargeView } from "~/ledger/index.server";
import type { ActionResult } from "~/platform/action-result";
import { INVOICE_DOCUMENT_INTENTS, INVOICE_INTENTS } from "~/schemas/intents";
import { useLocale, useToday } from "~/ui/root-data";
import { useFocusAfterRender } from "~/ui/use-focus-after-render";
import { useFormResult } from "~/ui/use-form-result";
import {
  balanceCents,
  type Invoice,
  type InvoiceDebtor,
  type InvoicesState,
  invoiceName,
  isOwed,
} from "./invoice-view";

// The forms (conform and the invoice's schema) are a chunk of their own, fetched when one is
// opened (hover or focus of its button starts it): the page shows itself without them
//.
const invoiceForm = onDemand(() =>
  import.meta.env.SSR ? notOnServer() : import("./invoice-forms").then((m) => m.InvoiceForm),
);
const voidConfirm = onDemand(() =>
  import.meta.env.SSR ? notOnServer() : import("./invoice-forms").then((m) => m.VoidConfirm),
);
const preloadForms = () => {
  invoiceForm.preload();
  voidConfirm.preload();
};

/** While a form's chunk arrives. */
const LOADING = (
  <p className="text-sm text-muted" role="status">
    Loading…
  </p>
);

const STATUS = {
  open: { label: "Open", tone: "warn" },
  paid: { label: "Paid", tone: "good" },
  void: { label: "Void", tone: "neutral" },
  disputed: { label: "Disputed", tone: "bad" },
} as const;

/** "From Xero": where a synced invoice is kept (and changed), with a link to it there when known. */
function SourceBadge({ invoice }: { invoice: Invoice }) {
  const name = BOOKS_LABEL[invoice.source as BooksProvider] ?? invoice.source;
  if (!invoice.source_url) return <Badge tone="neutral">{`From ${name}`}</Badge>;
  return (
    <a
      href={invoice.source_url}
      target="_blank"
      rel="noopener noreferrer"
      className="text-xs underline underline-offset-2"
      aria-label={`Open ${invoiceName(invoice)} in ${name} (opens in a new tab)`}
    >
      {`From ${name}`}
    </a>
  );
}

/** The invoice's status as a badge; a disputed one with the debtor's reason under it. */
function InvoiceStatus({ invoice }: { invoice: Invoice }) {
  const s = STATUS[invoice.status];
  const today = useToday();
  const overdue = invoice.status === "open" ? overdueLabel(invoice.due_on, today) : null;
  return (
    <span className="flex flex-col items-start gap-1">
      {overdue ? (
        <span className="whitespace-nowrap">
          <Badge tone="bad">{overdue}</Badge>
        </span>
      ) : (
        <Badge tone={s.tone}>{s.label}</Badge>
      )}
      {!invoice.chased && isOwed(invoice) && <Badge tone="neutral">Not chased</Badge>}
      {invoice.source !== "dunly" && <SourceBadge invoice={invoice} />}
      {invoice.status === "disputed" && invoice.dispute_reason && (
        <span className="break-words text-xs text-muted">{`Reason: ${invoice.dispute_reason}`}</span>
      )}
    </span>
  );
}

/**
 * The Invoices section of a debtor, in the debtor's Configure
 * modal and on their page: every invoice (number, dates, amount, paid, balance, status) with Edit
 * and Void (after a confirmation), and "Add invoice". The forms need JavaScript, like the modal's. Every write posts to the page's
 * debtor action (app/actions/invoice-action.server.ts). The table's rows become cards wherever the
 * section is narrow (app.css, .invoice-table).
 */
export function DebtorInvoices({
  debtor,
  state,
  onResult,
  onWritten,
  onRetry,
  heading: Heading = "h3",
  charges,
  timeZone = "UTC",
}: {
  debtor: InvoiceDebtor;
  state: InvoicesState;
  /** Every answer (its toast). */
  onResult: (data: ActionResult) => void;
  /** After a write that worked: the list is loaded again (the page's loader does it by itself). */
  onWritten?: () => void;
  onRetry?: () => void;
  heading?: "h2" | "h3";
  /** The debtor's late-payment charges (decisions/065), shown under their invoices (the debtor's page). */
  charges?: readonly ChargeView[];
  /** The user's zone: when a charge was waived. */
  timeZone?: string;
}) {
  const locale = useLocale();
  const headingId = useId();
  const [editing, setEditing] = useState<number | null>(null);
  const [voiding, setVoiding] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const Subheading = Heading === "h2" ? "h3" : "h4";
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
                        <Suspense fallback={LOADING}>
                          {editing === i.id ? (
                            <invoiceForm.Lazy
                              debtor={debtor}
                              invoice={i}
                              onResult={written}
                              onCancel={() => closeRow("edit", i.id)}
                            />
                          ) : (
                            <voidConfirm.Lazy invoice={i} onResult={written} onCancel={() => closeRow("void", i.id)} />
                          )}
                        </Suspense>
                      </td>
                    </tr>
                  );
                }
                const invoiceCharges = charges?.filter((c) => c.invoiceId === i.id) ?? [];
                return (
                  <Fragment key={i.id}>
                    <tr data-testid="invoice-row">
                      <td className="pr-3 font-medium [overflow-wrap:anywhere]">
                        {i.number ?? (
                          <>
                            <span aria-hidden>—</span>
                            <span className="sr-only">No number</span>
                          </>
                        )}
                        {i.status !== "void" && <InvoiceDocumentControl invoice={i} onResult={written} />}
                      </td>
                      <td data-label="Issued" className="pr-3">
                        {formatDate(i.issued_on, locale)}
                      </td>
                      <td data-label="Due" className="pr-3">
                        {formatDate(i.due_on, locale)}
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
                          <div className="flex flex-wrap gap-2 @min-[40rem]:justify-end @min-[56rem]:flex-nowrap">
                            {/* A synced invoice is changed in its accounting tool (decisions/060): no Edit, no Void here. */}
                            {i.source === "dunly" && (
                              <Button
                                id={actionId("edit", i.id)}
                                variant="outline"
                                size="sm"
                                aria-label={`Edit ${invoiceName(i)}`}
                                onPointerEnter={preloadForms}
                                onFocus={preloadForms}
                                onClick={() => {
                                  setVoiding(null);
                                  setEditing(i.id);
                                }}
                              >
                                Edit
                              </Button>
                            )}
                            {isOwed(i) && <ChaseToggle invoice={i} onResult={written} />}
                            {i.source === "dunly" && (
                              <Button
                                id={actionId("void", i.id)}
                                variant="outline"
                                size="sm"
                                aria-label={`Void ${invoiceName(i)}`}
                                onPointerEnter={preloadForms}
                                onFocus={preloadForms}
                                onClick={() => {
                                  setEditing(null);
                                  setVoiding(i.id);
                                }}
                              >
                                Void
                              </Button>
                            )}
                          </div>
                        )}
                      </td>
                    </tr>
                    {invoiceCharges.length > 0 && (
                      <tr data-testid="invoice-charges-row">
                        <td colSpan={8} className="pb-3">
                          <InvoiceCharges
                            charges={invoiceCharges}
                            invoiceName={invoiceName(i)}
                            timeZone={timeZone}
                            onResult={written}
                          />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {adding ? (
        <div className="flex flex-col gap-2">
          <Subheading className="font-semibold">Add an invoice</Subheading>
          <Suspense fallback={LOADING}>
            <invoiceForm.Lazy
              debtor={debtor}
              onResult={(data) => {
                written(data);
                if (!data.ok) return;
                setAdding(false);
                focusAfterRender(addButtonId);
              }}
              onCancel={() => {
                setAdding(false);
                focusAfterRender(addButtonId);
              }}
            />
          </Suspense>
        </div>
      ) : (
        <div>
          <Button
            id={addButtonId}
            variant="outline"
            onPointerEnter={preloadForms}
            onFocus={preloadForms}
            onClick={() => setAdding(true)}
          >
            Add invoice
          </Button>
        </div>
      )}
    </section>
  );
}

/**
 * "Don't chase" / "Chase again": reminders and the cadence leave an owed invoice out (named apart on
 * the statement), or take it back. One click; the answer is a toast.
 */
function ChaseToggle({ invoice, onResult }: { invoice: Invoice; onResult: (data: ActionResult) => void }) {
  const fetcher = useFetcher<typeof debtorAction>();
  useFormResult(fetcher, [INVOICE_INTENTS.chase], onResult);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={INVOICE_INTENTS.chase} />
      <input type="hidden" name="id" value={invoice.id} />
      <input type="hidden" name="chased" value={invoice.chased ? "0" : "1"} />
      <SubmitButton
        variant="outline"
        size="sm"
        busy={fetcher.state !== "idle"}
        aria-label={`${invoice.chased ? "Don't chase" : "Chase again"} ${invoiceName(invoice)}`}
      >
        {invoice.chased ? "Don't chase" : "Chase again"}
      </SubmitButton>
    </fetcher.Form>
  );
}

/** A small text control under the invoice's number. */
const DOCUMENT_LINK =
  "cursor-pointer whitespace-nowrap text-sm font-normal text-primary underline-offset-4 hover:underline disabled:opacity-60";

/**
 * The invoice's own PDF (docs/decisions/053), under its number: "PDF" downloads it and "Remove"
 * takes it away; without one, "Attach PDF" picks a file that is sent at once (checked here for its
 * size first, and again by the server with its type). The debtor downloads it from their page.
 */
function InvoiceDocumentControl({ invoice, onResult }: { invoice: Invoice; onResult: (data: ActionResult) => void }) {
  const fetcher = useFetcher<ActionResult>();
  const inputId = useId();
  const action = `/invoices/${invoice.id}/document`;
  useFormResult(fetcher, [INVOICE_DOCUMENT_INTENTS.attach, INVOICE_DOCUMENT_INTENTS.remove], onResult);
  const busy = fetcher.state !== "idle";
  if (invoice.document) {
    return (
      <fetcher.Form method="post" action={action} className="mt-1 flex gap-3">
        <input type="hidden" name="intent" value={INVOICE_DOCUMENT_INTENTS.remove} />
        <a
          href={action}
          download
          className={DOCUMENT_LINK}
          aria-label={`Download the PDF of ${invoiceName(invoice)} (${invoice.document.name})`}
        >
          PDF
        </a>
        <button
          type="submit"
          className={DOCUMENT_LINK}
          disabled={busy}
          aria-label={`Remove the PDF of ${invoiceName(invoice)}`}
        >
          {busy ? "Removing…" : "Remove"}
        </button>
      </fetcher.Form>
    );
  }
  return (
    <fetcher.Form method="post" action={action} encType="multipart/form-data" className="mt-1">
      <input type="hidden" name="intent" value={INVOICE_DOCUMENT_INTENTS.attach} />
      <input
        id={inputId}
        type="file"
        name="document"
        accept="application/pdf,.pdf"
        className="peer sr-only"
        disabled={busy}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (!file) return;
          if (file.size > MAX_PDF_BYTES) {
            onResult({ intent: INVOICE_DOCUMENT_INTENTS.attach, ok: false, message: PDF_TOO_LARGE });
            event.currentTarget.value = "";
            return;
          }
          fetcher.submit(event.currentTarget.form, { method: "post", action, encType: "multipart/form-data" });
        }}
      />
      <label
        htmlFor={inputId}
        className={`${DOCUMENT_LINK} rounded-sm peer-focus-visible:ring-2 peer-focus-visible:ring-ring`}
      >
        {busy ? "Attaching…" : "Attach PDF"}
        <span className="sr-only">{` to ${invoiceName(invoice)}`}</span>
      </label>
    </fetcher.Form>
  );
}
