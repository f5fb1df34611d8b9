import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { RouteError } from "~/components/route-error";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormStatus } from "~/components/ui/form-status";
import { FieldError, Label } from "~/components/ui/input";
import { getDb } from "~/db/client.server";
import { saveTextSettingsStatement, saveTextTemplateStatement, textSettingsOf, textsUsed } from "~/db/text-allowance";
import { formatDayOf } from "~/domain/dates";
import { formatCount } from "~/domain/intl";
import { nextTextMonthStart, REGISTERED_SENDER_COUNTRIES, TEXT_COUNTRIES, textMonth } from "~/domain/phone";
import { effectivePlan, textAllowanceLine } from "~/domain/plans";
import { DEFAULT_TEXT_TEMPLATE, TEXT_MAX_CHARS, TEXT_PLACEHOLDERS, TEXT_STOP_LINE } from "~/domain/text-message";
import { LONGEST_SAMPLE_FACTS, TEXT_PLACEHOLDER_HELP, textCountLine, textPreview } from "~/domain/text-preview";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { requestNumberLocale } from "~/platform/locale.server";
import { TEXT_INTENTS } from "~/schemas/intents";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { textSettingsSchema } from "~/schemas/text-settings";
import { TextTemplateSchema } from "~/schemas/text-template";
import { textsAvailable } from "~/texts/index.server";
import { useLocale } from "~/ui/root-data";
import { pageMeta } from "~/ui/site";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/settings-texts";

const INTENT = TEXT_INTENTS.save;
const TEMPLATE_INTENTS = [TEXT_INTENTS.saveTemplate, TEXT_INTENTS.defaultTemplate, TEXT_INTENTS.previewTemplate];

const TEXTS_UNAVAILABLE = "Text messages are not available yet: every reminder goes by e-mail.";

/**
 * Settings → Text messages (decisions/069, 070): the text channel on or off, the countries whose
 * numbers may be texted (the US and Canada only with a registered sender), the month's allowance of
 * the account's plan with what it has used, and the words of the text a step sends, with its
 * longest preview. Where no text can be sent (production without Twilio) it says so and offers
 * nothing.
 */
export async function loader({ context, url, request }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const { env, config } = getApp(context);
  if (!textsAvailable(config)) return { available: false as const };
  const db = getDb(env.DB);
  const now = Date.now();
  const month = textMonth(now);
  const [settings, used] = await Promise.all([textSettingsOf(db, user.id), textsUsed(db, user.id, month)]);
  const plan = effectivePlan(user, now);
  return {
    available: true as const,
    settings,
    used,
    plan: plan ? { name: plan.name, monthlyTexts: plan.monthlyTexts, line: textAllowanceLine(plan) } : null,
    // The month is UTC's (the allowance's own), written in the user's date format.
    renewsOn: formatDayOf(nextTextMonthStart(now), "UTC", requestNumberLocale(request, user)),
  };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  const { env, config } = getApp(context);
  if (!textsAvailable(config)) return reply(intent, { status: 503, message: TEXTS_UNAVAILABLE });
  const db = getDb(env.DB);
  if ((TEMPLATE_INTENTS as readonly string[]).includes(intent)) return templateAction(db, user.id, intent, formData);
  if (intent !== INTENT) return reply(intent, { status: 400, message: SOMETHING_WRONG });
  const submission = parseWithValibot(formData, { schema: textSettingsSchema });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  await saveTextSettingsStatement(db, user.id, submission.value, Date.now());
  return reply(intent, {
    message: submission.value.enabled
      ? "Text messages saved: text steps go to debtors who consented, in the countries you chose."
      : "Text messages saved. They are off: no text is sent.",
    result: submission.reply(),
  });
}

/** The text's words: saved, back to the default, or (without JavaScript) only previewed. */
async function templateAction(db: ReturnType<typeof getDb>, ownerId: string, intent: string, formData: FormData) {
  const now = Date.now();
  if (intent === TEXT_INTENTS.defaultTemplate) {
    await saveTextTemplateStatement(db, ownerId, null, now);
    return reply(intent, { message: "The default words are back: text steps send them." });
  }
  const submission = parseWithValibot(formData, { schema: TextTemplateSchema });
  if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
  if (intent === TEXT_INTENTS.previewTemplate)
    return reply(intent, {
      message: "The preview shows the words as typed. They are not saved yet.",
      result: submission.reply(),
    });
  const { body } = submission.value;
  // The default's own words are stored as the default: they follow it if Dunly ever improves it.
  await saveTextTemplateStatement(db, ownerId, body === DEFAULT_TEXT_TEMPLATE ? null : body, now);
  return reply(intent, {
    message: "Your words are saved: text steps send them.",
    result: submission.reply(),
  });
}

export default function SettingsTexts({ loaderData }: Route.ComponentProps) {
  if (!loaderData.available)
    return (
      <SettingsTabs current="texts">
        <section aria-labelledby="texts-title" className="rounded-xl border border-border bg-surface p-6">
          <h2 id="texts-title" className="text-xl font-semibold">
            Text messages
          </h2>
          <p className="mt-1 text-sm" data-testid="texts-unavailable">
            {TEXTS_UNAVAILABLE}
          </p>
        </section>
      </SettingsTabs>
    );
  return <TextSettingsPage {...loaderData} />;
}

