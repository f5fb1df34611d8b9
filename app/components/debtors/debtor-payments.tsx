import { useEffect, useId, useState } from "react";
import { useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { ConfirmStep } from "~/components/lists/configure-steps";
import { Button, SubmitButton } from "~/components/ui/button";
import { formatDate } from "~/domain/dates";
import { formatMoney, otherCurrenciesOwed, owedCents, toCents } from "~/domain/money";
import type { ActionResult } from "~/platform/action-result";
import { DEBTOR_INTENTS, PAYMENT_INTENTS } from "~/schemas/intents";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";
import { DebtorBalance } from "./debtor-balance";
import type { DebtorView } from "./debtor-view";
import { chargesOwedCents, type Invoice } from "./invoice-view";
import { type Payment, PaymentForm } from "./payment-form";

type Loaded = { debtorId: number; payments: Payment[] } | { debtorId: number; error: true };

/**
 * The debtor's payments from the JSON API (owner-scoped, newest first), loaded again whenever
 * `refresh` changes (after a payment write, or when the page's data shows a new balance).
 */
function usePayments(debtorId: number, refresh: string) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  useEffect(() => {
    // Read by the effect: a new value loads the list again.
    void refresh;
    const controller = new AbortController();
    fetch(`/api/debtors/${debtorId}/payments`, { headers: { Accept: "application/json" }, signal: controller.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        setLoaded({ debtorId, payments: (await res.json()) as Payment[] });
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoaded({ debtorId, error: true });
      });
    return () => controller.abort();
  }, [debtorId, refresh]);
  return loaded?.debtorId === debtorId ? loaded : null;
}

/**
 * The Payments section of a debtor's Configure modal: what is still owed, the
 * offer to resume reminders Dunly stopped, the payments (Edit, Delete after a confirmation) and
 * the 'Add payment' form. Every write posts to the page's debtor action.
 */
export function DebtorPayments({
  debtor,
  invoices,
  onResult,
}: {
  debtor: DebtorView;
  /** The debtor's invoices (the modal's Invoices section loaded them): "Apply to" lists the owed ones. */
  invoices: Invoice[] | null;
  onResult: (data: ActionResult) => void;
}) {
  const locale = useLocale();
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  const headingId = useId();
  const loaded = usePayments(debtor.id, `${debtor.paidCents}:${debtor.debtCents}:${version}`);
  const owed = owedCents(debtor);
  // What a payment in the debtor's currency may pay: the invoices' principal and their late-payment
  // charges (decisions/065), which a payment settles too.
  const payable =
    owed +
    (invoices ?? []).filter((i) => i.currency === debtor.currency).reduce((sum, i) => sum + chargesOwedCents(i), 0);

  const written = (data: ActionResult) => {
    onResult(data);
    if (data.ok) {
      setVersion((n) => n + 1);
      setEditing(null);
      setDeleting(null);
    }
  };
  const deleter = useFetcher<typeof debtorAction>();
  useFormResult(deleter, [PAYMENT_INTENTS.remove], written);

  return (
    <section aria-labelledby={headingId} className="mt-6 flex flex-col gap-4 border-t border-border pt-4">
      <h3 id={headingId} className="text-lg font-semibold">
        Payments
      </h3>
      <p className="text-sm" data-testid="debtor-balance">
        <DebtorBalance debtor={debtor} show="summary" others={otherCurrenciesOwed(invoices ?? [], debtor.currency)} />
      </p>
      {payable > owed && (
        <p className="text-sm" data-testid="debtor-charges-owed">
          {`Late charges owed besides: ${formatMoney(payable - owed, debtor.currency, locale)}. A payment pays them too.`}
        </p>
      )}
      {owed > 0 && debtor.resumable > 0 && <ResumeOffer debtor={debtor} onResult={written} />}

      {!loaded ? (
        <p className="text-sm text-muted" role="status">
          Loading payments…
        </p>
      ) : "error" in loaded ? (
        <p className="text-sm text-danger" role="alert">
          The payments could not be loaded.{" "}
          <Button variant="link" size="sm" onClick={() => setVersion((n) => n + 1)}>
            Try again
          </Button>
        </p>
      ) : loaded.payments.length === 0 ? (
        <p className="text-sm text-muted">No payments recorded yet.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-labelledby={headingId}>
          {loaded.payments.map((p) => {
            const label = `${formatMoney(toCents(p.amount), p.currency)} on ${formatDate(p.paid_on, locale)}`;
            return (
              <li key={p.id} className="rounded-lg border border-border bg-background p-3 text-sm">
                {editing === p.id ? (
                  <PaymentForm
                    debtor={debtor}
                    payment={p}
                    maxCents={payable + toCents(p.amount)}
                    onResult={written}
                    onCancel={() => setEditing(null)}
                  />
                ) : deleting === p.id ? (
                  <ConfirmStep
                    fetcher={deleter}
                    intent={PAYMENT_INTENTS.remove}
                    id={p.id}
                    message={`Delete the payment of ${label}?`}
                    confirmLabel="Delete payment"
                    onCancel={() => setDeleting(null)}
                  />
                ) : (
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">
                      <div className="font-medium">
                        {formatMoney(toCents(p.amount), p.currency)}
                        <span className="font-normal text-muted"> · {formatDate(p.paid_on, locale)}</span>
                      </div>
                      {p.note && <div className="break-words text-muted">{p.note}</div>}
                    </div>
                    <div className="flex gap-2">
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={`Edit payment of ${label}`}
                        onClick={() => {
                          setDeleting(null);
                          setEditing(p.id);
                        }}
                      >
                        Edit
                      </Button>
                      <Button
                        variant="outline"
                        size="sm"
                        aria-label={`Delete payment of ${label}`}
                        onClick={() => {
                          setEditing(null);
                          setDeleting(p.id);
                        }}
                      >
                        Delete
                      </Button>
                    </div>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}

      {payable > 0 && (
        <div className="flex flex-col gap-2">
          <h4 className="font-semibold">Add payment</h4>
          <PaymentForm debtor={debtor} maxCents={payable} invoices={invoices} onResult={written} />
        </div>
      )}
    </section>
  );
}

/** 'Resume reminders': the schedules Dunly stopped run again (nothing restarts without this click). */
function ResumeOffer({ debtor, onResult }: { debtor: DebtorView; onResult: (data: ActionResult) => void }) {
  const fetcher = useFetcher<typeof debtorAction>();
  useFormResult(fetcher, [DEBTOR_INTENTS.resume], onResult);
  const n = debtor.resumable;
  return (
    <fetcher.Form
      method="post"
      className="flex flex-col gap-2 rounded-lg border border-border bg-surface-2 p-3 text-sm sm:flex-row sm:items-center sm:justify-between"
    >
      <input type="hidden" name="intent" value={DEBTOR_INTENTS.resume} />
      <input type="hidden" name="debtor_id" value={debtor.id} />
      <p>{n === 1 ? "1 reminder schedule" : `${n} reminder schedules`} stopped and will not restart by themselves.</p>
      <SubmitButton size="sm" busy={fetcher.state !== "idle"}>
        Resume reminders
      </SubmitButton>
    </fetcher.Form>
  );
}
