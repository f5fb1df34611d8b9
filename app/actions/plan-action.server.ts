import type { SubmissionResult } from "@conform-to/react";
import * as v from "valibot";
import { formatDate } from "~/domain/dates";
import { translator } from "~/domain/i18n";
import { PLAN_COPY, type PlanKey } from "~/domain/i18n/payment-plan";
import {
  acceptPlan,
  breakPlan,
  cancelOffer,
  createPlan,
  debtorToday,
  debtorZone,
  declinePlan,
  editRequest,
  ownedPlan,
  type PlanRefusal,
  planTotals,
  sendPlanLetter,
} from "~/ledger/index.server";
import { reply } from "~/platform/action-result.server";
import { FormIdSchema } from "~/schemas/ids";
import { PLAN_INTENTS } from "~/schemas/intents";
import { SOMETHING_WRONG } from "~/schemas/messages";
import {
  PlanDeclineSchema,
  type PlanErrors,
  type PlanValues,
  planRuleField,
  planRuleMessage,
  readPlanForm,
} from "~/schemas/payment-plan";
import { type ExtraIntents, formId, type IntentScope } from "./owned-record-action.server";

/**
 * The user's payment-plan actions on the debtor pages (decisions/066): offer a plan, accept, change
 * (into the user's offer) or decline a debtor's request, withdraw an offer, end a plan after a
 * missed instalment. Ids are only a request: another user's plan or debtor answers 404 and nothing
 * changes. The refusals of the plan form come back as field errors with what was typed; the debtor
 * hears of each answer by e-mail (sendPlanLetter).
 */

export const PLAN_STALE = "This plan was already answered or changed: the page shows it as it is now.";
export const PLAN_LIVE = "This debtor already has a payment plan in that currency waiting for an answer or running.";

/** The plan catalogue's English words (the user's pages are in English), amounts in the user's format. */
const english = (locale: string) => translator(PLAN_COPY, "en", locale);

/** The refusals as conform's reply: field errors and what was typed (the form shows both). */
function refusal(
  intent: string,
  status: number,
  locale: string,
  errors: PlanErrors,
  values: PlanValues & { plan_id?: string },
) {
  const t = english(locale);
  const error: Record<string, string[]> = {};
  for (const [field, message] of Object.entries(errors)) {
    if (message) error[field === "form" ? "" : field] = [t(message.key as PlanKey, message.values)];
  }
  const result: SubmissionResult<string[]> = { status: "error", initialValue: values as Record<string, string>, error };
  return reply(intent, { status, message: error[""]?.[0] ?? "Please check the plan.", result });
}

