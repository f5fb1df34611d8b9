import { Link } from "react-router";
import { AgingTable } from "~/components/money/aging-table";
import { type AgingRow, daysLateLabel, LATENESS_WINDOW_DAYS } from "~/domain/aging";
import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import { dueLabel } from "~/domain/statement";
import { useLocale } from "~/ui/root-data";

/** The money figures as the dashboard's loader sends them (app/ledger/money.server.ts `Money`). */
export interface MoneyView {
  today: string;
  aging: AgingRow[];
  oldest: {
    id: number;
    debtorId: number;
    fullName: string;
    number: string | null;
    currency: string;
    dueOn: string;
    status: string;
    balanceCents: number;
  }[];
  collected: { currency: string; cents: number }[];
  /** Late-payment charges still owed, by age of their invoice (decisions/067); apart from `aging`. */
  charges: AgingRow[];
  /** What this month's payments paid on charges. */
  chargesCollected: { currency: string; cents: number }[];
  averageDaysLate: number | null;
}

/** One figure per currency, each on its own line; `none` when there is none. */
function PerCurrency({ amounts, none }: { amounts: { currency: string; cents: number }[]; none: string }) {
  if (amounts.length === 0) return <span className="text-2xl font-black">{none}</span>;
  return (
    <ul>
      {amounts.map((a) => (
        <li key={a.currency} className="text-2xl font-black tabular-nums">
          {formatMoney(a.cents, a.currency)}
        </li>
      ))}
    </ul>
  );
}

/**
 * The dashboard's first section: outstanding and overdue per
 * currency, collected this month, the average days late of the last 90 days' payments, receivables
 * by age and the oldest debts, all counted on the user's today in their zone. An account with
 * nothing owed and no recent payment gets a sentence instead of a table of zeros.
 */
export function MoneySummary({ money, failed }: { money: MoneyView; failed: boolean }) {
  const { aging, oldest, collected, averageDaysLate, today, charges, chargesCollected } = money;
  const withCharges = charges.length > 0 || chargesCollected.length > 0;
  const empty = aging.length === 0 && collected.length === 0 && averageDaysLate === null && !withCharges;
  return (
    <section
      aria-labelledby="money-heading"
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4 sm:p-6"
      data-testid="money"
    >
      <h2 id="money-heading" className="text-xl font-bold">
        Money
      </h2>
      {failed ? (
        <p className="text-muted" data-testid="money-error">
          The money figures could not be loaded. Please reload the page.
        </p>
      ) : empty ? (
        <p className="text-muted" data-testid="money-empty">
          Nothing is owed to you yet. Add a debtor with what they owe, and what is outstanding, overdue and collected
          shows here.
        </p>
      ) : (
        <>
          <dl className={`grid grid-cols-1 gap-3 sm:grid-cols-2 ${withCharges ? "lg:grid-cols-3" : "lg:grid-cols-4"}`}>
            <div className="rounded-lg border border-border bg-background p-3">
              <dt className="text-sm text-muted">Outstanding</dt>
              <dd data-testid="money-outstanding">
                <PerCurrency
                  amounts={aging.map((r) => ({ currency: r.currency, cents: r.outstandingCents }))}
                  none="Nothing"
                />
              </dd>
            </div>
            <div className="rounded-lg border border-border bg-background p-3">
              <dt className="text-sm text-muted">Overdue</dt>
              <dd data-testid="money-overdue">
                <PerCurrency
                  amounts={aging
                    .filter((r) => r.overdueCents > 0)
                    .map((r) => ({ currency: r.currency, cents: r.overdueCents }))}
                  none="Nothing"
                />
              </dd>
            </div>
            {withCharges && (
              <div className="rounded-lg border border-border bg-background p-3">
                <dt className="text-sm text-muted">Late-payment charges outstanding</dt>
                <dd data-testid="money-charges-outstanding">
                  <PerCurrency
                    amounts={charges.map((r) => ({ currency: r.currency, cents: r.outstandingCents }))}
                    none="Nothing"
                  />
                  <span className="mt-1 block text-xs text-muted">Apart from the invoices' outstanding amounts.</span>
                </dd>
              </div>
            )}
            <div className="rounded-lg border border-border bg-background p-3">
              <dt className="text-sm text-muted">Collected this month</dt>
              <dd data-testid="money-collected">
                <PerCurrency amounts={collected} none="Nothing yet" />
                {withCharges && <span className="mt-1 block text-xs text-muted">On invoices, without charges.</span>}
              </dd>
            </div>
            {withCharges && (
              <div className="rounded-lg border border-border bg-background p-3">
                <dt className="text-sm text-muted">Charges collected this month</dt>
                <dd data-testid="money-charges-collected">
                  <PerCurrency amounts={chargesCollected} none="Nothing yet" />
                </dd>
              </div>
            )}
            <div className="rounded-lg border border-border bg-background p-3">
              <dt className="text-sm text-muted">{`Average days late (payments in the last ${LATENESS_WINDOW_DAYS} days)`}</dt>
              <dd data-testid="money-days-late">
                <span className="text-2xl font-black tabular-nums">
                  {averageDaysLate === null ? "No payments" : daysLateLabel(averageDaysLate)}
                </span>
                <span className="mt-1 block text-xs text-muted">
                  Each invoice a payment paid counts once; paid on time or early counts as 0 days.
                </span>
              </dd>
            </div>
          </dl>
          {aging.length === 0 && charges.length === 0 ? (
            <p className="text-muted">Nothing is owed to you right now.</p>
          ) : (
            <>
              <AgingTable rows={aging} charges={charges} today={today} id="money-aging" />
              <OldestDebts oldest={oldest} today={today} />
            </>
          )}
        </>
      )}
    </section>
  );
}

/** The owed invoices due longest ago, each linking to its debtor. */
function OldestDebts({ oldest, today }: { oldest: MoneyView["oldest"]; today: string }) {
  const locale = useLocale();
  if (oldest.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <h3 id="oldest-debts-heading" className="font-semibold">
        Oldest debts
      </h3>
      {/* One row per invoice for every width: a card on narrow screens (app.css, .list-table). */}
      <table className="list-table" aria-labelledby="oldest-debts-heading" data-testid="oldest-debts">
        <thead>
          <tr>
            <th scope="col">Debtor</th>
            <th scope="col">Invoice</th>
            <th scope="col">Due</th>
            <th scope="col">Overdue</th>
            <th scope="col" className="md:text-right">
              Balance
            </th>
          </tr>
        </thead>
        <tbody>
          {oldest.map((o) => (
            <tr key={o.id}>
              <td data-label="Debtor" className="break-words">
                <Link to={`/debtors/${o.debtorId}`} className="text-primary underline-offset-4 hover:underline">
                  {o.fullName}
                </Link>
              </td>
              <td data-label="Invoice">
                {o.number ?? "—"}
                {o.status === "disputed" ? <span className="text-muted"> (disputed)</span> : null}
              </td>
              <td data-label="Due" className="md:whitespace-nowrap">
                {formatDate(o.dueOn, locale)}
              </td>
              <td data-label="Overdue" className="md:whitespace-nowrap">
                {dueLabel(o.dueOn, today) ?? "—"}
              </td>
              <td data-label="Balance" className="tabular-nums md:whitespace-nowrap md:text-right">
                {formatMoney(o.balanceCents, o.currency)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
