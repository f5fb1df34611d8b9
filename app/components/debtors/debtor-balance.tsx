import { formatMoney, owedCents } from "~/domain/money";

/** The amounts a debtor's balance is made of (a debtor row, or a schedule's row with its debtor's). */
export interface Balance {
  debtCents: number;
  paidCents: number;
  currency: string;
}

/**
 * A debtor's balance, worded one way wherever it is shown:
 * - `summary`, the debtor's Payments and their timeline page: "Still owed: $80.00 of $100.00", or
 *   "Paid in full: $100.00"; with open invoices in other currencies, "Still owed: $80.00 + €50.00";
 * - `paid`, the debtors tables' receivables: "$20.00 paid of $100.00", "$80.00 still owed" below
 *   it. Each text is one string (adjacent texts would each be rendered with a separator between them);
 * - `owed`, a figure among others (the debtor's details, a schedule's): what is still owed alone.
 */
export function DebtorBalance({
  debtor,
  show,
  others = [],
}: {
  debtor: Balance;
  show: "summary" | "paid" | "owed";
  /**
   * The summary's open invoices in other currencies (otherCurrenciesOwed): with any, it names every
   * currency's amount still owed ("Still owed: $80.00 + €50.00"), never "Paid in full".
   */
  others?: readonly { currency: string; cents: number }[];
}) {
  const owed = owedCents(debtor);
  const money = (cents: number) => formatMoney(cents, debtor.currency);
  if (show === "owed") return money(owed);
  if (show === "paid") {
    return (
      <span className="inline-flex flex-col">
        <span>
          <span className="text-success">{money(debtor.paidCents)}</span>
          {` paid of ${money(debtor.debtCents)}`}
        </span>
        {owed > 0 && <span className="text-xs text-muted">{`${money(owed)} still owed`}</span>}
      </span>
    );
  }
  if (others.length > 0) {
    const parts = [...(owed > 0 ? [money(owed)] : []), ...others.map((o) => formatMoney(o.cents, o.currency))];
    return (
      <>
        Still owed: <strong>{parts.join(" + ")}</strong>
      </>
    );
  }
  if (owed === 0) return `Paid in full: ${money(debtor.paidCents)}`;
  return (
    <>
      Still owed: <strong>{money(owed)}</strong> of {money(debtor.debtCents)}
    </>
  );
}
