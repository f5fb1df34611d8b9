import { TriangleAlert } from "lucide-react";
import { type ComponentType, lazy, Suspense, useEffect, useState } from "react";
import { Link, redirect } from "react-router";
import { debtorAction } from "~/actions/debtor-action.server";
import { scheduleFilterFromUrl, schedulesPage } from "~/actions/schedules-data.server";
import { getApp } from "~/auth/context.server";
import { requireUser, requireUserWith } from "~/auth/guard.server";
import { DebtorResponsesNotice } from "~/components/dashboard/debtor-responses-notice";
import { MoneySummary } from "~/components/dashboard/money-summary";
import type { ChartPoint } from "~/components/dashboard/notifications-chart";
import { PaidClaimsNotice } from "~/components/dashboard/paid-claims-notice";
import { DebtorsTable } from "~/components/debtors/debtors-table";
import { DebtorCombobox } from "~/components/lists/debtor-combobox";
import { useSetQueryParam } from "~/components/lists/use-set-query-param";
import { RouteError } from "~/components/route-error";
import { SchedulesTable } from "~/components/schedules/schedules-table";
import { notify } from "~/components/toast";
import { countOf, getDb } from "~/db/client.server";
import { type Bound, bindParam, OWNER_ID, preparedQuery, runBound, SESSION_OWNER } from "~/db/prepared.server";
import { debtorRowOf, listDebtors, listOrganizations } from "~/debtors/index.server";
import { parseDebtorId } from "~/domain/list-params";
import { localDateString } from "~/domain/schedule-time";
import { moneyOf, moneyStatement } from "~/ledger/index.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import {
  accountSentQuery,
  deliveryTotals,
  monthlySentQuery,
  monthlySentSince,
  monthlySeries,
  withNextRunWhat,
} from "~/reminders/index.server";
import {
  countBouncingDebtors,
  DEBTOR_RESPONSES_LIMIT,
  debtorResponsesOf,
  debtorResponsesQuery,
  OPT_OUT_ANSWER_DAYS,
  paidClaimsOf,
  paidClaimsQuery,
  paidClaimView,
} from "~/responses/index.server";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/dashboard";

// The chart (a small SVG of our own) loads in the browser after the page is up, never in the first
// bundle. Client only: it renders after hydration, so the server build leaves it out (a constant
// import.meta.env.SSR drops the import there), which keeps the Worker bundle lean.
const NotificationsChart = lazy<ComponentType<{ data: ChartPoint[] }>>(async () =>
  import.meta.env.SSR ? { default: () => null } : import("~/components/dashboard/notifications-chart"),
);

/**
 * The dashboard's debtors card shows the first few; 'View All Debtors' leads to the paginated list
 *.
 */
const DASHBOARD_DEBTORS = 10;

/**
 * The dashboard's queries whose SQL never changes, built once per isolate (app/db/prepared.server.ts):
 * only the owner, the chosen debtor and the chart's first instant are bound on each request.
 */
const DASHBOARD = {
  firstDebtors: preparedQuery((db) => listDebtors(db, OWNER_ID, { limit: DASHBOARD_DEBTORS + 1 })),
  organizations: preparedQuery((db) => listOrganizations(db, OWNER_ID)),
  selected: preparedQuery((db) => listDebtors(db, OWNER_ID, { id: bindParam("id"), limit: 1 })),
  sent: preparedQuery((db) => monthlySentQuery(db, OWNER_ID, bindParam("debtorId"), bindParam("since"))),
  sentByAccount: preparedQuery((db) => accountSentQuery(db, OWNER_ID, bindParam("since"))),
  totals: preparedQuery((db) => deliveryTotals(db, OWNER_ID)),
  bouncing: preparedQuery((db) => countBouncingDebtors(db, OWNER_ID)),
  paidClaims: preparedQuery((db) => paidClaimsQuery(db, OWNER_ID)),
  // One more than it shows: whether there are more.
  responses: preparedQuery((db) =>
    debtorResponsesQuery(db, OWNER_ID, { optedOutSince: bindParam("since"), limit: DEBTOR_RESPONSES_LIMIT + 1 }),
  ),
};

/** The dashboard of the whole account: the debtor filter dropped, the other query parameters kept. */
function wholeAccount(url: URL) {
  url.searchParams.delete("debtor");
  const query = url.searchParams.toString();
  return redirect(query ? `/dashboard?${query}` : "/dashboard");
}

