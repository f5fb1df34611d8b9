import { AGING_BUCKETS, type AgingRow, agingCurrencies } from "~/domain/aging";
import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import { useLocale } from "~/ui/root-data";

/** A bucket's column header: "Not yet due", "1–30 days overdue"… */
const columnLabel = (b: (typeof AGING_BUCKETS)[number]) => (b.key === "notYetDue" ? b.label : `${b.label} overdue`);

/**
 * Receivables by age: a row per currency, a column per bucket,
 * then what is overdue and what is outstanding, counted on the user's `today`. A real table with
 * its caption and headers; one row structure for every width, a card per currency on a phone
 * (app.css, .list-table), so nothing scrolls sideways. Late-payment charges still owed (decisions/067)
 * are a row of their own under their currency's invoices ("EUR charges"), bucketed by their
 * invoice's due date, never added into the invoices' figures.
 */
export function AgingTable({
  rows,
  charges = [],
  today,
  id,
}: {
  rows: AgingRow[];
  charges?: AgingRow[];
  today: string;
  id: string;
}) {
  const locale = useLocale();
  const amount = "tabular-nums md:whitespace-nowrap md:text-right";
  const lines = agingCurrencies(rows, charges).flatMap((currency) => {
    const invoices = rows.find((r) => r.currency === currency);
    const owed = charges.find((r) => r.currency === currency);
    return [
      ...(invoices ? [{ key: currency, label: currency, row: invoices, charges: false }] : []),
      ...(owed ? [{ key: `${currency}-charges`, label: `${currency} charges`, row: owed, charges: true }] : []),
    ];
  });
  return (
    <table className="list-table" data-testid={id}>
      <caption className="mb-2 text-left text-sm text-muted">
        {`Receivables by age: what is still owed, by days overdue as of ${formatDate(today, locale)}.`}
        {charges.length > 0 && " Late-payment charges are a row of their own, by their invoice's due date."}
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
        {lines.map(({ key, label, row: r, charges: isCharges }) => (
          <tr key={key} data-charges={isCharges ? "" : undefined}>
            <th scope="row" className={isCharges ? "text-left font-normal" : "text-left"}>
              {label}
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
