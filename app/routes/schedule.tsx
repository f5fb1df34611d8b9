import { useCallback, useState } from "react";
import { Link } from "react-router";
import { scheduleAction } from "~/actions/schedule-action.server";
import { getApp } from "~/auth/context.server";
import { requireUserWith } from "~/auth/guard.server";
import { noWayToPay, waysToPayQuery } from "~/bank/index.server";
import { NoWayToPay } from "~/components/no-way-to-pay";
import { RouteError } from "~/components/route-error";
import { EmailPreview } from "~/components/schedules/email-preview";
import { ScheduleForm, type ScheduleFormWatch } from "~/components/schedules/schedule-form";
import { notify } from "~/components/toast";
import { getDb } from "~/db/client.server";
import { OWNER_ID, preparedQuery, SESSION_OWNER } from "~/db/prepared.server";
import { debtorChoiceOf, debtorChoiceQuery, listOrganizations } from "~/debtors/index.server";
import { DEFAULT_FREQUENCY } from "~/domain/frequencies";
import { DEFAULT_PRESET } from "~/domain/presets";
import { senderDisplayName } from "~/domain/sender";
import { toTone } from "~/domain/strategies";
import { SCHEDULE_SOMETHING_WRONG } from "~/schemas/messages";
import { stripeSetup } from "~/stripe/index.server";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/schedule";

/** The form's statements, built once per isolate (app/db/prepared.server.ts): only the owner is bound. */
const NEW_SCHEDULE = {
  debtorChoice: preparedQuery((db) => debtorChoiceQuery(db, OWNER_ID)),
  organizations: preparedQuery((db) => listOrganizations(db, OWNER_ID)),
  waysToPay: preparedQuery((db) => waysToPayQuery(db, OWNER_ID)),
};

export async function loader({ context, url }: Route.LoaderArgs) {
  const { env, config } = getApp(context);
  const db = getDb(env.DB);
  // One round trip (a D1 batch), the session's with it (docs/decisions/025).
  const {
    user,
    rows: [choiceRows, organizations, ways],
  } = await requireUserWith(context, url, [
    NEW_SCHEDULE.debtorChoice(db, { ownerId: SESSION_OWNER }),
    NEW_SCHEDULE.organizations(db, { ownerId: SESSION_OWNER }),
    NEW_SCHEDULE.waysToPay(db, { ownerId: SESSION_OWNER }),
  ] as const);
  return {
    ...debtorChoiceOf(choiceRows),
    organizations,
    userName: senderDisplayName(user),
    // Warned before anything is sent: the reminders would offer no way to pay.
    noWayToPay: noWayToPay(ways[0], stripeSetup(config, env) !== null),
  };
}

export async function action(args: Route.ActionArgs) {
  return scheduleAction(args);
}

export default function NewSchedule({ loaderData }: Route.ComponentProps) {
  const { debtors, searchDebtors } = loaderData;
  const [watch, setWatch] = useState<ScheduleFormWatch>({
    preset: DEFAULT_PRESET,
    frequency: DEFAULT_FREQUENCY,
    debtorId: "",
    organizationId: "",
    dueDate: "",
  });
  const onWatch = useCallback((w: ScheduleFormWatch) => setWatch(w), []);
  const tone = toTone(watch.debtorStrategy ?? debtors.find((d) => String(d.id) === watch.debtorId)?.activeStrategy);

  return (
    <section className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="mb-6 text-3xl font-bold">New schedule</h1>
      {loaderData.noWayToPay && <NoWayToPay />}
      {debtors.length === 0 && !searchDebtors ? (
        <div className="rounded-xl border border-border bg-surface p-6">
          <p className="text-lg font-semibold">Add a debtor to get started</p>
          <Link to="/debtors-list" className="mt-2 inline-block text-primary underline">
            Manage debtors
          </Link>
        </div>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,24rem)_1fr]">
          <div className="rounded-xl border border-border bg-surface p-4 sm:p-6">
            <ScheduleForm
              options={loaderData}
              action="/schedule"
              redirectTo="/schedules-list"
              onWatch={onWatch}
              onDone={(data) => {
                // A saved schedule redirects to /schedules-list with its toast; this is what failed.
                if (!data.ok) notify("error", data.message ?? SCHEDULE_SOMETHING_WRONG);
              }}
            />
          </div>
          <EmailPreview
            presetId={watch.preset}
            frequency={watch.frequency}
            tone={tone}
            values={{ debtorId: watch.debtorId, organizationId: watch.organizationId, dueDate: watch.dueDate }}
            cadence={watch.frequency === "due" ? watch : null}
          />
        </div>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load the new schedule form." />;
}

export const meta: Route.MetaFunction = () => pageMeta("New schedule");
