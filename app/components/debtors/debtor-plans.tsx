import { useId } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { FieldError, Label } from "~/components/ui/input";
import { inputClass } from "~/components/ui/variants";
import { formatDate } from "~/domain/dates";
import { formatMoney } from "~/domain/money";
import { amountExample } from "~/domain/number-locale";
import {
  type InstalmentView,
  instalmentStates,
  LIVE_PLAN_STATUSES,
  nextPayment,
  PLAN_DEFAULT_GRACE_DAYS,
  PLAN_MAX_GRACE_DAYS,
  PLAN_MAX_INSTALMENTS,
  PLAN_MIN_INSTALMENTS,
  planFirstWindow,
} from "~/domain/payment-plan";
import type { PlanView } from "~/ledger/index.server";
import { type ActionResult, isActionResult } from "~/platform/action-result";
import { PLAN_INTENTS } from "~/schemas/intents";
import { PLAN_MESSAGE_MAX } from "~/schemas/payment-plan";
import { useLocale } from "~/ui/root-data";

/**
 * A debtor's payment plans on their page (decisions/066): a request to accept (with the grace days
 * and whether a missed instalment ends the plan by itself), change into an offer, or decline with a
 * message; an offer waiting for the debtor (withdraw it); the running plan with each instalment
 * paid, next or missed from what the ledger says is paid ("End the plan" once one is missed); and
 * "Offer a payment plan". Plain forms posting to the page's action: they work without JavaScript,
 * and a refusal comes back with its field errors and what was typed.
 */

const STATE_WORDS: Record<InstalmentView["state"], string> = {
  paid: "Paid",
  next: "Next",
  missed: "Missed",
  later: "Upcoming",
};

const STATUS_WORDS: Record<PlanView["status"], string> = {
  requested: "Asked for by the debtor",
  offered: "Offered, waiting for the debtor's answer",
  active: "Running",
  declined: "Declined",
  completed: "Paid in full",
  broken: "Ended: an instalment was missed",
  cancelled: "Offer withdrawn",
};

/** The action's answer to this form (its intent and plan), or undefined. */
function useAnswer(intent: string, planId: number | null): ActionResult | undefined {
  const data: unknown = useActionData();
  const navigation = useNavigation();
  if (!isActionResult(data) || data.intent !== intent || navigation.state !== "idle") return undefined;
  const sent = data.result?.initialValue?.plan_id;
  if (planId !== null && sent !== undefined && String(sent) !== String(planId)) return undefined;
  return data;
}

const fieldErrors = (answer: ActionResult | undefined, field: string) => answer?.result?.error?.[field] ?? undefined;
const typed = (answer: ActionResult | undefined, field: string) => {
  const value = answer?.result?.initialValue?.[field];
  return typeof value === "string" ? value : undefined;
};

export function DebtorPlans({
  debtorId,
  debtorName,
  plans,
  totals,
  today,
}: {
  debtorId: number;
  debtorName: string;
  plans: PlanView[];
  /** Per currency, what a new plan would cover. */
  totals: { currency: string; cents: number }[];
  /** The debtor's today in their zone. */
  today: string;
}) {
  const headingId = useId();
  const live = new Set(
    plans.filter((p) => (LIVE_PLAN_STATUSES as readonly string[]).includes(p.status)).map((p) => p.currency),
  );
  const offerable = totals.filter((t) => !live.has(t.currency));
  // The newest plan per currency, and the live ones.
  const shown = plans.filter(
    (p, i) =>
      (LIVE_PLAN_STATUSES as readonly string[]).includes(p.status) ||
      plans.findIndex((q) => q.currency === p.currency) === i,
  );
  if (shown.length === 0 && offerable.length === 0) return null;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
      data-testid="debtor-plans"
    >
      <h2 id={headingId} className="text-xl font-semibold">
        Payment plans
      </h2>
      <GeneralAnswer />
      {shown.map((p) => (
        <PlanItem key={p.id} plan={p} debtorName={debtorName} today={today} />
      ))}
      {offerable.length > 0 && <OfferForm debtorId={debtorId} totals={offerable} today={today} />}
    </section>
  );
}

