import { useEffect } from "react";
import { loadSchedulesPage } from "~/actions/schedules-data.server";
import { getApp } from "~/auth/context.server";
import { ListPage, SignedOutList } from "~/components/lists/list-page";
import { ListSearch } from "~/components/lists/list-search";
import { RouteError } from "~/components/route-error";
import { SchedulesTable } from "~/components/schedules/schedules-table";
import { notify } from "~/components/toast";
import { getDb } from "~/db/client.server";
import { scheduleSearchParams } from "~/domain/list-params";
import { requestTimeZone } from "~/platform/time-zone.server";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/schedules-list";

// A public route: data is only fetched when a user is signed in (docs/product-spec.md §2 route table).
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const { env, session } = getApp(context);
  const timeZone = requestTimeZone(request);
  const data = await loadSchedulesPage(session, getDb(env.DB), url, timeZone);
  if (!data) return { signedIn: false as const, timeZone };
  // The search and order the list was loaded with, for the form.
  return { signedIn: true as const, timeZone, ...data, ...scheduleSearchParams(url.searchParams) };
}

export default function SchedulesList({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    if (loaderData.signedIn && loaderData.error) notify("error", "Error fetching schedules");
  }, [loaderData]);
  if (!loaderData.signedIn) {
    return (
      <SignedOutList
        heading="Scheduled reminders"
        empty="No schedules found"
        path="/schedules-list"
        what="your reminders"
      />
    );
  }
  const { schedules, total, page, pages, period, timeZone, q, sort, dir } = loaderData;
  return (
    <ListPage
      backLabel="Back to Dashboard"
      total={total}
      singular="schedule"
      plural="schedules"
      countTestId="schedule-count"
      page={page}
      pages={pages}
      search={
        <ListSearch
          id="schedules-search"
          label="Search schedules"
          placeholder="Debtor's name or e-mail"
          q={q}
          sort={sort}
          dir={dir}
          sorts={SCHEDULE_SORT_OPTIONS}
          keep={["debtor", "period"]}
        />
      }
    >
      <SchedulesTable schedules={schedules} area="page" headingLevel={1} timeZone={timeZone} period={period} />
    </ListPage>
  );
}

const SCHEDULE_SORT_OPTIONS = [
  { value: "created", label: "Created" },
  { value: "next", label: "Next run" },
  { value: "debtor", label: "Debtor" },
] as const;

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your scheduled reminders." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Scheduled reminders");
