import { useEffect } from "react";
import { Link } from "react-router";
import { SchedulesTable } from "~/components/schedules/schedules-table";
import { notify } from "~/components/toast";
import { Pager } from "~/components/ui/pager";
import { getDb } from "~/db/client.server";
import { getApp } from "~/lib/context.server";
import { requestTimeZone } from "~/lib/time-zone.server";
import type { Route } from "./+types/schedules-list";
import { loadSchedulesPage } from "./schedules-data.server";

// A public route: data is only fetched when a user is signed in (docs/product-spec.md §2 route table).
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { user, env } = getApp(context);
  const timeZone = requestTimeZone(request);
  if (!user) return { signedIn: false as const, timeZone };
  const data = await loadSchedulesPage(getDb(env.DB), user.id, url, timeZone, true);
  return { signedIn: true as const, timeZone, ...data };
}

export default function SchedulesList({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    if (loaderData.signedIn && loaderData.error) notify("error", "Error fetching schedules");
  }, [loaderData]);
  if (!loaderData.signedIn) {
    return (
      <section className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-3xl font-bold">Scheduled reminders</h1>
        <p className="mt-4 text-muted">No schedules found</p>
        <p className="mt-2">
          <Link to="/?redirectTo=%2Fschedules-list#sign-in" className="text-primary underline">
            Sign in
          </Link>{" "}
          to see and manage your reminders.
        </p>
      </section>
    );
  }
  const { schedules, total, page, pages, period, timeZone } = loaderData;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link to="/dashboard" className="text-sm text-primary underline-offset-4 hover:underline">
          Back to Dashboard
        </Link>
        <p className="text-muted" data-testid="schedule-count">
          {total} {total === 1 ? "schedule" : "schedules"}
        </p>
      </div>
      <SchedulesTable schedules={schedules} area="page" headingLevel={1} timeZone={timeZone} period={period} />
      <Pager page={page} pages={pages} />
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Scheduled reminders · Dunly" }];
