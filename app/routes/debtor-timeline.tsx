import { useId } from "react";
import { data, Link } from "react-router";
import * as v from "valibot";
import { debtorAction } from "~/actions/debtor-action.server";
import { getApp } from "~/auth/context.server";
import { requireUser, requireUserWith } from "~/auth/guard.server";
import { ArchiveMonthLink } from "~/components/archive-month-link";
import { DebtorBalance } from "~/components/debtors/debtor-balance";
import { ChargesTotal } from "~/components/debtors/debtor-charges";
import { DebtorContacts } from "~/components/debtors/debtor-contacts";
import { DebtorInvoices } from "~/components/debtors/debtor-invoices";
import { DebtorPlans } from "~/components/debtors/debtor-plans";
import { DebtorReplies } from "~/components/debtors/debtor-replies";
import { DebtorResponses, DocumentAnswer } from "~/components/debtors/debtor-responses";
import { DebtorStatusBadge, OverdueBadge } from "~/components/debtors/debtor-status";
import { NextReminder, TimelineList } from "~/components/debtors/debtor-timeline";
import { RouteError } from "~/components/route-error";
import { notify } from "~/components/toast";
import { getDb } from "~/db/client.server";
import { SESSION_OWNER } from "~/db/prepared.server";
import { getDebtorTimeline, TIMELINE_LIMIT } from "~/debtors/index.server";
import { otherCurrenciesOwed } from "~/domain/money";
import { chargeViews, debtorToday, invoiceToJson } from "~/ledger/index.server";
import type { ActionResult } from "~/platform/action-result";
import { requestNumberLocale } from "~/platform/locale.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { FormIdSchema } from "~/schemas/ids";
import { pageMeta } from "~/ui/site";
import type { Route } from "./+types/debtor-timeline";

/**
 * /debtors/:id: the owner's debtor's invoices and full timeline (Invoices
 * and Timeline), read in one batch; anyone else's is the 404 page.
 */
export async function loader({ context, params, request, url }: Route.LoaderArgs) {
  const id = v.safeParse(FormIdSchema, params.id);
  const db = getDb(getApp(context).env.DB);
  if (!id.success) {
    await requireUser(context, url);
    throw data(null, { status: 404 });
  }
  // The session's user's debtor, read with the session in one batch (docs/decisions/025).
  let locale: string = requestNumberLocale(request);
  const found = await getDebtorTimeline(db, SESSION_OWNER, id.output, {
    invoices: true,
    run: async (queries) => {
      const read = await requireUserWith(context, url, queries);
      locale = requestNumberLocale(request, read.user);
      return read.rows;
    },
  });
  if (!found) throw data(null, { status: 404 });
  // Payment plans (decisions/066): the debtor's, and what a new one would cover.
  const { invoices, replies, contacts, charges, plans, planTotals, ...timeline } = found;
  return {
    timeline,
    // The debtor's e-mail replies (decisions/020), as text only.
    replies,
    // The debtor's other contacts and their state (decisions/057).
    contacts,
    invoices: invoices.map(invoiceToJson),
    // Their invoices' late-payment charges, each explained (decisions/065).
    charges: chargeViews(charges, locale),
    timeZone: requestTimeZone(request),
    limit: TIMELINE_LIMIT,
    plans,
    planTotals,
    debtorToday: debtorToday(Date.now(), found.debtor.timeZone),
  };
}

/**
 * The Invoices section's writes (add, edit, void) and the answers to what the debtor said on their
 * page (resolve a dispute, allow a new promise), posted to this page: the debtor pages' one action
 * (app/actions/debtor-action.server.ts), so its forms also work before the page hydrates.
 */
export async function action(args: Route.ActionArgs) {
  return debtorAction(args);
}

/** An invoice write's answer as a toast (its field errors show on the form). */
function toastResult(data: ActionResult) {
  if (data.message) notify(data.ok ? "success" : "error", data.message);
}