/** The answers the page's DocumentAnswer does not show already (it shows accept and decline, the dashboard's too). */
const OWN_ANSWERS: string[] = [PLAN_INTENTS.offer, PLAN_INTENTS.edit, PLAN_INTENTS.cancel, PLAN_INTENTS.end];

/** An answer of the plan forms (a success, a refusal of the whole plan). */
function GeneralAnswer() {
  const data: unknown = useActionData();
  if (!isActionResult(data) || !OWN_ANSWERS.includes(data.intent)) return null;
  if (!data.message) return null;
  return (
    <p role={data.ok ? "status" : "alert"} className={`text-sm ${data.ok ? "" : "text-danger"}`}>
      {data.message}
    </p>
  );
}

function PlanItem({ plan, debtorName, today }: { plan: PlanView; debtorName: string; today: string }) {
  const locale = useLocale();
  const money = (cents: number) => formatMoney(cents, plan.currency, locale);
  const states = instalmentStates(plan.instalments, plan.paidCents, today);
  const next = plan.status === "active" ? nextPayment(plan.instalments, plan.paidCents, today) : null;
  const missed = plan.status === "active" ? states.find((s) => s.state === "missed") : undefined;
  const running = plan.status === "active";
  return (
    <article
      className="flex flex-col gap-3 rounded-lg border border-border bg-background p-3"
      data-testid="debtor-plan"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium">
          {`${money(plan.totalCents)} in ${plan.instalments.length} instalments`}
          <span className="ml-2 rounded bg-surface-2 px-2 py-0.5 text-xs font-medium">{STATUS_WORDS[plan.status]}</span>
        </p>
        {running && <p className="text-sm">{`Paid ${money(plan.paidCents)} of ${money(plan.totalCents)}`}</p>}
      </div>
      {plan.status === "requested" && (
        <p className="text-sm">
          {`${debtorName} asked to pay in instalments. Their reminders are paused until you answer.`}
        </p>
      )}
      {running && (
        <p className="text-sm text-muted">
          {`Grace after a missed date: ${plan.graceDays} days; then ${plan.autoBreak ? "the plan ends by itself" : "you may end the plan"}.`}
        </p>
      )}
      {missed && (
        <p role="alert" className="text-sm text-danger">
          {`The instalment due ${formatDate(missed.dueOn, locale)} (${money(missed.unpaidCents)}) has not been paid.`}
        </p>
      )}
      {plan.message && plan.status !== "active" && (
        <p className="break-words text-sm text-muted">{`Note: ${plan.message}`}</p>
      )}
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-border text-muted">
            <th scope="col" className="py-1 font-medium">
              Date
            </th>
            <th scope="col" className="py-1 text-right font-medium">
              Amount
            </th>
            {running && (
              <th scope="col" className="py-1 pl-3 text-right font-medium">
                Status
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {states.map((i) => (
            <tr key={i.seq} className="border-b border-border last:border-0">
              <td className="py-1">{formatDate(i.dueOn, locale)}</td>
              <td className="py-1 text-right tabular-nums">{money(i.amountCents)}</td>
              {running && (
                <td className={`py-1 pl-3 text-right ${i.state === "missed" ? "font-semibold text-danger" : ""}`}>
                  {STATE_WORDS[i.state]}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {next && <p className="text-sm">{`Next: ${money(next.cents)} by ${formatDate(next.dueOn, locale)}.`}</p>}
      {plan.status === "requested" && <RequestAnswers plan={plan} today={today} />}
      {plan.status === "offered" && (
        <SimpleAction planId={plan.id} intent={PLAN_INTENTS.cancel} label="Withdraw the offer" />
      )}
      {running && missed && <SimpleAction planId={plan.id} intent={PLAN_INTENTS.end} label="End the plan" />}
    </article>
  );
}

/** Whether the form of `intent` is being sent. */
function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

function SimpleAction({ planId, intent, label }: { planId: number; intent: string; label: string }) {
  const busy = useBusy(intent);
  return (
    <Form method="post">
      <input type="hidden" name="plan_id" value={planId} />
      <SubmitButton name="intent" value={intent} size="sm" variant="outline" busy={busy}>
        {label}
      </SubmitButton>
    </Form>
  );
}

/** The grace days and the choice to end the plan by itself, as the accept, change and offer forms ask them. */
function TermsFields({ answer, idPrefix }: { answer: ActionResult | undefined; idPrefix: string }) {
  const grace = fieldErrors(answer, "grace_days");
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div>
        <Label htmlFor={`${idPrefix}-grace`}>Grace after a missed date (days)</Label>
        <input
          id={`${idPrefix}-grace`}
          name="grace_days"
          type="number"
          inputMode="numeric"
          min={0}
          max={PLAN_MAX_GRACE_DAYS}
          defaultValue={typed(answer, "grace_days") ?? String(PLAN_DEFAULT_GRACE_DAYS)}
          aria-invalid={grace ? true : undefined}
          aria-describedby={grace ? `${idPrefix}-grace-error` : undefined}
          className={`${inputClass} mt-1`}
        />
        <FieldError id={`${idPrefix}-grace-error`} errors={grace} />
      </div>
      <label className="flex items-center gap-2 self-end text-sm">
        <input type="checkbox" name="auto_break" defaultChecked={typed(answer, "auto_break") === "on"} />
        End the plan automatically after the grace days
      </label>
    </div>
  );
}

function RequestAnswers({ plan, today }: { plan: PlanView; today: string }) {
  const id = useId();
  const acceptAnswer = useAnswer(PLAN_INTENTS.accept, plan.id);
  const declineAnswer = useAnswer(PLAN_INTENTS.decline, plan.id);
  const editAnswer = useAnswer(PLAN_INTENTS.edit, plan.id);
  const message = fieldErrors(declineAnswer, "message");
  const accepting = useBusy(PLAN_INTENTS.accept);
  const declining = useBusy(PLAN_INTENTS.decline);
  return (
    <div className="flex flex-col gap-3">
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="plan_id" value={plan.id} />
        <TermsFields answer={acceptAnswer} idPrefix={`${id}-accept`} />
        <SubmitButton name="intent" value={PLAN_INTENTS.accept} busy={accepting} className="sm:self-start">
          Accept the plan
        </SubmitButton>
      </Form>
      <details className="rounded-md border border-border p-3" open={editAnswer !== undefined}>
        <summary className="cursor-pointer text-sm font-medium">Change the plan</summary>
        <p className="mt-2 text-sm text-muted">
          Your change goes to the debtor as your offer: they accept or decline it on their page.
        </p>
        <PlanFields
          intent={PLAN_INTENTS.edit}
          hidden={{ plan_id: String(plan.id), currency: plan.currency }}
          answer={editAnswer}
          today={today}
          submit="Offer this plan instead"
        />
      </details>
      <Form method="post" className="flex flex-col gap-2">
        <input type="hidden" name="plan_id" value={plan.id} />
        <div>
          <Label htmlFor={`${id}-message`}>Message to the debtor (optional)</Label>
          <textarea
            id={`${id}-message`}
            name="message"
            rows={2}
            maxLength={PLAN_MESSAGE_MAX}
            defaultValue={typed(declineAnswer, "message")}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? `${id}-message-error` : undefined}
            className={`${inputClass} mt-1 h-auto py-2`}
          />
          <FieldError id={`${id}-message-error`} errors={message} />
        </div>
        <SubmitButton
          name="intent"
          value={PLAN_INTENTS.decline}
          busy={declining}
          variant="outline"
          className="sm:self-start"
        >
          Decline
        </SubmitButton>
      </Form>
    </div>
  );
}

function OfferForm({
  debtorId,
  totals,
  today,
}: {
  debtorId: number;
  totals: { currency: string; cents: number }[];
  today: string;
}) {
  const answer = useAnswer(PLAN_INTENTS.offer, null);
  const locale = useLocale();
  return (
    <details className="rounded-md border border-border p-3" open={answer !== undefined && !answer.ok}>
      <summary className="cursor-pointer text-sm font-medium">Offer a payment plan</summary>
      <p className="mt-2 text-sm text-muted">
        {`It covers what is unpaid of the debtor's open invoices (${totals.map((t) => formatMoney(t.cents, t.currency, locale)).join(" + ")}); the debtor accepts or declines it on their page.`}
      </p>
      <PlanFields
        intent={PLAN_INTENTS.offer}
        hidden={{ debtor_id: String(debtorId) }}
        currencies={totals.map((t) => t.currency)}
        answer={answer}
        today={today}
        submit="Offer the plan"
      />
    </details>
  );
}

function PlanFields({
  intent,
  hidden,
  currencies,
  answer,
  today,
  submit,
}: {
  intent: string;
  hidden: Record<string, string>;
  currencies?: string[];
  answer: ActionResult | undefined;
  today: string;
  submit: string;
}) {
  const id = useId();
  const locale = useLocale();
  const window = planFirstWindow(today);
  const how = typed(answer, "how") ?? "count";
  const busy = useBusy(intent);
  const err = (field: string) => fieldErrors(answer, field);
  const describedBy = (field: string) => (err(field) ? `${id}-${field}-error` : undefined);
  return (
    <Form method="post" className="mt-3 flex flex-col gap-3" noValidate>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {currencies && currencies.length === 1 && <input type="hidden" name="currency" value={currencies[0]} />}
      {currencies && currencies.length > 1 && (
        <div>
          <Label htmlFor={`${id}-currency`}>Currency</Label>
          <select
            id={`${id}-currency`}
            name="currency"
            defaultValue={typed(answer, "currency")}
            aria-describedby={describedBy("currency")}
            className={`${inputClass} mt-1 sm:max-w-xs`}
          >
            {currencies.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-currency-error`} errors={err("currency")} />
        </div>
      )}
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">Instalments</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="how" value="count" defaultChecked={how === "count"} />A number of instalments
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="how" value="amount" defaultChecked={how === "amount"} />
          An amount each month
        </label>
        <FieldError id={`${id}-how-error`} errors={err("how")} />
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <Label htmlFor={`${id}-count`}>Number of instalments</Label>
          <input
            id={`${id}-count`}
            name="count"
            type="number"
            inputMode="numeric"
            min={PLAN_MIN_INSTALMENTS}
            max={PLAN_MAX_INSTALMENTS}
            defaultValue={typed(answer, "count") ?? "3"}
            aria-invalid={err("count") ? true : undefined}
            aria-describedby={describedBy("count")}
            className={`${inputClass} mt-1`}
          />
          <FieldError id={`${id}-count-error`} errors={err("count")} />
        </div>
        <div>
          <Label htmlFor={`${id}-amount`}>Amount per month</Label>
          <input
            id={`${id}-amount`}
            name="amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder={amountExample(locale)}
            defaultValue={typed(answer, "amount")}
            aria-invalid={err("amount") ? true : undefined}
            aria-describedby={describedBy("amount")}
            className={`${inputClass} mt-1`}
          />
          <FieldError id={`${id}-amount-error`} errors={err("amount")} />
        </div>
      </div>
      <div>
        <Label htmlFor={`${id}-first`}>First payment on</Label>
        <input
          id={`${id}-first`}
          name="first_on"
          type="date"
          min={window.min}
          max={window.max}
          defaultValue={typed(answer, "first_on") ?? window.min}
          aria-invalid={err("first_on") ? true : undefined}
          aria-describedby={describedBy("first_on")}
          className={`${inputClass} mt-1 sm:max-w-xs`}
        />
        <FieldError id={`${id}-first_on-error`} errors={err("first_on")} />
      </div>
      <TermsFields answer={answer} idPrefix={id} />
      <SubmitButton name="intent" value={intent} busy={busy} className="sm:self-start">
        {submit}
      </SubmitButton>
    </Form>
  );
}
