import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { invoiceExportPages } from "~/debtors/index.server";
import { csvResponse } from "~/domain/csv-export";
import { fromCents } from "~/domain/money";
import { strategyLabel } from "~/domain/strategies";
import type { Route } from "./+types/invoices-export";

const HEADER = [
  "Name",
  "Email",
  "Amount",
  "Currency",
  "Invoice number",
  "Issue date",
  "Due date",
  "Kind",
  "Strategy",
  "Time zone",
  "Paid",
  "Owed",
  "Status",
  "Dispute reason",
];

/**
 * /invoices.csv: the signed-in user's invoices as CSV, one row each with its debtor's name and
 * e-mail, in the order they were made, streamed a page per
 * statement as the download takes them. The columns the import reads come first, so the file can be imported again
 * (its rows with the same e-mail become one debtor's invoices; Paid, Owed and Status are for
 * reading: an imported invoice is open).
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  async function* rows() {
    for await (const page of invoiceExportPages(db, user.id)) {
      yield page.map((i) => [
        i.fullName,
        i.email,
        fromCents(i.amountCents),
        i.currency,
        i.number,
        i.issuedOn,
        i.dueOn,
        i.kind,
        strategyLabel(i.activeStrategy),
        i.timeZone,
        fromCents(i.paidCents),
        fromCents(i.status === "void" ? 0 : i.amountCents - i.paidCents),
        i.status,
        i.disputeReason,
      ]);
    }
  }
  return csvResponse("invoices.csv", HEADER, rows());
}
