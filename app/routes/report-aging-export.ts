import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { runBound } from "~/db/prepared.server";
import { agingCsv, agingRowsOf } from "~/domain/aging";
import { csvHeaders, toCsv } from "~/domain/csv-export";
import { localDateString } from "~/domain/schedule-time";
import { agingStatement } from "~/ledger/index.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import type { Route } from "./+types/report-aging-export";

/**
 * /report-aging.csv: the report's receivables by age as CSV ("Money" and
 * "CSV"): a row per currency, the buckets counted on the user's today in their zone, the amounts
 * as decimal numbers. One indexed statement over the account's owed invoices.
 */
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const today = localDateString(Date.now(), requestTimeZone(request));
  const rows = agingRowsOf(await runBound(agingStatement(db, user.id, today)));
  const { header, rows: cells } = agingCsv(rows, today);
  return new Response(`\uFEFF${toCsv(header, cells)}`, { headers: csvHeaders(`receivables-aging-${today}.csv`) });
}
