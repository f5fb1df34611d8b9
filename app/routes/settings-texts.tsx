import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { useFetcher } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { RouteError } from "~/components/route-error";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { SubmitButton } from "~/components/ui/button";
import { FormStatus } from "~/components/ui/form-status";
import { FieldError } from "~/components/ui/input";
import { getDb } from "~/db/client.server";
import { saveTextSettingsStatement, textSettingsOf, textsUsed } from "~/db/text-allowance";
import { formatCount } from "~/domain/intl";
import { nextTextMonthStart, REGISTERED_SENDER_COUNTRIES, TEXT_COUNTRIES, textMonth } from "~/domain/phone";
import { effectivePlan, textAllowanceLine } from "~/domain/plans";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { textSettingsSchema } from "~/schemas/text-settings";
import { pageMeta } from "~/ui/site";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/settings-texts";

const INTENT = "texts-save";

/**
 * Settings → Text messages (decisions/069): the text channel on or off, the countries whose
 * numbers may be texted (the US and Canada only with a registered sender), and the month's
 * allowance of the account's plan with what it has used.
 */
export async function loader({ context, url }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const now = Date.now();
  const month = textMonth(now);
  const [settings, used] = await Promise.all([textSettingsOf(db, user.id), textsUsed(db, user.id, month)]);
  const plan = effectivePlan(user, now);
  return {
    settings,
    used,
    plan: plan ? { name: plan.name, monthlyTexts: plan.monthlyTexts, line: textAllowanceLine(plan) } : null,
    renewsOn: new Date(nextTextMonthStart(now)).toISOString().slice(0, 10),
  };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  if (intent !== INTENT) return reply(intent, { status: 400, message: SOMETHING_WRONG });
  const submission = parseWithValibot(formData, { schema: textSettingsSchema });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  const db = getDb(getApp(context).env.DB);
  await saveTextSettingsStatement(db, user.id, submission.value, Date.now());
  return reply(intent, {
    message: submission.value.enabled
      ? "Text messages saved: text steps go to debtors who consented, in the countries you chose."
      : "Text messages saved. They are off: no text is sent.",
    result: submission.reply(),
  });
}

export default function SettingsTexts({ loaderData }: Route.ComponentProps) {
  const { settings, used, plan, renewsOn } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [INTENT]);
  const [form, fields] = useValibotForm(textSettingsSchema, {
    id: "text-settings",
    lastResult: busy ? undefined : result?.result,
    defaultValue: { enabled: settings.enabled ? "on" : undefined, countries: settings.countries },
  });
  const chosen = new Set(
    (Array.isArray(fields.countries.value) ? fields.countries.value : [fields.countries.value ?? settings.countries])
      .flat()
      .filter((c): c is string => typeof c === "string"),
  );
  return (
    <SettingsTabs current="texts">
      <section aria-labelledby="texts-title" className="rounded-xl border border-border bg-surface p-6">
        <h2 id="texts-title" className="text-xl font-semibold">
          Text messages
        </h2>
        <p className="mt-1 text-sm text-muted">
          A cadence step can send a text besides or instead of the e-mail, only to a debtor whose mobile number you
          added and who you confirmed you may text. Quiet hours and the contact limits count texts and e-mails together.
          A debtor's STOP ends their texts at once, and you are told.
        </p>
        <p className="mt-3 text-sm" data-testid="texts-allowance">
          {plan === null
            ? "Your account has no plan: no text is sent until it has one."
            : plan.monthlyTexts === 0
              ? `${plan.line} on your ${plan.name} plan. Upgrade on the Pricing page to send texts.`
              : `${formatCount(used)} of ${formatCount(plan.monthlyTexts)} text messages used this month on your ${plan.name} plan (renews ${renewsOn}). A text step past it is held and you are told.`}
        </p>
        <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
          <input type="hidden" name="intent" value={INTENT} />
          <label className="flex items-start gap-2 text-sm">
            <input
              {...getInputProps(fields.enabled, { type: "checkbox", value: "on" })}
              key={fields.enabled.key}
              className="mt-1 h-4 w-4"
            />
            <span>Send text messages</span>
          </label>
          <fieldset aria-describedby={`${fields.countries.errorId} texts-registered`}>
            <legend className="text-sm font-medium">Countries whose numbers may be texted</legend>
            <div className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2">
              {TEXT_COUNTRIES.map((c) => {
                const id = `${form.id}-country-${c.code}`;
                return (
                  <label key={c.code} htmlFor={id} className="flex items-center gap-2 text-sm">
                    <input
                      id={id}
                      type="checkbox"
                      name={fields.countries.name}
                      value={c.code}
                      defaultChecked={chosen.has(c.code)}
                      key={`${fields.countries.key}-${c.code}`}
                      className="h-4 w-4"
                    />
                    <span>
                      {c.name}
                      {(REGISTERED_SENDER_COUNTRIES as readonly string[]).includes(c.code)
                        ? " (registered sender)"
                        : ""}
                    </span>
                  </label>
                );
              })}
            </div>
            <FieldError id={fields.countries.errorId} errors={fields.countries.errors} />
            <p id="texts-registered" className="mt-2 text-xs text-muted">
              The United States and Canada: carriers deliver business texts only from a registered sender (a 10DLC
              campaign or a verified toll-free number on the Messaging Service). Enable them only once yours is
              registered, or texts there fail.
            </p>
          </fieldset>
          <div className="flex flex-wrap items-center gap-3">
            <SubmitButton busy={busy}>Save text messages</SubmitButton>
            <FormStatus result={result} busy={busy} formStatus={form.status} />
          </div>
        </fetcher.Form>
      </section>
    </SettingsTabs>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your text message settings." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Text messages");
