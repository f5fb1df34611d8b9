import { useCallback, useState } from "react";
import { Link, useNavigate } from "react-router";
import { requireUser } from "~/auth/guard.server";
import { EmailPreview } from "~/components/schedules/email-preview";
import { ScheduleForm, type ScheduleFormWatch } from "~/components/schedules/schedule-form";
import { notify } from "~/components/toast";
import { getDb } from "~/db/client.server";
import { FREQUENCIES } from "~/domain/frequencies";
import { getApp } from "~/lib/context.server";
import { listDebtorOptions } from "~/models/debtor.server";
import { listOrganizations } from "~/models/organization.server";
import type { Route } from "./+types/schedule";

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const [debtors, organizations] = await Promise.all([listDebtorOptions(db, user.id), listOrganizations(db, user.id)]);
  return { debtors, organizations, userName: user.fullName || user.email };
}

export default function NewSchedule({ loaderData }: Route.ComponentProps) {
  const { debtors } = loaderData;
  const navigate = useNavigate();
  const [watch, setWatch] = useState<ScheduleFormWatch>({ preset: "", frequency: FREQUENCIES[0]!.id, debtorId: "" });
  const onWatch = useCallback((w: ScheduleFormWatch) => setWatch(w), []);
  const tone = debtors.find((d) => String(d.id) === watch.debtorId)?.activeStrategy ?? 1;

  return (
    <section className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="mb-6 text-3xl font-bold">New schedule</h1>
      {debtors.length === 0 ? (
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
              onWatch={onWatch}
              onDone={(data) => {
                if (!data.ok) {
                  notify("error", data.message ?? "Something went wrong.");
                  return;
                }
                notify("success", data.message ?? "Email reminder scheduled.");
                navigate("/schedules-list");
              }}
            />
          </div>
          <EmailPreview presetId={watch.preset} frequency={watch.frequency} tone={tone} />
        </div>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "New schedule · Dunly" }];
