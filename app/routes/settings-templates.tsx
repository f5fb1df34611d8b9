import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { testSend } from "~/actions/test-send-action.server";
import { getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import { RouteError } from "~/components/route-error";
import { SettingsTabs } from "~/components/settings/settings-tabs";
import { Button, SubmitButton } from "~/components/ui/button";
import { FormField } from "~/components/ui/field";
import { FormStatus } from "~/components/ui/form-status";
import { Input } from "~/components/ui/input";
import { LabeledSelect } from "~/components/ui/labeled-select";
import { getDb } from "~/db/client.server";
import { searchDebtorOptions } from "~/debtors/index.server";
import { formatDateTime } from "~/domain/dates";
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language, userLanguage } from "~/domain/languages";
import { userLocale } from "~/domain/number-locale";
import { isTemplateId, PRESETS, type TemplateId, templateName } from "~/domain/presets";
import { STRATEGIES, strategyLabel, type Tone, toTone } from "~/domain/strategies";
import {
  BLOCK_PLACEHOLDERS,
  BODY_MAX,
  INLINE_PLACEHOLDERS,
  PLACEHOLDER_HELP,
  SUBJECT_MAX,
  type TemplatePlaceholder,
} from "~/domain/template-body";
import { mail } from "~/mail/index.server";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { requestTimeZone } from "~/platform/time-zone.server";
import { editedSteps, resetStepText, saveStepText, stepTexts } from "~/reminders/index.server";
import { SCHEDULE_INTENTS } from "~/schemas/intents";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { TEMPLATE_TEXT_INTENTS as INTENTS, StepTextSchema } from "~/schemas/step-text";
import { useLocale } from "~/ui/root-data";
import { pageMeta } from "~/ui/site";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";
import type { Route } from "./+types/settings-templates";

/** Every step a cadence can send, in the order the presets send them. */
const STEPS = PRESETS.flatMap((p) => p.templates);

/** The step shown: `?template=&tone=&language=`, else the first step, Polite, in the user's language. */
function stepOf(url: URL, fallbackLanguage: Language) {
  const template = url.searchParams.get("template") ?? "";
  const language = url.searchParams.get("language") ?? "";
  return {
    template: isTemplateId(template) ? template : ("initial" as TemplateId),
    tone: toTone(Number(url.searchParams.get("tone"))),
    language: isLanguage(language) ? language : fallbackLanguage,
  };
}

/**
 * Settings → E-mail texts (decisions/056): each step of every cadence (template and tone) in each
 * language, in the user's own words or Dunly's; a live preview with a real debtor; a test to the
 * user's own address; "Reset to Dunly's text".
 */
export async function loader({ context, url, request }: Route.LoaderArgs) {
  const user = await requireUser(context, url);
  const { env } = getApp(context);
  const db = getDb(env.DB);
  const step = stepOf(url, userLanguage(user.locale));
  const [saved, edited, debtorOptions, dunly] = await Promise.all([
    stepTexts(db, user.id, step),
    editedSteps(db, user.id),
    searchDebtorOptions(db, user.id, "", 50),
    // Dunly's own text comes from the mail Worker, which holds the copy in five languages.
    mail.dunlyText(env, step.template, step.tone, step.language),
  ]);
  const own = saved.find((t) => t.language === step.language);
  if (!own && !dunly.ok) throw new Response("Dunly's text could not be loaded.", { status: 502 });
  return {
    step,
    text: own ? { subject: own.subject, body: own.body } : dunly.ok ? dunly.text : { subject: "", body: "" },
    savedAt: own?.updatedAt ?? null,
    edited,
    debtors: debtorOptions.map((d) => ({ id: d.id, name: d.fullName, email: d.email })),
    timeZone: requestTimeZone(request),
    locale: userLocale(user.locale),
  };
}

