import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { csvResponse, EXPORT_PAGE } from "~/domain/csv-export";
import { dateTimeFormatter } from "~/domain/dates";
import { deliveryTarget, deliveryTemplate } from "~/domain/delivery-labels";
import { statusLabel } from "~/domain/delivery-status";
import { listParams } from "~/domain/list-params";
import { periodRange } from "~/domain/periods";
import { strategyLabel } from "~/domain/strategies";
import { requestNumberLocale } from "~/platform/locale.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { deliveryPages } from "~/reminders/index.server";
import type { Route } from "./+types/report-export";

/**
 * /report.csv: the Reminders Report as CSV, with the report's filters (the
 * `debtor` and `period` query parameters), newest first, every row: streamed, a page of EXPORT_PAGE
 * rows read per statement as the download takes them.
 */
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const timeZone = requestTimeZone(request);
  const { debtorId, period } = listParams(url.searchParams);
  const range = period ? periodRange(period, Date.now(), timeZone) : null;
  const filter = { debtorId, from: range?.from, before: range?.before };
  // The local time in the user's format beside the ISO instant (the column a program reads).
  const local = dateTimeFormatter(timeZone, requestNumberLocale(request, user));
  async function* rows() {
    for await (const page of deliveryPages(db, user.id, filter, EXPORT_PAGE)) {
      yield page.map((d) => {
        const at = d.sentAt ?? d.createdAt;
        return [
          local(at),
          new Date(at).toISOString(),
          deliveryTarget(d),
          deliveryTemplate(d),
          strategyLabel(d.tone),
          statusLabel(d.status),
          d.error,
          d.providerId,
          d.channel === "text" ? "Text" : "E-mail",
        ];
      });
    }
  }
  return csvResponse(
    "reminders-report.csv",
    [`Date (${timeZone})`, "ISO time (UTC)", "Debtor", "Template", "Tone", "Status", "Error", "Message id", "Channel"],
    rows(),
  );
}