function TextSettingsPage({
  settings,
  used,
  plan,
  renewsOn,
}: Extract<Route.ComponentProps["loaderData"], { available: true }>) {
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
          A debtor's STOP ends their texts at once, and you are told. You choose which steps send a text in{" "}
          <Link to="/iam/cadence" className="text-primary underline">
            Settings → Cadence
          </Link>
          .
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
      <TextTemplateForm template={settings.template} />
    </SettingsTabs>
  );
}

/** A short, stable id for the words saved: the form starts again from them when they change. */
function versionOf(text: string): string {
  let hash = 5381;
  for (let i = 0; i < text.length; i++) hash = (hash * 33) ^ text.charCodeAt(i);
  return (hash >>> 0).toString(36);
}

/**
 * "Your text message": the words a text step sends, what each placeholder becomes, and the text at
 * its longest as it would be sent (opt-out line included) with its characters and SMS segments,
 * following the typing with JavaScript and after "Show the preview" without.
 */
function TextTemplateForm({ template }: { template: string }) {
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const sending = fetcher.formData?.get("intent");
  const result = useFormResult(fetcher, TEMPLATE_INTENTS);
  const locale = useLocale();
  const [form, fields] = useValibotForm(TextTemplateSchema, {
    id: `text-template-${versionOf(template)}`,
    lastResult: busy ? undefined : result?.result,
    defaultValue: { body: template },
  });
  // Without JavaScript, "Show the preview" posts the words; with it, the preview follows the typing.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const typed = typeof fields.body.value === "string" ? fields.body.value : (fields.body.value ?? "");
  const preview = textPreview(String(typed));
  const isDefault = template === DEFAULT_TEXT_TEMPLATE;
  return (
    <section aria-labelledby="text-template-title" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
      <h2 id="text-template-title" className="text-xl font-semibold">
        Your text message
      </h2>
      <p className="mt-1 text-sm text-muted">
        {`The words every text step sends, at most ${TEXT_MAX_CHARS} characters once filled in. `}
        {isDefault ? "These are Dunly's default words." : "These are your own words."}
      </p>
      <fetcher.Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
        <div>
          <Label htmlFor={fields.body.id}>The words</Label>
          <textarea
            {...getTextareaProps(fields.body, { ariaDescribedBy: "text-template-rules" })}
            key={fields.body.key}
            rows={4}
            spellCheck
            className="mt-1 w-full rounded-md border border-border bg-background px-3 py-2 text-sm aria-[invalid=true]:border-danger"
          />
          <FieldError id={fields.body.errorId} errors={fields.body.errors} />
          <p id="text-template-rules" className="mt-1 text-xs text-muted">
            {`Write {amount}, {status} and {link}: what is owed, where it stands and where to pay. "${TEXT_STOP_LINE}" is always added at the end; you need not write it.`}
          </p>
        </div>
        <div>
          <h3 className="text-sm font-semibold">What Dunly fills in</h3>
          <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[7rem_1fr]">
            {TEXT_PLACEHOLDERS.map((p) => (
              <div key={p} className="contents">
                <dt className="font-mono text-xs sm:pt-0.5">{`{${p}}`}</dt>
                <dd className="-mt-1 text-muted sm:mt-0">{TEXT_PLACEHOLDER_HELP[p]}</dd>
              </div>
            ))}
          </dl>
        </div>
        <div className="rounded-lg border border-border p-3" data-testid="text-preview">
          <h3 className="text-sm font-semibold">Preview: the longest it can be</h3>
          <p className="text-xs text-muted">
            {`With sample values as long as Dunly allows (a ${LONGEST_SAMPLE_FACTS.name.length}-character name, the longest amount, status and link), as the debtor's phone would show it.`}
          </p>
          {preview.ok ? (
            <>
              <p
                className="mt-2 max-w-sm whitespace-pre-wrap break-words rounded-2xl rounded-bl-sm bg-surface-2 px-3 py-2 text-sm"
                data-testid="text-preview-body"
              >
                {preview.body}
              </p>
              <p className="mt-2 text-xs" data-testid="text-preview-count">
                {textCountLine(preview, locale)}
              </p>
            </>
          ) : (
            <p className="mt-2 text-sm text-danger" data-testid="text-preview-problem">
              {`Nothing to preview yet. ${preview.error}`}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton
            busy={busy && sending === TEXT_INTENTS.saveTemplate}
            disabled={busy}
            name="intent"
            value={TEXT_INTENTS.saveTemplate}
          >
            Save the words
          </SubmitButton>
          {!hydrated && (
            <Button type="submit" variant="outline" name="intent" value={TEXT_INTENTS.previewTemplate}>
              Show the preview
            </Button>
          )}
          {!isDefault && (
            <Button
              type="submit"
              variant="ghost"
              name="intent"
              value={TEXT_INTENTS.defaultTemplate}
              formNoValidate
              disabled={busy}
            >
              Restore the default words
            </Button>
          )}
          <FormStatus result={result} busy={busy} formStatus={form.status} />
        </div>
      </fetcher.Form>
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your text message settings." />;
}

export const meta: Route.MetaFunction = () => pageMeta("Text messages");
