import { AGING_BUCKETS, type AgingRow } from "~/domain/aging";
import { formatMoney } from "~/domain/money";
import { formatShortDate } from "~/domain/promise";

/**
 * Receivables by age (docs/architecture.md §10, "Money"): a row per currency, a column per bucket,
 * then what is overdue and what is outstanding, counted on the user's `today`. A real table with
 * its caption; on a narrow screen it scrolls sideways inside its own box (the page never does).
 */
export function AgingTable({ rows, today, id }: { rows: AgingRow[]; today: string; id: string }) {
  return (
    <div className="overflow-x-auto" data-testid={id}>
      <table className="w-full min-w-[40rem] border-collapse text-sm">
        <caption className="mb-2 text-left text-sm text-muted">
          {`Receivables by age: what is still owed, by days overdue as of ${formatShortDate(today)}.`}
        </caption>
        <thead>
          <tr className="border-b border-border text-left">
            <th scope="col" className="py-2 pr-3 font-medium">
              Currency
            </th>
            {AGING_BUCKETS.map((b) => (
              <th key={b.key} scope="col" className="whitespace-nowrap py-2 pr-3 text-right font-medium">
                {b.key === "notYetDue" ? b.label : `${b.label} overdue`}
              </th>
            ))}
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Overdue
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              Outstanding
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.currency} className="border-b border-border last:border-b-0">
              <th scope="row" className="py-2 pr-3 text-left font-semibold">
                {r.currency}
              </th>
              {AGING_BUCKETS.map((b) => (
                <td key={b.key} className="whitespace-nowrap py-2 pr-3 text-right tabular-nums">
                  {formatMoney(r[b.key], r.currency)}
                </td>
              ))}
              <td className="whitespace-nowrap py-2 pr-3 text-right font-semibold tabular-nums">
                {formatMoney(r.overdueCents, r.currency)}
              </td>
              <td className="whitespace-nowrap py-2 text-right font-semibold tabular-nums">
                {formatMoney(r.outstandingCents, r.currency)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
