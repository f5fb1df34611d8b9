import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { debtorExportPages } from "~/debtors/index.server";
import { csvResponse } from "~/domain/csv-export";
import { fromCents, owedCents } from "~/domain/money";
import { strategyLabel } from "~/domain/strategies";
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
];

/**
 * /debtors.csv: the signed-in user's debtors as CSV, one row each
 * with their total and, when they owe a single invoice, its number (/invoices.csv has every
 * invoice). The columns the import reads come first, so an exported file can be imported again.
 * Streamed: a page of debtors read per statement as the download takes them.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  async function* rows() {
    for await (const page of debtorExportPages(db, user.id)) {
      yield page.map((d) => [
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
      ]);
    }
  }
  return csvResponse("debtors.csv", HEADER, rows());
}
