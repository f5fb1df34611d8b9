import { Form, Link, useSearchParams, useSubmit } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUserWith } from "~/auth/guard.server";
import { ArchiveMonthLink } from "~/components/archive-month-link";
import { DebtorCombobox } from "~/components/lists/debtor-combobox";
import { AgingTable } from "~/components/money/aging-table";
import { PeriodSelect } from "~/components/period-options";
import { RouteError } from "~/components/route-error";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Pager } from "~/components/ui/pager";
import { getDb } from "~/db/client.server";
import {
  bindParam,
  boundQuery,
  OWNER_ID,
  preparedQuery,
  preparedQueryBy,
  runBound,
  SESSION_OWNER,
} from "~/db/prepared.server";
import { getDebtorOption } from "~/debtors/index.server";
import { formatDateTime } from "~/domain/dates";
import { deliveryTarget, deliveryTemplate } from "~/domain/delivery-labels";
import { statusLabel } from "~/domain/delivery-status";
import { listParams, pageCount, pageOffset } from "~/domain/list-params";
import { periodRange } from "~/domain/periods";
import { localDateString } from "~/domain/schedule-time";
import { strategyLabel } from "~/domain/strategies";
import { agingReportOf, agingStatement } from "~/ledger/index.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import {
  archivedMonths,
  archivedOf,
  DELIVERY_PAGE_SIZE,
  deliveryTotals,
  listDeliveries,
  totalsOf,
} from "~/reminders/index.server";
import { useLocale } from "~/ui/root-data";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/report";

/** Which optional conditions a report's statements carry: one shape each, built once per isolate. */
interface ReportShape {
  debtor: boolean;
  /** The period's start, and its end (none for periods that end now). */
  from: boolean;
  before: boolean;
}
const shapeKey = (s: ReportShape) => `${s.debtor ? "d" : "-"}${s.from ? "f" : "-"}${s.before ? "b" : "-"}`;
const filterOf = (s: ReportShape) => ({
  debtorId: s.debtor ? bindParam("debtorId") : null,
  from: s.from ? bindParam("from") : null,
  before: s.before ? bindParam("before") : null,
});

/**
 * The report's statements, prepared (app/db/prepared.server.ts): building them in drizzle on every
 * request was a twentieth of the page's Worker time. Only the owner, the debtor, the period's
 * instants and the page are bound.
 */
const REPORT = {
  page: preparedQueryBy(shapeKey, (db, s: ReportShape) =>
    listDeliveries(db, OWNER_ID, { ...filterOf(s), limit: DELIVERY_PAGE_SIZE, offset: bindParam("offset") }),
  ),
  totals: preparedQueryBy(shapeKey, (db, s: ReportShape) => deliveryTotals(db, OWNER_ID, filterOf(s))),
  archived: preparedQuery((db) => archivedMonths(db, OWNER_ID)),
};