export async function action({ context, request, url }: Route.ActionArgs) {
  const user = await requireUser(context, url);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  const db = getDb(getApp(context).env.DB);
  if (intent === SCHEDULE_INTENTS.testSend) return testSend({ context, formData, timeZone: requestTimeZone(request) });
  if (intent === INTENTS.save || intent === INTENTS.reset) {
    const submission = parseWithValibot(formData, { schema: StepTextSchema });
    if (intent === INTENTS.reset) {
      const key = submission.payload;
      const template = String(key.template ?? "");
      const language = String(key.language ?? "");
      if (!isTemplateId(template) || !isLanguage(language))
        return reply(intent, { status: 400, message: SOMETHING_WRONG });
      const step = { template, tone: toTone(Number(key.tone)), language };
      const removed = await resetStepText(db, user.id, step);
      if (!removed) return reply(intent, { status: 404, message: "This step already uses Dunly's text." });
      return reply(intent, { message: `Dunly's text is back for ${stepName(step)}.` });
    }
    if (submission.status !== "success") return reply(intent, { status: 400, result: submission.reply() });
    const { subject, body, ...step } = submission.value;
    await saveStepText(db, user.id, step, { subject, body });
    return reply(intent, {
      message: `Saved: reminders of ${stepName(step)} use your text.`,
      result: submission.reply(),
    });
  }
  return reply(intent, { status: 400, message: SOMETHING_WRONG });
}

function stepName(step: { template: TemplateId; tone: Tone; language: Language }) {
  return `${templateName(step.template)} · ${strategyLabel(step.tone)} · ${LANGUAGE_NAMES[step.language]}`;
}

const fieldClass =
  "mt-1 w-full rounded-md border border-border bg-background px-3 py-2 font-mono text-sm aria-[invalid=true]:border-danger";

