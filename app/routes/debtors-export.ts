import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { debtorExportPages } from "~/debtors/index.server";
import { csvResponse } from "~/domain/csv-export";
import { fromCents, owedCents } from "~/domain/money";
import { strategyLabel } from "~/domain/strategies";
import { debtorChargeTotalsOf } from "~/ledger/index.server";
import type { Route } from "./+types/debtors-export";

const HEADER = [
  "Name",
  "Email",
  "Kind",
  "Amount",
  "Paid",
  "Owed",
  "Currency",
  "Strategy",
  "Status",
  "Invoice number",
  "Time zone",
  "Added (UTC)",
  "Charges owed",
  "Charges paid",
  "Charges in other currencies",
];

/**
 * /debtors.csv: the signed-in user's debtors as CSV, one row each
 * with their total and, when they owe a single invoice, its number (/invoices.csv has every
 * invoice). The columns the import reads come first, so an exported file can be imported again.
 * Late-payment charges come last, apart from the debt (decisions/067): owed and paid in the
 * debtor's currency, and any other currency's in words.
 * Streamed: a page of debtors read per statement as the download takes them.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  async function* rows() {
    for await (const page of debtorExportPages(db, user.id)) {
      yield page.map((d) => {
        const charges = debtorChargeTotalsOf(d.charges);
        const own = charges.find((c) => c.currency === d.currency);
        const others = charges
          .filter((c) => c.currency !== d.currency)
          .map((c) => `${c.currency} owed ${fromCents(c.owed)}, paid ${fromCents(c.paid)}`);
        return [
          d.fullName,
          d.email,
          d.kind,
          fromCents(d.debtCents),
          fromCents(d.paidCents),
          fromCents(owedCents(d)),
          d.currency,
          strategyLabel(d.activeStrategy),
          d.status,
          d.invoiceNumber,
          d.timeZone,
          new Date(d.createdAt).toISOString(),
          fromCents(own?.owed ?? 0),
          fromCents(own?.paid ?? 0),
          others.join("; "),
        ];
      });
    }
  }
  return csvResponse("debtors.csv", HEADER, rows());
}