function refused(intent: string, error: PlanRefusal) {
  if (error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
  if (error === "live") return reply(intent, { status: 409, message: PLAN_LIVE });
  return reply(intent, { status: 409, message: PLAN_STALE });
}

const planIdOf = (formData: FormData) => {
  const id = v.safeParse(FormIdSchema, formData.get("plan_id"));
  return id.success ? id.output : null;
};

/** The debtor's today for the owner's debtor, or null when the debtor is not the owner's. */
async function todayOf({ scope }: IntentScope, debtorId: number) {
  const zone = await debtorZone(scope.db, scope.ownerId, debtorId);
  return zone === undefined ? null : debtorToday(scope.now, zone);
}

/** "Offer a payment plan": `debtor_id` and the plan form with the user's grace days and choice to end it by itself. */
async function offer(s: IntentScope) {
  const intent = PLAN_INTENTS.offer;
  const { scope, formData } = s;
  const debtorId = formId(formData, "debtor_id");
  const today = debtorId === null ? null : await todayOf(s, debtorId);
  if (debtorId === null || today === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const currencies = (await planTotals(scope.db, scope.ownerId, debtorId)).map((t) => t.currency);
  const read = readPlanForm(formData, { currencies, locale: scope.locale, withTerms: true });
  if (!read.ok) return refusal(intent, 400, scope.locale, read.errors, read.values);
  const made = await createPlan(scope, debtorId, "user", { ...read.value, today });
  if ("error" in made) {
    if (made.error === "live" || made.error === "not-found" || made.error === "stale")
      return refused(intent, made.error);
    const field = planRuleField(made.error, read.value.shape.mode);
    const message = planRuleMessage(made.error, today, (d) => formatDate(d, scope.locale));
    return refusal(intent, 400, scope.locale, { [field]: message }, read.values);
  }
  const plan = await ownedPlan(scope.db, scope.ownerId, made.planId);
  if (plan) await sendPlanLetter(scope, s.app.config, plan, "offered");
  return reply(intent, {
    message: "Plan offered: the debtor can accept or decline it on their page, and was e-mailed.",
  });
}

/** "Accept the plan" the debtor asked for: `plan_id`, the grace days and whether it ends by itself. */
async function accept(s: IntentScope) {
  const intent = PLAN_INTENTS.accept;
  const { scope, formData } = s;
  const planId = planIdOf(formData);
  const plan = planId === null ? undefined : await ownedPlan(scope.db, scope.ownerId, planId);
  const today = plan ? await todayOf(s, plan.debtorId) : null;
  if (planId === null || !plan || today === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const values = {
    plan_id: String(planId),
    grace_days: String(formData.get("grace_days") ?? ""),
    auto_break: String(formData.get("auto_break") ?? ""),
  };
  const grace = v.safeParse(
    v.pipe(v.string(), v.trim(), v.regex(/^\d{1,2}$/), v.transform(Number), v.maxValue(60)),
    values.grace_days,
  );
  if (!grace.success) {
    return refusal(
      intent,
      400,
      scope.locale,
      { grace_days: { key: "plan.error.grace", values: { days: 60 } } },
      values,
    );
  }
  const out = await acceptPlan(scope, planId, {
    by: "user",
    today,
    graceDays: grace.output,
    autoBreak: values.auto_break === "on",
  });
  if ("error" in out) return refused(intent, out.error);
  await sendPlanLetter(scope, s.app.config, out.plan, "confirmed");
  return reply(intent, {
    message: "Plan accepted: the debtor was sent every date and amount; each instalment gets its own reminder.",
  });
}

/** "Change the plan": the debtor's request reshaped, offered back to them. */
async function edit(s: IntentScope) {
  const intent = PLAN_INTENTS.edit;
  const { scope, formData } = s;
  const planId = planIdOf(formData);
  const plan = planId === null ? undefined : await ownedPlan(scope.db, scope.ownerId, planId);
  const today = plan ? await todayOf(s, plan.debtorId) : null;
  if (planId === null || !plan || today === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const read = readPlanForm(formData, { currencies: [plan.currency], locale: scope.locale, withTerms: true });
  const values = { ...read.values, plan_id: String(planId) };
  if (!read.ok) return refusal(intent, 400, scope.locale, read.errors, values);
  const out = await editRequest(scope, planId, { ...read.value, today });
  if ("error" in out) {
    if (out.error === "live" || out.error === "not-found" || out.error === "stale") return refused(intent, out.error);
    const field = planRuleField(out.error, read.value.shape.mode);
    const message = planRuleMessage(out.error, today, (d) => formatDate(d, scope.locale));
    return refusal(intent, 400, scope.locale, { [field]: message }, values);
  }
  await sendPlanLetter(scope, s.app.config, out.plan, "offered");
  return reply(intent, {
    message: "Changed plan offered: the debtor can accept or decline it on their page, and was e-mailed.",
  });
}

/** "Decline" the debtor's request, with an optional message for them. */
async function decline(s: IntentScope) {
  const intent = PLAN_INTENTS.decline;
  const { scope, formData } = s;
  const planId = planIdOf(formData);
  if (planId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const read = v.safeParse(PlanDeclineSchema, { message: String(formData.get("message") ?? "") });
  if (!read.success) {
    const message = read.issues[0]?.message ?? SOMETHING_WRONG;
    const result: SubmissionResult<string[]> = {
      status: "error",
      initialValue: { message: String(formData.get("message") ?? ""), plan_id: String(planId) },
      error: { message: [message] },
    };
    return reply(intent, { status: 400, message, result });
  }
  const out = await declinePlan(scope, planId, { by: "user", message: read.output.message });
  if ("error" in out) return refused(intent, out.error);
  await sendPlanLetter(scope, s.app.config, out.plan, "declined", { note: read.output.message });
  return reply(intent, { message: "Plan declined: the debtor was told, and their reminders run again." });
}

/** "Withdraw the offer" the debtor has not answered. */
async function cancel({ scope, formData }: IntentScope) {
  const intent = PLAN_INTENTS.cancel;
  const planId = planIdOf(formData);
  if (planId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await cancelOffer(scope, planId);
  if ("error" in out) return refused(intent, out.error);
  return reply(intent, { message: "Offer withdrawn." });
}

/** "End the plan" (after a missed instalment): its invoices are chased again in full, their interest restored. */
async function end(s: IntentScope) {
  const intent = PLAN_INTENTS.end;
  const { scope, formData } = s;
  const planId = planIdOf(formData);
  if (planId === null) return reply(intent, { status: 404, message: SOMETHING_WRONG });
  const out = await breakPlan(scope, planId, { byItself: false, reason: "Ended by the user" });
  if ("error" in out) return refused(intent, out.error);
  await sendPlanLetter(scope, s.app.config, out.plan, "broken");
  return reply(intent, { message: "Plan ended: its invoices are chased again in full, with their interest." });
}

export const planIntents: ExtraIntents = {
  [PLAN_INTENTS.offer]: offer,
  [PLAN_INTENTS.accept]: accept,
  [PLAN_INTENTS.edit]: edit,
  [PLAN_INTENTS.decline]: decline,
  [PLAN_INTENTS.cancel]: cancel,
  [PLAN_INTENTS.end]: end,
};