export async function loader({ context, request, url }: Route.LoaderArgs) {
  const db = getDb(getApp(context).env.DB);
  // The session's user's, read with the session in one batch (docs/decisions/025).
  const owner = SESSION_OWNER;
  const timeZone = requestTimeZone(request);
  const { debtorId, period, page: requested } = listParams(url.searchParams);
  const now = Date.now();
  const range = period ? periodRange(period, now, timeZone) : null;
  const shape = { debtor: Boolean(debtorId), from: range?.from != null, before: range?.before != null };
  const values = { debtorId, from: range?.from, before: range?.before };
  // Receivables by age on the user's today: the whole account's, whatever the filters.
  const today = localDateString(now, timeZone);
  const pageOf = (n: number, ownerId: string) =>
    REPORT.page(db, shape, { ...values, ownerId, offset: pageOffset(n, DELIVERY_PAGE_SIZE) });
  // One round trip (a D1 batch): the session, the page, the totals, the aging and, only if one is
  // chosen, the debtor for the picker's label (the picker searches the rest: /debtors/options).
  // The account's archived months (docs/decisions/022): listed for download, and not in the pages.
  const base = [
    pageOf(requested, owner),
    REPORT.totals(db, shape, { ...values, ownerId: owner }),
    agingStatement(db, owner, today),
    REPORT.archived(db, { ownerId: owner }),
  ] as const;
  const {
    user,
    rows: [requestedRows, counts, agingSums, archived, debtors = []],
  } = debtorId
    ? await requireUserWith(context, url, [...base, boundQuery(db, getDebtorOption(db, owner, debtorId))] as const)
    : await requireUserWith(context, url, base);
  const totals = totalsOf(counts);
  const debtor = debtors[0];
  // The totals count archived months too; the list pages through the live rows only.
  const archivedRows = range ? 0 : debtorId ? archivedOf(counts) : archived.reduce((sum, m) => sum + m.rows, 0);
  const pages = pageCount(totals.all - archivedRows, DELIVERY_PAGE_SIZE);
  // A page past the end shows the last one (only a hand-edited or stale URL asks for it).
  const page = Math.min(requested, pages);
  const deliveries = page === requested ? requestedRows : await runBound(pageOf(page, user.id));
  return {
    deliveries,
    totals,
    debtor: debtor ?? null,
    timeZone,
    debtorId,
    period,
    page,
    pages,
    today,
    // The invoices' principal by age and, apart, the late-payment charges still owed (decisions/067).
    ...agingReportOf(agingSums),
    archived,
  };
}

function Status({ status }: { status: string }) {
  return (
    <Badge
      tone={
        status === "sent"
          ? "good"
          : status === "sending" || status === "deferred" || status === "skipped"
            ? "neutral"
            : "bad"
      }
    >
      {statusLabel(status)}
    </Badge>
  );
}

