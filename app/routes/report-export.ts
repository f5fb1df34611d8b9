import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { csvHeaders, toCsv } from "~/domain/csv-export";
import { deliveryTarget, deliveryTemplate } from "~/domain/delivery-labels";
import { statusLabel } from "~/domain/delivery-status";
import { listParams } from "~/domain/list-params";
import { periodRange } from "~/domain/periods";
import { strategyLabel } from "~/domain/strategies";
import { formatInstant } from "~/domain/time-zone";
import { getApp } from "~/lib/context.server";
import { requestTimeZone } from "~/lib/time-zone.server";
import { listDeliveries } from "~/models/delivery.server";
import type { Route } from "./+types/report-export";

/** The most deliveries one export holds, read this many per query. */
export const MAX_REPORT_ROWS = 10_000;
const PAGE = 1000;

/**
 * /report.csv: the Reminders Report as CSV (docs/architecture.md §10, CSV), with the report's filters (the
 * `debtor` and `period` query parameters), newest first, at most MAX_REPORT_ROWS rows.
 */
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const user = requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const timeZone = requestTimeZone(request);
  const { debtorId, period } = listParams(url.searchParams);
  const range = period ? periodRange(period, Date.now(), timeZone) : null;
  const filter = { debtorId, from: range?.from, before: range?.before };
  const rows: Awaited<ReturnType<typeof listDeliveries>> = [];
  for (let offset = 0; offset < MAX_REPORT_ROWS; offset += PAGE) {
    const page = await listDeliveries(db, user.id, { ...filter, limit: PAGE, offset });
    rows.push(...page);
    if (page.length < PAGE) break;
  }
  const csv = toCsv(
    [`Date (${timeZone})`, "ISO time (UTC)", "Debtor", "Template", "Tone", "Status", "Error", "Message id"],
    rows.map((d) => {
      const at = d.sentAt ?? d.createdAt;
      return [
        formatInstant(at, timeZone),
        new Date(at).toISOString(),
        deliveryTarget(d),
        deliveryTemplate(d),
        strategyLabel(d.tone),
        statusLabel(d.status),
        d.error,
        d.providerId,
      ];
    }),
  );
  return new Response(`\uFEFF${csv}`, { headers: csvHeaders("reminders-report.csv") });
}