/** Inserts a placeholder where the cursor is in the field last focused (the body by default). */
function insertAt(field: HTMLInputElement | HTMLTextAreaElement, text: string) {
  const start = field.selectionStart ?? field.value.length;
  const end = field.selectionEnd ?? start;
  field.focus();
  field.setRangeText(text, start, end, "end");
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

function PlaceholderPicker({ onPick }: { onPick: (name: TemplatePlaceholder) => void }) {
  const group = (title: string, names: readonly TemplatePlaceholder[], note: string) => (
    <div>
      <h3 className="text-sm font-semibold">{title}</h3>
      <p className="text-xs text-muted">{note}</p>
      <ul className="mt-2 flex flex-wrap gap-2">
        {names.map((name) => (
          <li key={name}>
            <button
              type="button"
              onClick={() => onPick(name)}
              title={PLACEHOLDER_HELP[name]}
              aria-label={`Insert {${name}}: ${PLACEHOLDER_HELP[name]}`}
              className="rounded-full border border-border px-3 py-1 font-mono text-xs hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-primary"
            >
              {`{${name}}`}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-border p-3" data-testid="placeholder-picker">
      {group("Words", INLINE_PLACEHOLDERS, "In a sentence or the subject.")}
      {group("Parts of the e-mail", BLOCK_PLACEHOLDERS, "Each on a line of its own, in the text only.")}
    </div>
  );
}

export default function SettingsTemplates({ loaderData }: Route.ComponentProps) {
  const { step, text, savedAt, edited, debtors, timeZone, locale } = loaderData;
  const fetcher = useFetcher<typeof action>();
  const busy = fetcher.state !== "idle";
  const intent = fetcher.formData?.get("intent");
  const result = useFormResult(fetcher, [INTENTS.save, INTENTS.reset, SCHEDULE_INTENTS.testSend]);
  const formLocale = useLocale();
  const key = `${step.template}-${step.tone}-${step.language}`;
  const [form, fields] = useValibotForm(StepTextSchema, {
    id: `text-${key}-${savedAt ?? "dunly"}`,
    lastResult: busy ? undefined : result?.result,
    defaultValue: { ...step, tone: String(step.tone), subject: text.subject, body: text.body },
  });
  const formRef = useRef<HTMLFormElement>(null);
  const lastField = useRef<"subject" | "body">("body");
  const [bodyLength, setBodyLength] = useState(text.body.length);
  // Kept across saves (the form starts again from what was saved).
  const [debtorId, setDebtorId] = useState("");
  const [previewHtml, setPreviewHtml] = useState<string | null>(null);
  const [previewFailed, setPreviewFailed] = useState(false);
  const [previewTick, setPreviewTick] = useState(0);
  const isEdited = savedAt !== null;
  // Without JavaScript, "Update preview" posts the form into the preview's frame; with it, the preview follows the typing.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // The live preview: the form as it is, rendered by the server (debounced while typing).
  useEffect(() => {
    const element = formRef.current;
    // Before any change the iframe shows the saved text (or Dunly's) from its own address.
    if (!element || previewTick === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      const data = new FormData(element);
      data.delete("intent");
      fetch("/schedule/preview", { method: "POST", body: data, signal: controller.signal })
        .then((res) => (res.ok ? res.text() : Promise.reject(new Error(String(res.status)))))
        .then((html) => {
          setPreviewHtml(html);
          setPreviewFailed(false);
        })
        .catch(() => {
          if (!controller.signal.aborted) setPreviewFailed(true);
        });
    }, 500);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [previewTick]);

  const onPick = (name: TemplatePlaceholder) => {
    const element = formRef.current;
    if (!element) return;
    const inline = (INLINE_PLACEHOLDERS as readonly string[]).includes(name);
    const target = inline && lastField.current === "subject" ? "subject" : "body";
    const field = element.elements.namedItem(target) as HTMLInputElement | HTMLTextAreaElement | null;
    if (field) insertAt(field, inline ? `{${name}}` : `\n{${name}}\n`);
  };

  const query = (over: Partial<typeof step>) => {
    const s = { ...step, ...over };
    return `/iam/templates?template=${s.template}&tone=${s.tone}&language=${s.language}`;
  };

  return (
    <SettingsTabs current="templates">
      <section aria-labelledby="texts-title" className="rounded-xl border border-border bg-surface p-4 sm:p-6">
        <h2 id="texts-title" className="text-xl font-semibold">
          E-mail texts
        </h2>
        <p className="mt-1 text-sm text-muted">
          Write each reminder in your own words, per step, tone and language. A debtor gets the text in their language;
          where you have not written one, Dunly's own text in that language. The statement, the opt-out link and who it
          is from are always included.
        </p>
        <Form method="get" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Choose a text">
          <LabeledSelect id="text-template" name="template" label="Step" defaultValue={step.template}>
            {STEPS.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </LabeledSelect>
          <LabeledSelect id="text-tone" name="tone" label="Tone" defaultValue={String(step.tone)}>
            {STRATEGIES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </LabeledSelect>
          <LabeledSelect id="text-language" name="language" label="Language" defaultValue={step.language}>
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </LabeledSelect>
          <Button type="submit" variant="outline">
            Show text
          </Button>
        </Form>
        {edited.length > 0 && (
          <div className="mt-4">
            <h3 className="text-sm font-semibold">Your texts</h3>
            <ul className="mt-1 flex flex-wrap gap-2 text-sm" aria-label="Your texts">
              {edited.map((e) => (
                <li key={`${e.template}-${e.tone}-${e.language}`}>
                  <Link
                    to={query(e)}
                    aria-current={`${e.template}-${e.tone}-${e.language}` === key ? "page" : undefined}
                    className="text-primary underline aria-[current=page]:font-semibold"
                  >
                    {stepName(e)}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        )}
      </section>

      <section
        aria-labelledby="text-edit-title"
        className="grid gap-6 rounded-xl border border-border bg-surface p-4 sm:p-6 xl:grid-cols-2"
      >
        <div className="flex min-w-0 flex-col gap-4">
          <div>
            <h2 id="text-edit-title" className="text-lg font-semibold">
              {stepName(step)}
            </h2>
            <p className="text-sm text-muted" data-testid="text-status">
              {isEdited
                ? `Your text, saved ${formatDateTime(savedAt, timeZone, locale)}.`
                : "Dunly's text. Change it and save to make it yours."}
            </p>
          </div>
          <fetcher.Form
            method="post"
            {...getFormProps(form)}
            ref={formRef}
            className="flex flex-col gap-4"
            onInput={() => setPreviewTick((n) => n + 1)}
          >
            <input type="hidden" name="template" value={step.template} />
            <input type="hidden" name="tone" value={step.tone} />
            <input type="hidden" name="language" value={step.language} />
            <input type="hidden" name="frequency" value="daily" />
            <FormField meta={fields.subject} label="Subject">
              <Input
                {...getInputProps(fields.subject, { type: "text" })}
                key={fields.subject.key}
                className="mt-1"
                maxLength={SUBJECT_MAX * 4}
                spellCheck
                onFocus={() => {
                  lastField.current = "subject";
                }}
              />
            </FormField>
            <PlaceholderPicker onPick={onPick} />
            <FormField meta={fields.body} label="Text">
              <textarea
                {...getTextareaProps(fields.body, { ariaDescribedBy: "text-body-help" })}
                key={fields.body.key}
                rows={18}
                spellCheck
                className={fieldClass}
                onFocus={() => {
                  lastField.current = "body";
                }}
                onChange={(e) => setBodyLength(e.currentTarget.value.length)}
              />
            </FormField>
            <p id="text-body-help" className="-mt-2 text-xs text-muted">
              {`An empty line starts a new paragraph · **bold** · [words](https://a-link) · ${bodyLength.toLocaleString(formLocale)} of ${BODY_MAX.toLocaleString(formLocale)} characters. Without {statement}, the statement goes after the first paragraph.`}
            </p>
            {/* The choice is the page's, not the text's: kept when the form starts again from a saved text. */}
            {hydrated && <input type="hidden" name="debtor_id" value={debtorId} />}
            <LabeledSelect
              key={form.id}
              id="text-debtor"
              name={hydrated ? undefined : "debtor_id"}
              label="Preview and test with"
              value={debtorId}
              onChange={(e) => {
                setDebtorId(e.currentTarget.value);
                setPreviewTick((n) => n + 1);
              }}
            >
              <option value="">A sample debtor</option>
              {debtors.map((d) => (
                <option key={d.id} value={d.id}>
                  {`${d.name} (${d.email})`}
                </option>
              ))}
            </LabeledSelect>
            <FormStatus result={result} busy={busy} formStatus={form.status} />
            <div className="flex flex-wrap gap-2">
              <SubmitButton busy={busy && intent === INTENTS.save} name="intent" value={INTENTS.save}>
                Save text
              </SubmitButton>
              <Button type="submit" variant="outline" name="intent" value={SCHEDULE_INTENTS.testSend} disabled={busy}>
                Send me a test
              </Button>
              {!hydrated && (
                <Button
                  type="submit"
                  variant="outline"
                  formAction="/schedule/preview"
                  formTarget="text-preview"
                  formMethod="post"
                >
                  Update preview
                </Button>
              )}
              {isEdited && (
                <Button
                  type="submit"
                  variant="ghost"
                  name="intent"
                  value={INTENTS.reset}
                  formNoValidate
                  disabled={busy}
                >
                  Reset to Dunly's text
                </Button>
              )}
            </div>
            <p className="text-xs text-muted">
              A test goes to your own address with links that change nothing; it counts toward your daily sending limit.
              Choose a debtor with an open invoice to send one.
            </p>
          </fetcher.Form>
        </div>
        <div className="flex min-w-0 flex-col gap-2">
          <h2 className="text-lg font-semibold">Preview</h2>
          <div className="relative min-h-[32rem] overflow-hidden rounded-lg border border-border bg-white">
            {/* One frame: the saved text (or Dunly's) from its address until the text changes, then the
                server's render of the text as typed (srcdoc wins over src while it is set). */}
            <iframe
              name="text-preview"
              title="Preview of the e-mail"
              sandbox=""
              src={`/schedule/preview?template=${step.template}&tone=${step.tone}&language=${step.language}&frequency=daily`}
              srcDoc={previewHtml ?? undefined}
              className="h-[32rem] w-full"
            />
          </div>
          {previewFailed ? (
            <p role="alert" className="text-sm text-danger">
              The preview could not be updated; it shows the text as it was before. Try again in a moment.
            </p>
          ) : (
            <p className="text-xs text-muted">What the chosen debtor would receive, with sample links.</p>
          )}
        </div>
      </section>
    </SettingsTabs>
  );
}

export function ErrorBoundary() {
  return <RouteError message="We couldn't load your e-mail texts." />;
}

export const meta: Route.MetaFunction = () => pageMeta("E-mail texts");
