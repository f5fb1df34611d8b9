import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { csvHeaders, toCsv } from "~/domain/csv-export";
import { fromCents, owedCents } from "~/domain/money";
import { strategyLabel } from "~/domain/strategies";
import { getApp } from "~/lib/context.server";
import { debtorsForExport } from "~/models/debtor-import.server";
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
 * /debtors.csv: the signed-in user's debtors as CSV (docs/architecture.md §10, CSV), one row each
 * with their total and, when they owe a single invoice, its number (/invoices.csv has every
 * invoice). The columns the import reads come first, so an exported file can be imported again.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url);
  const rows = await debtorsForExport(getDb(getApp(context).env.DB), user.id);
  const csv = toCsv(
    HEADER,
    rows.map((d) => [
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
    ]),
  );
  return new Response(`\uFEFF${csv}`, { headers: csvHeaders("debtors.csv") });
}
