import { getFormProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { useState } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import * as v from "valibot";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { RouteError } from "~/components/route-error";
import { AfterFinalNotice } from "~/components/schedules/after-final-notice";
import { CadenceStepsField, SendHourField } from "~/components/settings/cadence-fields";
import { SubmitButton } from "~/components/ui/button";
import { getDb } from "~/db/client.server";
import { debtorNames } from "~/debtors/index.server";
import { AccountCapReached } from "~/domain/account-caps";
import { DEFAULT_REPEAT_DAYS, formatSteps } from "~/domain/cadence";
import { formatCount } from "~/domain/intl";
import { readForm } from "~/platform/action-result.server";
import { entityScope } from "~/platform/scope.server";
import { flashToastCookie } from "~/platform/toast.server";
import { getAccountCadence, giveOwnCadence } from "~/reminders/index.server";
import { AccountCadenceSchema, cadenceOfInput } from "~/schemas/account-cadence";
import { DebtorIdsSchema, selectionMessage } from "~/schemas/ids";
import { pageMeta } from "~/ui/site";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/debtors-cadence";

/**
 * The debtors list's bulk "Use another cadence": the selected debtors (at most 100) get a due-date
 * cadence of their own, typed here (the account's as a start). Each keeps what it already sent; a
 * debtor without a schedule starts one. Saving the account's cadence later leaves theirs as it is.
 * Another user's debtor is not there.
 */
async function selectedDebtors(db: Parameters<typeof debtorNames>[0], ownerId: string, raw: unknown[]) {
  const ids = v.safeParse(DebtorIdsSchema, raw);
  if (!ids.success) return { error: selectionMessage(raw, "debtor") };
  const debtors = await debtorNames(db, ownerId, ids.output);
  return debtors.length > 0 ? { debtors } : { error: "None of the selected debtors is yours any more." };
}

export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const selected = await selectedDebtors(db, user.id, url.searchParams.getAll("ids"));
  if ("error" in selected) throw data(selected.error, { status: 404 });
  const { cadence } = await getAccountCadence(db, user.id);
  return {
    debtors: selected.debtors,
    cadence: { steps: cadence.steps, hour: cadence.hour, repeatDays: cadence.repeatDays },
  };
}

const debtorsCount = (n: number) => (n === 1 ? "1 debtor" : `${formatCount(n)} debtors`);

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const scope = entityScope(env, config, user, request);
  const selected = await selectedDebtors(scope.db, user.id, formData.getAll("ids"));
  const submission = parseWithValibot(formData, { schema: AccountCadenceSchema });
  if ("error" in selected) return data({ result: submission.reply(), message: selected.error }, { status: 404 });
  if (submission.status !== "success") return data({ result: submission.reply(), message: null }, { status: 400 });
  try {
    const { following, skipped } = await giveOwnCadence(
      scope,
      selected.debtors.map((d) => d.id),
      cadenceOfInput(submission.value),
      { max: scope.caps.schedules },
    );
    if (following === 0)
      return data(
        {
          result: submission.reply(),
          message: "None of the selected debtors has an open invoice a reminder can reach: nothing was changed.",
        },
        { status: 409 },
      );
    const left =
      skipped > 0 ? ` ${debtorsCount(skipped)} left as they were (nothing open to chase, or unreachable).` : "";
    const message = `${debtorsCount(following)} now follow${following === 1 ? "s" : ""} this cadence of their own.${left}`;
    return new Response(null, {
      status: 302,
      headers: { Location: "/debtors-list", "Set-Cookie": flashToastCookie({ kind: "success", message }) },
    });
  } catch (error) {
    if (!(error instanceof AccountCapReached)) throw error;
    return data({ result: submission.reply(), message: error.message }, { status: 403 });
  }
}

export default function DebtorsCadence({ loaderData, actionData }: Route.ComponentProps) {
  const { debtors, cadence } = loaderData;
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useValibotForm(AccountCadenceSchema, {
    id: "own-cadence-form",
    lastResult: busy ? undefined : actionData?.result,
    defaultValue: {
      cadence_steps: formatSteps(cadence.steps),
      send_hour: String(cadence.hour),
      after_last: cadence.repeatDays ? "repeat" : "end",
      repeat_days: String(cadence.repeatDays ?? DEFAULT_REPEAT_DAYS),
    },
  });
  const typedAfterLast = actionData?.result?.initialValue?.after_last;
  const [afterLast, setAfterLast] = useState<"end" | "repeat">(
    (typedAfterLast ?? (cadence.repeatDays ? "repeat" : "end")) === "repeat" ? "repeat" : "end",
  );
  const shown = debtors.slice(0, 10);
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-8">
      <Link to="/debtors-list" className="text-sm text-primary underline-offset-4 hover:underline">
        Back to debtors
      </Link>
      <h1 className="text-3xl font-bold">Use another cadence</h1>
      <p className="text-sm text-muted">
        {`${debtorsCount(debtors.length)}: ${shown.map((d) => d.name).join(", ")}${debtors.length > shown.length ? ` and ${formatCount(debtors.length - shown.length)} more` : ""}.`}{" "}
        Each gets this cadence as its own: what was already sent stays sent, and an overdue invoice gets one e-mail at
        the step its age calls for. Changing your account&apos;s cadence later leaves theirs as it is.
      </p>
      <Form
        method="post"
        {...getFormProps(form)}
        className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-6"
      >
        {debtors.map((d) => (
          <input key={d.id} type="hidden" name="ids" value={d.id} />
        ))}
        <CadenceStepsField meta={fields.cadence_steps} />
        <SendHourField meta={fields.send_hour} />
        <AfterFinalNotice
          afterLast={fields.after_last}
          repeatDays={fields.repeat_days}
          value={afterLast}
          defaultDays={String(cadence.repeatDays ?? DEFAULT_REPEAT_DAYS)}
          onChange={setAfterLast}
        />
        <div role="status" aria-live="polite" className="text-sm text-danger">
          {!busy && actionData?.message ? actionData.message : null}
        </div>
        <SubmitButton busy={busy} className="self-start">
          {`Use this cadence for ${debtorsCount(debtors.length)}`}
        </SubmitButton>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't open the cadence for the selected debtors." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Use another cadence");
