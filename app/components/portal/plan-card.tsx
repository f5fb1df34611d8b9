import { useId } from "react";
import { Form, useNavigation } from "react-router";
import { Button, SubmitButton } from "~/components/ui/button";
import { FieldError, Label } from "~/components/ui/input";
import { inputClass } from "~/components/ui/variants";
import { formatDate } from "~/domain/dates";
import type { Translate } from "~/domain/i18n";
import type { PlanKey } from "~/domain/i18n/payment-plan";
import { formatMoney } from "~/domain/money";
import { say } from "~/domain/page-copy";
import {
  type InstalmentView,
  PLAN_FIRST_MAX_DAYS,
  PLAN_MAX_INSTALMENTS,
  PLAN_MIN_INSTALMENTS,
} from "~/domain/payment-plan";
import { PORTAL_INTENTS } from "~/schemas/intents";
import type { PlanErrors, PlanValues } from "~/schemas/payment-plan";

/**
 * The payment plan on the debtor's page (decisions/066): the plan they asked for or were offered,
 * or the one running with each instalment paid, next or missed, what is paid and what is next, and
 * "Pay now" for the next instalment; else the form to ask for one. Plain forms that work without
 * JavaScript; every word in the debtor's language. A plan is named by its currency (one live plan
 * per currency), never by an id.
 */

export interface PortalPlanView {
  currency: string;
  status: "requested" | "offered" | "active" | "declined" | "completed" | "broken";
  totalCents: number;
  paidCents: number;
  /** The user's message with a decline. */
  message: string | null;
  instalments: InstalmentView[];
  /** What "Pay now" pays (the next instalment's unpaid part, with any missed before it), from the ledger. */
  next: { cents: number; dueOn: string } | null;
}

export interface PortalPlanForm {
  /** What a plan would cover, per currency without a live plan. */
  totals: { currency: string; cents: number }[];
  /** The first date's window in the debtor's zone. */
  window: { min: string; max: string };
  /** An amount as this page writes it ("1.234,56"). */
  amountExample: string;
}

type T = Translate<PlanKey>;

function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
}

export function PlanSection({
  plans,
  form,
  payOnline,
  locale,
  sender,
  t,
  intent,
  errors,
  values,
}: {
  plans: PortalPlanView[];
  form: PortalPlanForm | null;
  payOnline: boolean;
  locale: string;
  sender: string;
  t: T;
  intent?: string;
  errors?: PlanErrors;
  values?: PlanValues;
}) {
  const money = (cents: number, currency: string) => formatMoney(cents, currency, locale);
  const mine = intent === PORTAL_INTENTS.planRequest;
  return (
    <>
      {plans.map((p) => (
        <PlanCard key={p.currency} plan={p} money={money} locale={locale} sender={sender} t={t} payOnline={payOnline} />
      ))}
      {form && form.totals.length > 0 && (
        <RequestCard
          form={form}
          money={money}
          sender={sender}
          t={t}
          errors={mine ? errors : undefined}
          values={mine ? values : undefined}
        />
      )}
    </>
  );
}

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4"
      data-testid="portal-plan"
    >
      <h3 id={id} className="text-lg font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

const STATE_KEY = {
  paid: "plan.state.paid",
  next: "plan.state.next",
  missed: "plan.state.missed",
  later: "plan.state.later",
} as const satisfies Record<InstalmentView["state"], PlanKey>;

