import type { LoaderFunctionArgs } from "react-router";
import { data } from "react-router";
import * as v from "valibot";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { getDebtorTimeline, TIMELINE_COMPACT } from "~/debtors/index.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { FormIdSchema } from "~/schemas/ids";

/**
 * The compact timeline of the debtor's Configure modal: the owner's debtor's
 * latest entries and next reminder, and the zone to show them in. Another user's debtor is 404.
 */
export async function compactTimeline({ context, params, request, url }: LoaderFunctionArgs) {
  const user = await requireUser(context, url);
  const timeZone = requestTimeZone(request);
  const id = v.safeParse(FormIdSchema, params.id);
  const timeline = id.success
    ? await getDebtorTimeline(getDb(getApp(context).env.DB), user.id, id.output, { limit: TIMELINE_COMPACT })
    : undefined;
  // Returned, not thrown: the modal's fetcher shows its own message instead of the error boundary.
  if (!timeline) return data({ timeline: null, timeZone }, { status: 404 });
  return { timeline, timeZone };
}
