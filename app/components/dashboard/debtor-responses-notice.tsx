import { MessageSquareWarning } from "lucide-react";
import { Link } from "react-router";
import {
  AllowPromiseButton,
  DocumentAnswer,
  PlanRequestAnswers,
  ReplyAnswers,
  ResolveDisputeButton,
} from "~/components/debtors/debtor-responses";
import { formatDate, formatDayOf } from "~/domain/dates";
import { invoiceLabel } from "~/domain/dispute";
import { formatMoney } from "~/domain/money";
import type { DebtorResponse } from "~/responses/index.server";
import { useLocale } from "~/ui/root-data";

/** One line of the notice: "Ana Ruiz promised to pay by 30 Dec 2026". */
function lineOf(r: DebtorResponse, timeZone: string, locale: string): string {
  switch (r.kind) {
    case "promised":
      return `${r.fullName} promised to pay by ${formatDate(r.date ?? "", locale)}`;
    case "promise_broken":
      return `${r.fullName} did not pay by the date they promised${r.at !== null ? ` (${formatDayOf(r.at, timeZone, locale)})` : ""}: reminders resumed`;
    case "disputed":
      return `${r.fullName} disputed ${invoiceLabel({ number: r.invoiceNumber, dueOn: r.date ?? "" })}: ${r.reason ?? ""}`;
    case "opted_out":
      return `${r.fullName} opted out of your reminders${r.at !== null ? ` (${formatDayOf(r.at, timeZone, locale)})` : ""}`;
    case "paid_online": {
      const [cents, currency] = (r.reason ?? "").split(" ");
      const amount = currency ? formatMoney(Number(cents), currency) : "";
      return `${r.fullName} paid ${amount} online${r.at !== null ? ` (${formatDayOf(r.at, timeZone, locale)})` : ""}`;
    }
    case "replied":
      return `${r.fullName} replied: ${r.reason || "(no subject)"} (reminders held)`;
    case "plan_requested": {
      const [cents, currency, count] = (r.reason ?? "").split(" ");
      const amount = currency ? formatMoney(Number(cents), currency, locale) : "";
      return `${r.fullName} asked to pay ${amount} in ${count} instalments from ${formatDate(r.date ?? "", locale)} (reminders held)`;
    }
  }
}

/**
 * What debtors said on their pages, one list: promises
 * pending, promises broken (with "Allow a new promise"), disputes open (with "Resolve dispute"),
 * opt-outs (the debtor's timeline offers "Record renewed consent"),
 * each line linking to the debtor's timeline. Read in the dashboard's batch (debtorResponsesQuery).
 */
export function DebtorResponsesNotice({
  responses,
  more = false,
  timeZone,
}: {
  responses: DebtorResponse[];
  /** More answers than these, the latest: each debtor's page has all of theirs. */
  more?: boolean;
  timeZone: string;
}) {
  const locale = useLocale();
  if (responses.length === 0) return <DocumentAnswer />;
  return (
    <section
      aria-labelledby="debtor-responses-heading"
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
      data-testid="debtor-responses-notice"
    >
      <div className="flex items-start gap-2">
        <MessageSquareWarning className="mt-0.5 h-5 w-5 shrink-0 text-muted" aria-hidden />
        <h2 id="debtor-responses-heading" className="text-sm font-medium">
          {responses.length === 1
            ? "A debtor answered a reminder."
            : more
              ? `Debtors answered reminders: the ${responses.length} latest.`
              : `Debtors answered reminders (${responses.length}).`}
        </h2>
      </div>
      <DocumentAnswer />
      <ul className="flex flex-col gap-2">
        {responses.map((r) => {
          const key = `${r.kind}-${r.debtorId}-${r.invoiceId ?? r.at ?? ""}`;
          const textId = `response-${key}`;
          return (
            <li
              key={key}
              className="flex flex-col gap-2 rounded-lg border border-border bg-background p-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <Link
                id={textId}
                to={`/debtors/${r.debtorId}`}
                className="break-words text-sm text-primary underline-offset-4 hover:underline"
              >
                {lineOf(r, timeZone, locale)}
              </Link>
              {r.kind === "disputed" && r.invoiceId !== null && (
                <ResolveDisputeButton invoiceId={r.invoiceId} describedBy={textId} area="dashboard" />
              )}
              {r.kind === "replied" && r.invoiceId !== null && (
                <ReplyAnswers replyId={r.invoiceId} debtorId={r.debtorId} describedBy={textId} area="dashboard" />
              )}
              {r.kind === "plan_requested" && r.invoiceId !== null && (
                <PlanRequestAnswers planId={r.invoiceId} describedBy={textId} area="dashboard" />
              )}
              {r.kind === "promise_broken" && (
                <AllowPromiseButton debtorId={r.debtorId} describedBy={textId} area="dashboard" />
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
