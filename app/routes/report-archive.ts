import { data } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { archiveObjectKey, isMonth } from "~/domain/archive-months";
import { csvHeaders } from "~/domain/csv-export";
import type { Route } from "./+types/report-archive";

/**
 * /report/archive/:month: the signed-in user's archive file of a month (docs/decisions/022), one
 * delivery a line as JSON, every column, streamed from the ARCHIVE bucket. The key is built from
 * the session's user, so no one reaches another account's file: theirs, a month without a file
 * or not a month at all answer 404 alike.
 */
export async function loader({ context, params, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const month = params.month;
  const object = isMonth(month) ? await getApp(context).env.ARCHIVE.get(archiveObjectKey(user.id, month)) : null;
  if (!object) throw data(null, { status: 404 });
  return new Response(object.body, {
    headers: {
      ...csvHeaders(`reminders-${month}.ndjson`),
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Length": String(object.size),
    },
  });
}
