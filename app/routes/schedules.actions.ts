import { requireUser } from "~/auth/guard.server";
import { getApp } from "~/lib/context.server";
import { requestTimeZone } from "~/lib/time-zone.server";
import { handleScheduleIntent } from "~/models/schedule-actions.server";
import type { Route } from "./+types/schedules.actions";

/** POST only: schedule edit, delete, send now and the debtors' re-send (fetchers post here). */
export async function action({ context, request, url }: Route.ActionArgs) {
  const user = requireUser(context, url);
  const formData = await request.formData();
  return handleScheduleIntent(
    getApp(context).env,
    user.id,
    String(formData.get("intent") ?? ""),
    formData,
    requestTimeZone(request),
  );
}