function Instalments({
  plan,
  money,
  locale,
  t,
  states,
}: {
  plan: PortalPlanView;
  money: (cents: number, currency: string) => string;
  locale: string;
  t: T;
  states: boolean;
}) {
  return (
    <table className="w-full text-left text-sm" data-testid="plan-instalments">
      <thead>
        <tr className="border-b border-border text-muted">
          <th scope="col" className="py-1 font-medium">
            {t("plan.col.date")}
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            {t("plan.col.amount")}
          </th>
          {states && (
            <th scope="col" className="py-1 pl-3 text-right font-medium">
              {t("plan.col.state")}
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {plan.instalments.map((i) => (
          <tr key={i.seq} className="border-b border-border last:border-0">
            <td className="py-1">{formatDate(i.dueOn, locale)}</td>
            <td className="py-1 text-right tabular-nums">{money(i.amountCents, plan.currency)}</td>
            {states && (
              <td className={`py-1 pl-3 text-right ${i.state === "missed" ? "font-semibold text-danger" : ""}`}>
                {t(STATE_KEY[i.state])}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PlanCard({
  plan,
  money,
  locale,
  sender,
  t,
  payOnline,
}: {
  plan: PortalPlanView;
  money: (cents: number, currency: string) => string;
  locale: string;
  sender: string;
  t: T;
  payOnline: boolean;
}) {
  const accepting = useBusy(PORTAL_INTENTS.planAccept);
  const declining = useBusy(PORTAL_INTENTS.planDecline);
  const paying = useBusy(PORTAL_INTENTS.planPay);
  const total = money(plan.totalCents, plan.currency);
  const title = t("plan.title");
  switch (plan.status) {
    case "requested":
      return (
        <Frame title={title}>
          <p>{t("plan.requested", { sender, amount: total })}</p>
          <Instalments plan={plan} money={money} locale={locale} t={t} states={false} />
        </Frame>
      );
    case "offered":
      return (
        <Frame title={title}>
          <p>{t("plan.offered", { sender, amount: total })}</p>
          <Instalments plan={plan} money={money} locale={locale} t={t} states={false} />
          <div className="flex flex-wrap gap-2">
            <Form method="post">
              <input type="hidden" name="intent" value={PORTAL_INTENTS.planAccept} />
              <input type="hidden" name="currency" value={plan.currency} />
              <SubmitButton busy={accepting}>{t("plan.accept")}</SubmitButton>
            </Form>
            <Form method="post">
              <input type="hidden" name="intent" value={PORTAL_INTENTS.planDecline} />
              <input type="hidden" name="currency" value={plan.currency} />
              <SubmitButton busy={declining} variant="outline">
                {t("plan.decline")}
              </SubmitButton>
            </Form>
          </div>
        </Frame>
      );
    case "active": {
      const missed = plan.instalments.some((i) => i.state === "missed");
      return (
        <Frame title={title}>
          <p className="font-medium">{t("plan.active", { amount: total, count: plan.instalments.length })}</p>
          <p data-testid="plan-paid">{t("plan.paid", { paid: money(plan.paidCents, plan.currency), amount: total })}</p>
          {plan.next && (
            <p data-testid="plan-next">
              {t("plan.nextDue", {
                value: money(plan.next.cents, plan.currency),
                date: formatDate(plan.next.dueOn, locale),
              })}
            </p>
          )}
          {missed && (
            <p role="alert" className="text-danger">
              {t("plan.missedNote")}
            </p>
          )}
          <Instalments plan={plan} money={money} locale={locale} t={t} states />
          {plan.next && payOnline && (
            <form method="post">
              <input type="hidden" name="intent" value={PORTAL_INTENTS.planPay} />
              <input type="hidden" name="currency" value={plan.currency} />
              <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={paying}>
                {t("plan.pay", { amount: money(plan.next.cents, plan.currency) })}
              </Button>
            </form>
          )}
        </Frame>
      );
    }
    case "declined":
      return (
        <Frame title={title}>
          <p>{t("plan.declined", { sender })}</p>
          {plan.message && <p className="break-words text-muted">{t("plan.declinedNote", { note: plan.message })}</p>}
        </Frame>
      );
    case "broken":
      return (
        <Frame title={title}>
          <p>{t("plan.broken")}</p>
        </Frame>
      );
    case "completed":
      return (
        <Frame title={title}>
          <p>{t("plan.completed")}</p>
        </Frame>
      );
  }
}

function RequestCard({
  form,
  money,
  sender,
  t,
  errors,
  values,
}: {
  form: PortalPlanForm;
  money: (cents: number, currency: string) => string;
  sender: string;
  t: T;
  errors?: PlanErrors;
  values?: PlanValues;
}) {
  const id = useId();
  const busy = useBusy(PORTAL_INTENTS.planRequest);
  const err = (field: keyof PlanErrors) => say(t, errors?.[field]);
  const described = (field: keyof PlanErrors, hint?: string) => (err(field) ? `${id}-${field}-error` : hint);
  const how = values?.how ?? "count";
  const only = form.totals.length === 1 ? form.totals[0] : undefined;
  const amount = form.totals.map((o) => money(o.cents, o.currency)).join(" + ");
  return (
    <Frame title={t("plan.title")}>
      <p className="text-sm text-muted">
        {t("plan.intro", {
          sender,
          amount,
          min: PLAN_MIN_INSTALMENTS,
          max: PLAN_MAX_INSTALMENTS,
          days: PLAN_FIRST_MAX_DAYS,
        })}
      </p>
      {err("form") && (
        <p role="alert" className="text-sm text-danger">
          {err("form")}
        </p>
      )}
      <Form method="post" className="flex flex-col gap-3" noValidate>
        <input type="hidden" name="intent" value={PORTAL_INTENTS.planRequest} />
        {only ? (
          <input type="hidden" name="currency" value={only.currency} />
        ) : (
          <div>
            <Label htmlFor={`${id}-currency`}>{t("plan.currency")}</Label>
            <select
              id={`${id}-currency`}
              name="currency"
              defaultValue={values?.currency ?? ""}
              aria-invalid={err("currency") ? true : undefined}
              aria-describedby={described("currency")}
              className={`${inputClass} mt-1 sm:max-w-xs`}
            >
              {form.totals.map((o) => (
                <option key={o.currency} value={o.currency}>
                  {`${o.currency} (${money(o.cents, o.currency)})`}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-currency-error`} errors={err("currency") ? [err("currency") ?? ""] : undefined} />
          </div>
        )}
        {only && err("currency") && (
          <p role="alert" className="text-sm text-danger">
            {err("currency")}
          </p>
        )}
        <fieldset className="flex flex-col gap-2" aria-describedby={described("how")}>
          <legend className="text-sm font-medium">{t("plan.how")}</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="how" value="count" defaultChecked={how === "count"} />
            {t("plan.byCount")}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" name="how" value="amount" defaultChecked={how === "amount"} />
            {t("plan.byAmount")}
          </label>
          <FieldError id={`${id}-how-error`} errors={err("how") ? [err("how") ?? ""] : undefined} />
        </fieldset>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor={`${id}-count`}>{t("plan.count")}</Label>
            <input
              id={`${id}-count`}
              name="count"
              type="number"
              inputMode="numeric"
              min={PLAN_MIN_INSTALMENTS}
              max={PLAN_MAX_INSTALMENTS}
              defaultValue={values?.count ?? "3"}
              aria-invalid={err("count") ? true : undefined}
              aria-describedby={described("count")}
              className={`${inputClass} mt-1`}
            />
            <FieldError id={`${id}-count-error`} errors={err("count") ? [err("count") ?? ""] : undefined} />
          </div>
          <div>
            <Label htmlFor={`${id}-amount`}>{t("plan.perMonth")}</Label>
            <input
              id={`${id}-amount`}
              name="amount"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={values?.amount ?? ""}
              aria-invalid={err("amount") ? true : undefined}
              aria-describedby={described("amount", `${id}-amount-hint`)}
              className={`${inputClass} mt-1`}
            />
            <p id={`${id}-amount-hint`} className="text-xs text-muted">
              {t("plan.perMonthHint", { example: form.amountExample })}
            </p>
            <FieldError id={`${id}-amount-error`} errors={err("amount") ? [err("amount") ?? ""] : undefined} />
          </div>
        </div>
        <div>
          <Label htmlFor={`${id}-first`}>{t("plan.first")}</Label>
          <input
            id={`${id}-first`}
            name="first_on"
            type="date"
            min={form.window.min}
            max={form.window.max}
            defaultValue={values?.first_on ?? form.window.min}
            aria-invalid={err("first_on") ? true : undefined}
            aria-describedby={described("first_on")}
            className={`${inputClass} mt-1 sm:max-w-xs`}
          />
          <FieldError id={`${id}-first_on-error`} errors={err("first_on") ? [err("first_on") ?? ""] : undefined} />
        </div>
        <SubmitButton busy={busy} variant="outline" className="w-full sm:w-auto sm:self-start">
          {t("plan.submit")}
        </SubmitButton>
      </Form>
    </Frame>
  );
}
