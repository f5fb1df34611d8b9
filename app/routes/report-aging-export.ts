import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { runBound } from "~/db/prepared.server";
import { agingCsv } from "~/domain/aging";
import { csvHeaders, toCsv } from "~/domain/csv-export";
import { localDateString } from "~/domain/schedule-time";
import { agingReportOf, agingStatement } from "~/ledger/index.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import type { Route } from "./+types/report-aging-export";

/**
 * /report-aging.csv: the report's receivables by age as CSV ("Money" and
 * "CSV"): a row per currency, the buckets counted on the user's today in their zone, the amounts
 * as decimal numbers, the charges still owed in columns of their own. One indexed statement over
 * the account's owed invoices and charges.
 */
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const today = localDateString(Date.now(), requestTimeZone(request));
  // The invoices' principal and, apart, the late-payment charges still owed (decisions/067).
  const { aging, charges } = agingReportOf(await runBound(agingStatement(db, user.id, today)));
  const { header, rows: cells } = agingCsv(aging, today, charges);
  return new Response(`\uFEFF${toCsv(header, cells)}`, { headers: csvHeaders(`receivables-aging-${today}.csv`) });
}