/**
 * Every query of the page in one D1 batch, each once: the first
 * DASHBOARD_DEBTORS debtors (and whether there are more), the debtor the user filtered to by id
 * (with its count; it may be past the first page: the dropdown reaches every debtor), the
 * cards, and the money figures counted on the user's today. One round trip instead of eleven: each costs the Worker more than the rows it brings
 *; only if the batch fails are they tried one by one. It opens on the whole account; `?debtor=`
 * filters the reminders card, the chart and the schedules to one debtor, and says so. A filter that
 * is not one of the user's debtors (another's, a deleted one, a typo) leads back to the whole account.
 */
export async function loader({ context, request, url }: Route.LoaderArgs) {
  const db = getDb(getApp(context).env.DB);
  const param = url.searchParams.get("debtor");
  const paramId = parseDebtorId(param);
  if (param !== null && (paramId === null || String(paramId) !== param)) throw wholeAccount(url);
  const selectedId = paramId !== null && String(paramId) === param ? paramId : null;
  const timeZone = requestTimeZone(request);
  const now = Date.now();
  // The user's date: the money figures' buckets and month, and "Confirm payment"'s form without JavaScript.
  const today = localDateString(now, timeZone);
  const schedulesFilter = scheduleFilterFromUrl(url, timeZone, now);
  // The whole account: the one-debtor statements match nothing, and the other way round.
  const chosen = selectedId ?? -1;
  const since = monthlySentSince(timeZone, now);
  // The session's user, read in the same batch (docs/decisions/025).
  const owner = { ownerId: SESSION_OWNER };
  const queries = [
    DASHBOARD.firstDebtors(db, owner),
    DASHBOARD.organizations(db, owner),
    DASHBOARD.selected(db, { ...owner, id: chosen }),
    // Prepared per shape, or built on this request when the URL searches or picks a period.
    schedulesPage(db, SESSION_OWNER, schedulesFilter.filter, schedulesFilter.page),
    DASHBOARD.sent(db, { ...owner, debtorId: chosen, since }),
    DASHBOARD.sentByAccount(db, { ...owner, since: selectedId === null ? since : Number.MAX_SAFE_INTEGER }),
    DASHBOARD.totals(db, owner),
    DASHBOARD.bouncing(db, owner),
    // Debtors who said "I've paid", for the notice.
    DASHBOARD.paidClaims(db, owner),
    // Promises and disputes from the debtors' pages.
    DASHBOARD.responses(db, { ...owner, since: now - OPT_OUT_ANSWER_DAYS * 86_400_000 }),
    // The money: aging per currency, the oldest debts, the payments' figures.
    moneyStatement(db, SESSION_OWNER, today),
  ] as const;
  // The statements of a batch run as one, so one failing statement fails them all. Then each is
  // tried on its own: spec §8 wants a failed organizations load only logged and the rest shown,
  // and 'Error fetching debtors' / 'Error fetching schedules' only for what really failed.
  // No valid session: requireUserWith redirects as requireUser does.
  const { user, rows } = await requireUserWith(context, url, queries).catch(async (error) => {
    if (error instanceof Response) throw error;
    console.error("[dunly] the dashboard's batch failed; loading its parts one by one", error);
    const user = await requireUser(context, url);
    const part = <T,>(query: Bound<T>, what: string) =>
      runBound(query, user.id).then(
        (rows) => rows,
        (failure) => {
          console.error(`[dunly] ${what} failed to load`, failure);
          return null;
        },
      );
    const rows = await Promise.all([
      part(queries[0], "debtors"),
      part(queries[1], "organizations"),
      part(queries[2], "the selected debtor"),
      part(queries[3], "schedules"),
      part(queries[4], "the chart"),
      part(queries[5], "the account's chart"),
      part(queries[6], "the account's count"),
      part(queries[7], "the bouncing count"),
      part(queries[8], "the paid claims"),
      part(queries[9], "the debtors' answers"),
      part(queries[10], "the money figures"),
    ]);
    return { user, rows };
  });
  const [
    debtors,
    organizations,
    selectedRows,
    schedules,
    sent,
    sentByAccount,
    totals,
    bouncing,
    paidClaims,
    responses,
    money,
  ] = rows;
  const selected = selectedId === null ? null : (selectedRows?.[0] ?? null);
  // Not one of the user's debtors (another's, or deleted): the whole account instead.
  if (selectedId !== null && selectedRows && !selected) throw wholeAccount(url);
  const accountSent = totals
    ? totals.filter((t) => t.status === "sent" && t.total === 1).reduce((sum, t) => sum + t.n, 0)
    : null;
  return {
    // The Add Debtor form starts in the account's currency.
    accountCurrency: user.defaultCurrency,
    // A debtor without a language is written to in the user's (its name follows their number format).
    userLocale: user.locale,
    debtors: debtors?.slice(0, DASHBOARD_DEBTORS).map(debtorRowOf) ?? [],
    moreDebtors: (debtors?.length ?? 0) > DASHBOARD_DEBTORS,
    debtorsError: debtors === null,
    organizations: organizations ?? [],
    organizationsError: organizations === null,
    selectedId: selected?.id ?? null,
    selected: selected && {
      id: selected.id,
      fullName: selected.fullName,
      email: selected.email,
      emailsSent: selected.emailsSent,
    },
    timeZone,
    schedules: schedules ? withNextRunWhat(schedules) : [],
    schedulesError: schedules === null,
    period: schedulesFilter.period,
    chart: selected
      ? sent
        ? monthlySeries(sent, timeZone, now)
        : null
      : sentByAccount
        ? monthlySeries(sentByAccount, timeZone, now)
        : null,
    // Reminders sent: the filtered debtor's, or the account's as the Report counts them.
    sentCount: selected ? selected.emailsSent : accountSent,
    bouncing: bouncing ? countOf(bouncing) : 0,
    // What each debtor said, dates in the user's format.
    paidClaims: paidClaimsOf(paidClaims ?? []).map((c) => paidClaimView(c, requestNumberLocale(request, user))),
    // The date "Confirm payment"'s form starts with when it shows without JavaScript.
    today,
    responses: debtorResponsesOf(responses ?? []).slice(0, DEBTOR_RESPONSES_LIMIT),
    moreResponses: (responses?.length ?? 0) > DEBTOR_RESPONSES_LIMIT,
    money: moneyOf(today, money),
    moneyError: money === null,
  };
}