export default function Report({ loaderData }: Route.ComponentProps) {
  const locale = useLocale();
  const { deliveries, totals, debtor, timeZone, debtorId, period, page, pages, today, aging, charges, archived } =
    loaderData;
  const submit = useSubmit();
  const [, setSearchParams] = useSearchParams();
  // Another debtor: the report's first page for them, the period kept.
  const filterDebtor = (id: number) =>
    setSearchParams(
      (params) => {
        params.set("debtor", String(id));
        params.delete("page");
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8">
      <Link to="/dashboard" className="text-sm text-primary underline-offset-4 hover:underline">
        Back to Dashboard
      </Link>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-3xl font-bold">Reminders Report</h1>
        {/* The same filters as the page: the CSV holds what the report shows, every page of it. */}
        <a
          href={`/report.csv${exportQuery(debtorId, period)}`}
          download
          className="text-sm text-primary underline-offset-4 hover:underline"
        >
          Export CSV
        </a>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        {/* Searches the user's debtors as they type (/debtors/options): the page never ships all of them. */}
        <DebtorCombobox
          id="report-debtor"
          label="Debtor"
          emptyText="All debtors"
          selected={debtor}
          onSelect={(d) => filterDebtor(d.id)}
        />
        {debtorId ? (
          // A link, so it works before hydration too; the period stays.
          <Button asChild variant="outline">
            <Link to={`/report${exportQuery(null, period)}`} replace preventScrollReset>
              All debtors
            </Link>
          </Button>
        ) : null}
        <Form method="get" className="flex flex-wrap items-end gap-3">
          {debtorId ? <input type="hidden" name="debtor" value={debtorId} /> : null}
          <PeriodSelect
            id="report-period"
            name="period"
            defaultValue={period}
            onCommit={(_, select) => submit(select.form, { replace: true, preventScrollReset: true })}
          />
          <noscript>
            <Button type="submit">Filter</Button>
          </noscript>
        </Form>
      </div>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="Totals">
        {(
          [
            ["Total", totals.all],
            ["Sent", totals.sent],
            ["Failed", totals.failed + totals.bounced],
            ["Sending", totals.sending],
            // Stopped on purpose before they left (paid, opted out, held): not failures.
            ["Not sent", totals.skipped],
          ] as const
        ).map(([label, value]) => (
          <div
            key={label}
            className="rounded-xl border border-border bg-surface p-4 first:col-span-2 sm:first:col-span-1"
          >
            <dt className="text-sm text-muted">{label}</dt>
            <dd className="text-3xl font-black" data-testid={`total-${label.toLowerCase().replace(" ", "-")}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>

      {totals.texts.all > 0 && (
        <p className="text-sm text-muted" data-testid="report-texts">
          {`Text messages among them: ${totals.texts.all} (${totals.texts.sent} sent, ${totals.texts.failed + totals.texts.bounced} failed, ${totals.texts.sending} sending, ${totals.texts.skipped} not sent); e-mails: ${totals.all - totals.texts.all}.`}
        </p>
      )}

      <section aria-label="Deliveries" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
        {deliveries.length === 0 ? (
          <p className="py-8 text-center text-muted">No reminders found</p>
        ) : (
          // One row per delivery for every width: a card on narrow screens (app.css, .list-table).
          <table className="list-table">
            <thead>
              <tr>
                <th>Date</th>
                <th>Debtor</th>
                <th>Channel</th>
                <th>Template</th>
                <th>Tone</th>
                <th>Status</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id}>
                  <td data-label="Date" className="md:whitespace-nowrap">
                    {formatDateTime(d.sentAt ?? d.createdAt, timeZone, locale)}
                  </td>
                  <td data-label="Debtor">{deliveryTarget(d)}</td>
                  <td data-label="Channel">{d.channel === "text" ? "Text" : "E-mail"}</td>
                  <td data-label="Template">{deliveryTemplate(d)}</td>
                  <td data-label="Tone">{strategyLabel(d.tone)}</td>
                  <td data-label="Status">
                    <div>
                      <Status status={d.status} />
                      <ProviderId id={d.providerId} />
                    </div>
                  </td>
                  <td data-label="Error">{d.error && <span className="text-danger">{d.error}</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <Pager page={page} pages={pages} />
      {archived.length > 0 && (
        <p className="text-sm text-muted" data-testid="report-archived">
          Reminders more than 13 months old are in the archive, a file per month (one reminder per line, as JSON),
          counted in the totals above:{" "}
          {archived.map((m, i) => (
            <span key={m.month}>
              {i > 0 && " · "}
              <ArchiveMonthLink month={m.month} count={m.rows} />
            </span>
          ))}
        </p>
      )}

      <section aria-labelledby="aging-heading" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
        <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="aging-heading" className="text-xl font-bold">
            Receivables by age
          </h2>
          {/* The same table as CSV, a row per currency. */}
          <a href="/report-aging.csv" download className="text-sm text-primary underline-offset-4 hover:underline">
            Export aging (CSV)
          </a>
        </div>
        <p className="mb-3 text-sm text-muted">All debtors, whatever the filters above.</p>
        {aging.length === 0 && charges.length === 0 ? (
          <p className="py-4 text-center text-muted" data-testid="report-aging-empty">
            Nothing is owed to you yet.
          </p>
        ) : (
          <AgingTable rows={aging} charges={charges} today={today} id="report-aging" />
        )}
      </section>
    </div>
  );
}

/** The report's filters as the export's query string ("" for none). */
function exportQuery(debtorId: number | null | undefined, period: string | null | undefined) {
  const params = new URLSearchParams();
  if (debtorId) params.set("debtor", String(debtorId));
  if (period) params.set("period", period);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** The e-mail provider's message id: what support asks for when a reminder went missing. */
function ProviderId({ id }: { id: string | null }) {
  if (!id) return null;
  return <span className="mt-1 block break-all font-mono text-xs text-muted">{`Message id ${id}`}</span>;
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your reminders report." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Reminders Report");
