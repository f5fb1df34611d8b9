import { AGING_BUCKETS, type AgingRow } from "~/domain/aging";
import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import { useLocale } from "~/ui/root-data";

/** A bucket's column header: "Not yet due", "1–30 days overdue"… */
const columnLabel = (b: (typeof AGING_BUCKETS)[number]) => (b.key === "notYetDue" ? b.label : `${b.label} overdue`);

/**
 * Receivables by age: a row per currency, a column per bucket,
 * then what is overdue and what is outstanding, counted on the user's `today`. A real table with
 * its caption and headers; one row structure for every width, a card per currency on a phone
 * (app.css, .list-table), so nothing scrolls sideways.
 */
export function AgingTable({ rows, today, id }: { rows: AgingRow[]; today: string; id: string }) {
  const locale = useLocale();
  const amount = "tabular-nums md:whitespace-nowrap md:text-right";
  return (
    <table className="list-table" data-testid={id}>
      <caption className="mb-2 text-left text-sm text-muted">
        {`Receivables by age: what is still owed, by days overdue as of ${formatDate(today, locale)}.`}
      </caption>
      <thead>
        <tr>
          <th scope="col">Currency</th>
          {AGING_BUCKETS.map((b) => (
            <th key={b.key} scope="col" className="md:text-right">
              {columnLabel(b)}
            </th>
          ))}
          <th scope="col" className="md:text-right">
            Overdue
          </th>
          <th scope="col" className="md:text-right">
            Outstanding
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.currency}>
            <th scope="row" className="text-left">
              {r.currency}
            </th>
            {AGING_BUCKETS.map((b) => (
              <td key={b.key} data-label={columnLabel(b)} className={amount}>
                {formatMoney(r[b.key], r.currency)}
              </td>
            ))}
            <td data-label="Overdue" className={`font-semibold ${amount}`}>
              {formatMoney(r.overdueCents, r.currency)}
            </td>
            <td data-label="Outstanding" className={`font-semibold ${amount}`}>
              {formatMoney(r.outstandingCents, r.currency)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