export async function action(args: Route.ActionArgs) {
  return debtorAction(args);
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { debtors, organizations, selected } = loaderData;
  const setQueryParam = useSetQueryParam();

  useEffect(() => {
    if (loaderData.debtorsError) notify("error", "Error fetching debtors", "dashboard");
  }, [loaderData.debtorsError]);
  useEffect(() => {
    if (loaderData.schedulesError) notify("error", "Error fetching schedules", "dashboard");
  }, [loaderData.schedulesError]);

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8">
      <h1 className="sr-only">Dashboard</h1>
      <MoneySummary money={loaderData.money} failed={loaderData.moneyError} />
      <BouncingNotice count={loaderData.bouncing} />
      <PaidClaimsNotice claims={loaderData.paidClaims} timeZone={loaderData.timeZone} today={loaderData.today} />
      <DebtorResponsesNotice
        responses={loaderData.responses}
        more={loaderData.moreResponses}
        timeZone={loaderData.timeZone}
      />
      <section aria-labelledby="reminders-heading" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            {/* The figure is the filtered debtor's (all time, test sends aside) or the account's: the heading says whose. */}
            <h2 id="reminders-heading" className="break-words text-sm font-medium text-muted">
              {selected ? `Reminders sent to ${selected.fullName}` : "Reminders sent, whole account"}
            </h2>
            <p className="text-4xl font-black" data-testid="reminders-sent">
              {loaderData.sentCount ?? "—"}
            </p>
          </div>
          <DebtorCombobox
            id="debtor-select"
            label="Filter by debtor"
            selected={selected}
            disabled={debtors.length === 0}
            onSelect={(d) => setQueryParam("debtor", String(d.id))}
          />
        </div>
        {selected && (
          <p className="mt-3 flex flex-wrap items-center gap-2 text-sm" data-testid="debtor-filter">
            <span className="rounded-full border border-primary px-3 py-1">{`Filtered to ${selected.fullName}`}</span>
            <Link to="/dashboard" className="text-primary underline-offset-4 hover:underline">
              Show the whole account
            </Link>
          </p>
        )}
        <Link to="/report" className="mt-4 inline-block text-sm text-primary underline-offset-4 hover:underline">
          Reminders Report
        </Link>
      </section>

      <ChartCard data={loaderData.chart} debtorName={selected?.fullName ?? null} />

      <div className="flex flex-col gap-2">
        <SchedulesTable
          schedules={loaderData.schedules}
          area="dashboard"
          timeZone={loaderData.timeZone}
          period={loaderData.period}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm text-muted" data-testid="schedules-scope">
            {selected ? `Showing the schedules of ${selected.fullName}.` : "Showing your schedules."}
          </p>
          <Link to="/schedules-list" className="ml-auto text-sm text-primary underline-offset-4 hover:underline">
            View All Schedules
          </Link>
        </div>
      </div>

      <div className="flex flex-col gap-2">
        <DebtorsTable
          debtors={debtors}
          area="dashboard"
          accountCurrency={loaderData.accountCurrency}
          userLocale={loaderData.userLocale}
        />
        <div className="flex flex-wrap items-center justify-between gap-2">
          {loaderData.moreDebtors && (
            <p className="text-sm text-muted" data-testid="debtors-scope">
              {`Showing your first ${DASHBOARD_DEBTORS} debtors.`}
            </p>
          )}
          <Link to="/debtors-list" className="ml-auto text-sm text-primary underline-offset-4 hover:underline">
            View All Debtors
          </Link>
        </div>
      </div>

      <section aria-labelledby="orgs-heading" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
        <div className="mb-3 flex items-center justify-between">
          <h2 id="orgs-heading" className="text-xl font-bold">
            Organizations
          </h2>
          <Link to="/iam/orgs" className="text-sm text-primary underline-offset-4 hover:underline">
            Manage
          </Link>
        </div>
        {loaderData.organizationsError ? null : organizations.length === 0 ? (
          <p className="text-muted">You have not added any organizations yet.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2">
            {organizations.map((o) => (
              <li key={o.id} className="rounded-lg border border-border bg-background p-3">
                <p className="font-semibold">{o.name}</p>
                <p className="whitespace-pre-line text-sm text-muted">{o.address}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

/** Debtors whose address bounced: their schedules are paused until the address is fixed. */
function BouncingNotice({ count }: { count: number }) {
  if (count <= 0) return null;
  const text =
    count === 1
      ? "1 debtor's address is bouncing: reminders to them are paused."
      : `${count} debtors' addresses are bouncing: reminders to them are paused.`;
  return (
    <section
      aria-labelledby="bouncing-heading"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-danger bg-surface p-4"
      data-testid="bouncing-notice"
    >
      <div className="flex items-start gap-2">
        <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0 text-danger" aria-hidden />
        <h2 id="bouncing-heading" className="text-sm font-medium">
          {text}
        </h2>
      </div>
      <Link to="/debtors-list" className="text-sm text-primary underline-offset-4 hover:underline">
        Review debtors
      </Link>
    </section>
  );
}

/** Reminders sent per month to the selected debtor; the numbers are also a table for screen readers. */
function ChartCard({ data, debtorName }: { data: ChartPoint[] | null; debtorName: string | null }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const skeleton = <div className="h-[240px] animate-pulse rounded-lg bg-background" aria-hidden />;
  return (
    <section aria-labelledby="chart-heading" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
      <h2 id="chart-heading" className="text-xl font-bold">
        Reminders per month
      </h2>
      <p className="mb-3 text-sm text-muted">
        {debtorName
          ? `Reminders sent to ${debtorName}, last six months`
          : "Reminders sent to all your debtors, last six months"}
      </p>
      {data && (
        <>
          {/* Drawn for the eye only (inert: no tab stop, nothing to read); the table below has the numbers. */}
          <div aria-hidden inert>
            {mounted ? (
              <Suspense fallback={skeleton}>
                <NotificationsChart data={data} />
              </Suspense>
            ) : (
              skeleton
            )}
          </div>
          <table className="sr-only">
            <caption>Reminders sent per month</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Reminders sent</th>
              </tr>
            </thead>
            <tbody>
              {data.map((p) => (
                <tr key={p.month}>
                  <td>{p.month}</td>
                  <td>{p.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your dashboard." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Dashboard");
