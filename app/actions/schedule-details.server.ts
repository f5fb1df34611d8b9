import type { LoaderFunctionArgs } from "react-router";
import { data } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { getDb } from "~/db/client.server";
import { debtorChoice, listOrganizations } from "~/debtors/index.server";
import { senderDisplayName } from "~/domain/sender";
import { getScheduleDetails } from "~/reminders/index.server";

/** The configure modal's data: the owner's schedule with its debtor, and the form's options. */
export async function scheduleDetails({ context, params, url }: LoaderFunctionArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const [schedule, choice, organizations] = await Promise.all([
    getScheduleDetails(db, user.id, params.id ?? ""),
    debtorChoice(db, user.id),
    listOrganizations(db, user.id),
  ]);
  // Returned, not thrown: a fetcher that revalidates after a delete must not hit the error boundary.
  if (!schedule) {
    return data(
      { schedule: null, debtors: [], searchDebtors: false, organizations: [], userName: "" },
      { status: 404 },
    );
  }
  return { schedule, ...choice, organizations, userName: senderDisplayName(user) };
}
