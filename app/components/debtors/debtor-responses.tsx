import { Link, useActionData, useFetcher } from "react-router";
import type { debtorAction } from "~/actions/debtor-action.server";
import { notify, type ToastArea } from "~/components/toast";
import { SubmitButton } from "~/components/ui/button";
import type { DisputedInvoice } from "~/debtors/index.server";
import { formatDate, formatDayOf } from "~/domain/dates";
import { invoiceLabel } from "~/domain/dispute";
import { addDays } from "~/domain/promise";
import { isActionResult } from "~/platform/action-result";
import { DEBTOR_RESPONSE_INTENTS, PLAN_INTENTS } from "~/schemas/intents";
import { useLocale } from "~/ui/root-data";
import { useFormResult } from "~/ui/use-form-result";

const {
  resolveDispute: RESOLVE,
  allowPromise: ALLOW,
  replyResume: REPLY_RESUME,
  replyHandled: REPLY_HANDLED,
} = DEBTOR_RESPONSE_INTENTS;
const ANSWERS = [RESOLVE, ALLOW, REPLY_RESUME, REPLY_HANDLED, PLAN_INTENTS.accept, PLAN_INTENTS.decline] as const;

/**
 * What a debtor said on their page that the user answers: "Resolve dispute" on a disputed invoice, "Allow a new promise" after a broken one. Each is
 * a fetcher form posting to the page's own action (the debtor pages' debtorAction: /dashboard,
 * /debtors-list, /debtors/:id), so it also works as a plain form without JavaScript; the answer
 * shows as a toast, or in the markup after a document post (DocumentAnswer).
 */
function AnswerForm({
  intent,
  field,
  value,
  label,
  describedBy,
  area,
  extra = {},
}: {
  extra?: Record<string, string>;
  intent: string;
  field: "invoice_id" | "debtor_id" | "reply_id" | "plan_id";
  value: number;
  label: string;
  describedBy: string;
  area: ToastArea;
}) {
  const fetcher = useFetcher<typeof debtorAction>();
  const busy = fetcher.state !== "idle";
  useFormResult(fetcher, [intent], (data) => {
    if (data.message) notify(data.ok ? "success" : "error", data.message, area);
  });
  return (
    <fetcher.Form method="post">
      <input type="hidden" name={field} value={value} />
      {Object.entries(extra).map(([name, v]) => (
        <input key={name} type="hidden" name={name} value={v} />
      ))}
      <SubmitButton name="intent" value={intent} size="sm" variant="outline" busy={busy} aria-describedby={describedBy}>
        {label}
      </SubmitButton>
    </fetcher.Form>
  );
}

/** After a document post (before hydration, or without JavaScript): the answer, once, in the markup. */
export function DocumentAnswer() {
  const actionData: unknown = useActionData();
  if (!isActionResult(actionData) || !(ANSWERS as readonly string[]).includes(actionData.intent)) return null;
  if (!actionData.message) return null;
  return (
    <p role={actionData.ok ? "status" : "alert"} className={`text-sm ${actionData.ok ? "" : "text-danger"}`}>
      {actionData.message}
    </p>
  );
}

export function ResolveDisputeButton(props: { invoiceId: number; describedBy: string; area: ToastArea }) {
  return (
    <AnswerForm
      intent={RESOLVE}
      field="invoice_id"
      value={props.invoiceId}
      label="Resolve dispute"
      describedBy={props.describedBy}
      area={props.area}
    />
  );
}

/**
 * A payment plan the debtor asked for (decisions/066), answered from the dashboard: "Accept" (with
 * the default grace days; the debtor page chooses others and changes the plan) or "Decline".
 */
export function PlanRequestAnswers(props: { planId: number; describedBy: string; area: ToastArea }) {
  return (
    <div className="flex flex-wrap gap-2">
      <AnswerForm
        intent={PLAN_INTENTS.accept}
        field="plan_id"
        value={props.planId}
        label="Accept plan"
        describedBy={props.describedBy}
        area={props.area}
        extra={{ grace_days: "7" }}
      />
      <AnswerForm
        intent={PLAN_INTENTS.decline}
        field="plan_id"
        value={props.planId}
        label="Decline"
        describedBy={props.describedBy}
        area={props.area}
      />
    </div>
  );
}