export default function DebtorTimelinePage({ loaderData }: Route.ComponentProps) {
  const { timeline, invoices, timeZone, limit, replies, contacts, charges, plans, planTotals, debtorToday } =
    loaderData;
  const { debtor, disputes, entries, more, upcoming } = timeline;
  const headingId = useId();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-8">
      <Link to="/debtors-list" className="text-sm text-primary underline-offset-4 hover:underline">
        Back to debtors
      </Link>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="break-words text-3xl font-bold">{debtor.fullName}</h1>
        <DebtorStatusBadge status={debtor.status} />
        {debtor.status === "active" && <OverdueBadge dueOn={debtor.oldestDueOn} />}
      </div>
      <p className="break-all text-muted">{debtor.email}</p>
      <p data-testid="timeline-balance">
        <DebtorBalance debtor={debtor} show="summary" others={otherCurrenciesOwed(invoices, debtor.currency)} />
      </p>
      <ChargesTotal charges={charges} />
      <section aria-label="Next reminder" className="rounded-xl border border-border bg-surface p-4">
        <NextReminder upcoming={upcoming} timeZone={timeZone} />
      </section>
      <DocumentAnswer />
      {(debtor.promisedOn || debtor.promiseBrokenAt !== null || disputes.length > 0) && (
        <section aria-label="The debtor's answers" className="rounded-xl border border-border bg-surface p-4">
          <DebtorResponses debtor={debtor} disputes={disputes} timeZone={timeZone} />
        </section>
      )}
      <DebtorPlans
        debtorId={debtor.id}
        debtorName={debtor.fullName}
        plans={plans}
        totals={planTotals}
        today={debtorToday}
      />
      {replies.length > 0 && (
        <section aria-label="Replies" className="rounded-xl border border-border bg-surface p-4">
          <DebtorReplies debtor={debtor} invoices={invoices} replies={replies} timeZone={timeZone} />
        </section>
      )}
      <div className="rounded-xl border border-border bg-surface p-4">
        <DebtorContacts debtor={debtor} contacts={contacts} onResult={toastResult} />
      </div>
      <div className="rounded-xl border border-border bg-surface p-4">
        <DebtorInvoices
          debtor={debtor}
          state={{ invoices }}
          onResult={toastResult}
          heading="h2"
          charges={charges}
          timeZone={timeZone}
        />
      </div>
      <section
        aria-labelledby={headingId}
        className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
      >
        <h2 id={headingId} className="text-xl font-semibold">
          Timeline
        </h2>
        <TimelineList
          entries={entries}
          currency={debtor.currency}
          timeZone={timeZone}
          labelledBy={headingId}
          emptyText={
            timeline.archived.length > 0
              ? "Nothing in the last 13 months; older history is in the archive below."
              : undefined
          }
        />
        {more && (
          <p className="text-sm text-muted" data-testid="timeline-more">
            {`Showing the latest ${limit} entries; older ones are not shown.`}
          </p>
        )}
        <ArchivedMonths archived={timeline.archived} />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load this debtor." />;
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  pageMeta(loaderData?.timeline ? `${loaderData.timeline.debtor.fullName} · Timeline` : "Timeline");

/**
 * Where older history went (docs/decisions/022): e-mails older than 13 months are in the account's
 * archive, a file per month, each linked for download (the whole account's e-mails of that month).
 */
function ArchivedMonths({ archived }: { archived: { month: string; n: number }[] }) {
  if (archived.length === 0) return null;
  const total = archived.reduce((sum, m) => sum + m.n, 0);
  return (
    <div className="text-sm text-muted" data-testid="timeline-archived">
      <p>
        {`${total} older ${total === 1 ? "e-mail" : "e-mails"} to this debtor (more than 13 months old) moved to the archive. Download a month (every e-mail of your account that month, one per line as JSON):`}
      </p>
      <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1">
        {archived.map((m) => (
          <li key={m.month}>
            <ArchiveMonthLink month={m.month} count={m.n} />
          </li>
        ))}
      </ul>
    </div>
  );
}
