import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { formatDateTime } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import type { ChargeView } from "~/ledger/index.server";
import type { ActionResult } from "~/platform/action-result";
import { CHARGE_INTENTS } from "~/schemas/intents";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";

/**
 * Late-payment charges on the user's debtor page (decisions/065): under each invoice its charge
 * lines (label, amount, paid, what is owed or who waived it and when, how it was computed), each
 * with Waive or Restore; and the debtor's charges owed, apart from the invoices' principal. The
 * buttons post to the page's debtor action; without JavaScript they are plain forms.
 */

/** One invoice's charges, as a list under its row. */
export function InvoiceCharges({
  charges,
  invoiceName,
  timeZone,
  onResult,
}: {
  charges: readonly ChargeView[];
  invoiceName: string;
  timeZone: string;
  onResult: (data: ActionResult) => void;
}) {
  const locale = useLocale();
  if (charges.length === 0) return null;
  return (
    <ul className="flex flex-col gap-2" aria-label={`Late charges on ${invoiceName}`} data-testid="invoice-charges">
      {charges.map((c) => {
        const money = (cents: number) => formatMoney(cents, c.currency, locale);
        return (
          <li key={c.id} className="rounded-md border border-border p-3 text-sm" data-testid="charge-line">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-medium">
                {c.label}: {money(c.amountCents)}
                {c.paidCents > 0 && <span className="font-normal text-muted">{`, ${money(c.paidCents)} paid`}</span>}
              </p>
              <ChargeButton charge={c} onResult={onResult} />
            </div>
            {c.basis && <p className="mt-1 text-muted [overflow-wrap:anywhere]">{c.basis}</p>}
            <p className="mt-1" data-testid="charge-state">
              {c.waived
                ? `Waived by ${c.waived.by} on ${formatDateTime(c.waived.at, timeZone, locale)}: ${money(c.waived.cents)} let go.`
                : c.owedCents > 0
                  ? `Still owed: ${money(c.owedCents)}.`
                  : "Paid."}
            </p>
          </li>
        );
      })}
    </ul>
  );
}

/** "Waive" (or "Restore" a waived charge): one click, the answer is a toast. */
function ChargeButton({ charge, onResult }: { charge: ChargeView; onResult: (data: ActionResult) => void }) {
  const fetcher = useFetcher();
  const intent = charge.waived ? CHARGE_INTENTS.restore : CHARGE_INTENTS.waive;
  useFormResult(fetcher, [intent], onResult);
  if (!charge.waived && charge.owedCents === 0) return null;
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="charge_id" value={charge.id} />
      <Button
        type="submit"
        variant="outline"
        size="sm"
        disabled={busy}
        aria-label={`${charge.waived ? "Restore" : "Waive"} ${charge.label}`}
      >
        {charge.waived ? "Restore" : "Waive"}
      </Button>
    </fetcher.Form>
  );
}

/** The debtor's late-payment charges still owed, per currency, apart from the invoices' principal. */
export function ChargesTotal({ charges }: { charges: readonly ChargeView[] }) {
  const locale = useLocale();
  const owed = new Map<string, number>();
  for (const c of charges) owed.set(c.currency, (owed.get(c.currency) ?? 0) + c.owedCents);
  const totals = [...owed].filter(([, cents]) => cents > 0);
  if (charges.length === 0) return null;
  return (
    <p data-testid="charges-total" className="text-sm">
      {totals.length === 0
        ? "Late charges: nothing owed."
        : `Late charges owed, besides the invoices: ${totals.map(([currency, cents]) => formatMoney(cents, currency, locale)).join(" + ")}`}
    </p>
  );
}