export function AllowPromiseButton(props: { debtorId: number; describedBy: string; area: ToastArea }) {
  return (
    <AnswerForm
      intent={ALLOW}
      field="debtor_id"
      value={props.debtorId}
      label="Allow a new promise"
      describedBy={props.describedBy}
      area={props.area}
    />
  );
}

/**
 * A debtor's e-mail reply the user has not handled (decisions/020): "Resume" reminders, "Record a
 * payment" (the debtor's Payments; recording one handles the reply), or "Mark handled".
 */
export function ReplyAnswers(props: { replyId: number; debtorId: number; describedBy: string; area: ToastArea }) {
  return (
    <div className="flex flex-wrap gap-2">
      <AnswerForm
        intent={REPLY_RESUME}
        field="reply_id"
        value={props.replyId}
        label="Resume"
        describedBy={props.describedBy}
        area={props.area}
      />
      <Link
        to={`/debtors/${props.debtorId}#record-payment`}
        className="inline-flex h-8 items-center rounded-md border border-border px-3 text-sm hover:bg-surface"
        aria-describedby={props.describedBy}
      >
        Record a payment
      </Link>
      <AnswerForm
        intent={REPLY_HANDLED}
        field="reply_id"
        value={props.replyId}
        label="Mark handled"
        describedBy={props.describedBy}
        area={props.area}
      />
    </div>
  );
}

/**
 * The debtor's pending answers on their timeline: a promise to pay (until when reminders hold), a
 * broken promise (with "Allow a new promise") and each disputed invoice with its reason (with
 * "Resolve dispute"). Nothing when there is none.
 */
export function DebtorResponses({
  debtor,
  disputes,
  timeZone,
  area = "page",
}: {
  debtor: { id: number; promisedOn: string | null; promiseBrokenAt: number | null };
  disputes: readonly DisputedInvoice[];
  timeZone: string;
  area?: ToastArea;
}) {
  const locale = useLocale();
  if (!debtor.promisedOn && debtor.promiseBrokenAt === null && disputes.length === 0) return null;
  const brokenId = `promise-broken-${debtor.id}`;
  const resumesOn = debtor.promisedOn ? addDays(debtor.promisedOn, 1) : null;
  return (
    <ul className="flex flex-col gap-2 text-sm" data-testid="debtor-responses">
      {debtor.promisedOn && (
        <li className="rounded-lg border border-border bg-background p-3">
          {`Promised to pay by ${formatDate(debtor.promisedOn, locale)}: reminders are held and resume on ${formatDate(resumesOn ?? debtor.promisedOn, locale)} if something is still open.`}
        </li>
      )}
      {debtor.promiseBrokenAt !== null && (
        <li className="flex flex-col gap-2 rounded-lg border border-border bg-background p-3 sm:flex-row sm:items-center sm:justify-between">
          <p id={brokenId}>
            {`A promise to pay passed unpaid (${formatDayOf(debtor.promiseBrokenAt, timeZone, locale)}): reminders resumed. The debtor can promise again only once you allow it.`}
          </p>
          <AllowPromiseButton debtorId={debtor.id} describedBy={brokenId} area={area} />
        </li>
      )}
      {disputes.map((d) => {
        const textId = `dispute-${d.id}`;
        return (
          <li
            key={d.id}
            className="flex flex-col gap-2 rounded-lg border border-border bg-background p-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <p id={textId} className="break-words">
              <strong>{`Disputed ${invoiceLabel(d)}`}</strong>
              {d.reason ? `: ${d.reason}` : ""}
              {d.disputedAt !== null && (
                <span className="text-muted">{` (${formatDayOf(d.disputedAt, timeZone, locale)})`}</span>
              )}
            </p>
            <ResolveDisputeButton invoiceId={d.id} describedBy={textId} area={area} />
          </li>
        );
      })}
    </ul>
  );
}
