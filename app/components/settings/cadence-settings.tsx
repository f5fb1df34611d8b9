import { getFormProps } from "@conform-to/react";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
import type { cadenceAction } from "~/actions/cadence-action.server";
import { NoWayToPay } from "~/components/no-way-to-pay";
import { AfterFinalNotice } from "~/components/schedules/after-final-notice";
import { CADENCE_FIELD, CadenceStepsField, SendHourField } from "~/components/settings/cadence-fields";
import { Button, SubmitButton } from "~/components/ui/button";
import {
  afterLastLabel,
  type Cadence,
  cadenceSummary,
  DEFAULT_REPEAT_DAYS,
  formatSteps,
  parseSteps,
  STEP_CHANNEL_LABELS,
  STEP_CHANNELS,
  stepChannelSuffix,
  stepLabel,
  stepTemplates,
} from "~/domain/cadence";

import { templateName } from "~/domain/presets";
import { STRATEGIES, strategyLabel } from "~/domain/strategies";
import { AccountCadenceSchema } from "~/schemas/account-cadence";
import { CADENCE_INTENTS } from "~/schemas/intents";
import { useFormResult } from "~/ui/use-form-result";
import { useValibotForm } from "~/ui/use-valibot-form";

export interface CadenceView {
  steps: number[];
  /** Each step's chosen template and tone, by offset. */
  voices?: Cadence["voices"];
  repeatDays: number | null;
  hour: number;
  autopilot: boolean;
  /** When autopilot was turned on, in the user's words ("Nov 29, 2026, 9:00 AM"); null when off. */
  since: string | null;
  /** Schedules that follow the cadence now (running or held). */
  following: number;
  /**
   * Text messages: "on" (each step's channel is offered), "off" (the account has them off: every
   * step goes by e-mail), "unavailable" (no text can be sent here: nothing about them is shown).
   */
  texts: "on" | "off" | "no-plan" | "unavailable";
}

export interface AutopilotReview {
  debtors: number;
  invoices: number;
  overdue: number;
  today: number;
  hour: number;
  first: { name: string; day: string; what: string }[];
  /** The reminders would offer no way to pay (no bank details, payment link or card payments). */
  noWayToPay: boolean;
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const hourLabel = (h: number) => `${String(h).padStart(2, "0")}:00`;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * Settings → Cadence: autopilot (on or off, turned on only after a summary of what it will do) and
 * the account's cadence every debtor follows unless given its own.
 */
export function CadenceSettings({ view, review }: { view: CadenceView; review: AutopilotReview | null }) {
  return (
    <>
      <AutopilotCard view={view} review={review} />
      <AccountCadenceForm view={view} />
    </>
  );
}

function AutopilotCard({ view, review }: { view: CadenceView; review: AutopilotReview | null }) {
  const fetcher = useFetcher<typeof cadenceAction>();
  const busy = fetcher.state !== "idle";
  const result = useFormResult(fetcher, [CADENCE_INTENTS.autopilotOn, CADENCE_INTENTS.autopilotOff]);
  return (
    <section aria-labelledby="autopilot-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="autopilot-title" className="text-xl font-semibold">
        Autopilot{" "}
        {view.autopilot ? <span className="text-success">is on</span> : <span className="text-muted">is off</span>}
      </h2>
      <p className="mt-1 text-sm text-muted">
        With autopilot on, every debtor with open invoices follows your cadence by itself: new and imported debtors and
        new invoices join at once, and an invoice already overdue gets one e-mail at the step its age calls for. A
        debtor you gave its own schedule, or paused, is left as it is.
      </p>
      {view.autopilot ? (
        <fetcher.Form method="post" className="mt-4 flex flex-col gap-3">
          <input type="hidden" name="intent" value={CADENCE_INTENTS.autopilotOff} />
          <p className="text-sm" data-testid="autopilot-state">
            {`On since ${view.since}. ${plural(view.following, "schedule follows", "schedules follow")} your cadence.`}
          </p>
          <p className="text-sm text-muted">Turning it off pauses the schedules that follow your cadence.</p>
          <SubmitButton busy={busy} variant="outline" className="self-start">
            Turn autopilot off
          </SubmitButton>
        </fetcher.Form>
      ) : review ? (
        <fetcher.Form method="post" className="mt-4 flex flex-col gap-3" aria-labelledby="autopilot-review-title">
          <input type="hidden" name="intent" value={CADENCE_INTENTS.autopilotOn} />
          <h3 id="autopilot-review-title" className="font-semibold">
            Before it starts
          </h3>
          {review.noWayToPay && <NoWayToPay />}
          <p data-testid="autopilot-summary">
            {review.debtors === 0
              ? "No debtor would join now: none has open invoices without a schedule of its own. Debtors and invoices you add later join by themselves."
              : `${plural(review.debtors, "debtor")} with ${plural(review.invoices, "open invoice")}, ${review.overdue.toLocaleString("en-US")} overdue: ${plural(review.today, "e-mail")} will go out today, from ${hourLabel(review.hour)} in each debtor's time zone (or within the minute if that hour has passed, in their daytime); the others follow their due dates.`}
          </p>
          {review.first.length > 0 && (
            <ul className="flex flex-col gap-1 text-sm">
              {review.first.map((f) => (
                <li key={`${f.name}-${f.day}`}>
                  <span className="font-medium">{f.name}</span>
                  {`: ${f.day}, ${f.what}`}
                </li>
              ))}
              {review.debtors > review.first.length && (
                <li className="text-muted">{`and ${plural(review.debtors - review.first.length, "more debtor")}`}</li>
              )}
            </ul>
          )}
          <div className="flex flex-wrap gap-2">
            <SubmitButton busy={busy}>Turn autopilot on</SubmitButton>
            <Button asChild variant="outline">
              <Link to="/iam/cadence">Cancel</Link>
            </Button>
          </div>
        </fetcher.Form>
      ) : (
        <div className="mt-4">
          <Button asChild>
            <Link to="/iam/cadence?review=autopilot">Review and turn on autopilot</Link>
          </Button>
        </div>
      )}
      <div
        role="status"
        aria-live="polite"
        className={result && !result.ok ? "mt-2 text-sm text-danger" : "mt-2 text-sm text-success"}
      >
        {!busy && result?.message ? result.message : null}
      </div>
    </section>
  );
}

function AccountCadenceForm({ view }: { view: CadenceView }) {
  const fetcher = useFetcher<typeof cadenceAction>();
  const busy = fetcher.state !== "idle";
  const reply = useFormResult(fetcher, [CADENCE_INTENTS.save]);
  const [form, fields] = useValibotForm(AccountCadenceSchema, {
    id: "account-cadence-form",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: {
      cadence_steps: formatSteps(view.steps),
      send_hour: String(view.hour),
      after_last: view.repeatDays ? "repeat" : "end",
      repeat_days: String(view.repeatDays ?? DEFAULT_REPEAT_DAYS),
    },
  });
  const [afterLast, setAfterLast] = useState(view.repeatDays ? "repeat" : "end");
  // The steps as typed: each one's e-mail is chosen below, and the list follows what is typed.
  const [typedSteps, setTypedSteps] = useState(formatSteps(view.steps));
  const templates = stepTemplates(view.steps, "FRIENDLY_REMINDER", view.voices);
  return (
    <section aria-labelledby="cadence-title" className="rounded-xl border border-border bg-surface p-6">
      <h2 id="cadence-title" className="text-xl font-semibold">
        Your cadence
      </h2>
      <p className="mt-1 text-sm text-muted" data-testid="cadence-summary">
        {`${cadenceSummary({ steps: view.steps, repeatDays: view.repeatDays, hour: view.hour })}.`}
      </p>
      <ol
        className="mt-3 flex flex-wrap gap-2 text-sm"
        aria-label={view.texts === "on" ? "Steps and what they send" : "Steps and their e-mails"}
      >
        {view.steps.map((offset, i) => {
          const voice = view.voices?.[offset];
          // A text chosen while texts were on is kept, but goes as the e-mail while they are off.
          const channel = view.texts === "on" ? stepChannelSuffix(voice?.channel) : "";
          return (
            <li key={offset} className="rounded-full border border-border px-3 py-1">
              {`${offset === 0 ? "Due date" : offset < 0 ? `${-offset} days before` : `${offset} days after`}: ${templateName(templates[i] ?? "initial")}${voice?.tone ? ` · ${strategyLabel(voice.tone)}` : ""}${channel}`}
            </li>
          );
        })}
      </ol>
      <fetcher.Form
        method="post"
        {...getFormProps(form)}
        // Three lists a step where texts are on: room for "E-mail and text message".
        className={`mt-4 flex flex-col gap-4 ${view.texts === "on" ? "max-w-3xl" : "max-w-2xl"}`}
      >
        <input type="hidden" name="intent" value={CADENCE_INTENTS.save} />
        <CadenceStepsField meta={fields.cadence_steps} onSteps={setTypedSteps} />
        <StepVoices
          steps={parseSteps(typedSteps) ?? view.steps}
          voices={view.voices}
          typed={reply && !reply.ok ? (form.initialValue as Record<string, unknown> | undefined) : undefined}
          texts={view.texts}
          select={CADENCE_FIELD}
        />
        <SendHourField meta={fields.send_hour} />
        <div>
          <AfterFinalNotice
            afterLast={fields.after_last}
            repeatDays={fields.repeat_days}
            value={afterLast === "repeat" ? "repeat" : "end"}
            defaultDays={view.repeatDays ? String(view.repeatDays) : String(DEFAULT_REPEAT_DAYS)}
            onChange={setAfterLast}
          />

          <p className="mt-2 text-xs text-muted">
            {`Now: ${afterLastLabel({ steps: view.steps, repeatDays: view.repeatDays })}.`}
          </p>
        </div>
        <div
          role="status"
          aria-live="polite"
          className={reply && !reply.ok ? "text-sm text-danger" : "text-sm text-success"}
        >
          {!busy && reply?.message ? reply.message : null}
        </div>
        <SubmitButton busy={busy} className="self-start">
          Save cadence
        </SubmitButton>
      </fetcher.Form>
    </section>
  );
}

/**
 * Each step's e-mail: its template (by its place unless chosen) and tone (the debtor's unless
 * chosen), and, where the account has text messages on, its channel; one row per step as typed.
 * Fields are named by the step's offset, so a choice stays with its step when others are added or
 * removed. After a refusal the choices as sent are shown again (`typed`), not the saved ones.
 */
function StepVoices({
  steps,
  voices,
  typed,
  texts,
  select,
}: {
  steps: number[];
  voices: Cadence["voices"];
  typed: Record<string, unknown> | undefined;
  texts: CadenceView["texts"];
  select: string;
}) {
  const byPlace = stepTemplates(steps, "FRIENDLY_REMINDER");
  const initial = (field: string, offset: number, saved: string) => {
    const value = typed?.[`${field}_${offset}`];
    return typeof value === "string" ? value : saved;
  };
  const channels = texts === "on";
  // A text chosen while texts were on is kept while they are off (the e-mail goes meanwhile).
  const kept = (offset: number) => (texts === "off" || texts === "no-plan" ? voices?.[offset]?.channel : undefined);
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-sm font-medium">{channels ? "What each step sends" : "The e-mail at each step"}</legend>
      {texts === "off" && (
        <p className="text-xs text-muted" data-testid="cadence-texts-off">
          {`Every step goes by e-mail: text messages are off${steps.some(kept) ? " (the steps you set to a text keep that choice for when they are on)" : ""}. `}
          <Link to="/iam/texts" className="text-primary underline">
            Turn them on in Settings → Text messages
          </Link>{" "}
          to send a step as a text.
        </p>
      )}
      {texts === "no-plan" && (
        <p className="text-xs text-muted" data-testid="cadence-texts-off">
          {"Every step goes by e-mail: your plan has no text messages. "}
          <Link to="/pricing" className="text-primary underline">
            See the plans
          </Link>{" "}
          to send a step as a text.
        </p>
      )}
      {steps.map((offset, i) => (
        <div
          key={offset}
          className={
            channels
              ? "grid grid-cols-1 gap-2 md:grid-cols-2 md:items-end xl:grid-cols-[minmax(0,11fr)_minmax(0,7fr)_minmax(0,9fr)]"
              : "grid grid-cols-1 gap-2 sm:grid-cols-[9rem_1fr_1fr] sm:items-end"
          }
        >
          <span
            className={
              channels ? "mt-1 text-sm font-semibold md:col-span-2 xl:col-span-3" : "text-sm font-medium sm:pb-2"
            }
          >
            {sentence(stepLabel(offset))}
          </span>
          <label className="text-xs text-muted">
            Template<span className="sr-only">{` ${stepLabel(offset)}`}</span>
            <select
              name={`voice_template_${offset}`}
              defaultValue={initial("voice_template", offset, voices?.[offset]?.template ?? "")}
              className={select}
            >
              <option value="">{`By its place (${templateName(byPlace[i] ?? "initial")})`}</option>
              {(["initial", "follow-up", "second-follow-up", "final-notice"] as const).map((t) => (
                <option key={t} value={t}>
                  {templateName(t)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs text-muted">
            Tone<span className="sr-only">{` ${stepLabel(offset)}`}</span>
            <select
              name={`voice_tone_${offset}`}
              defaultValue={initial("voice_tone", offset, String(voices?.[offset]?.tone ?? ""))}
              className={select}
            >
              <option value="">The debtor's tone</option>
              {STRATEGIES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          </label>
          {channels ? (
            <label className="text-xs text-muted">
              Channel<span className="sr-only">{` ${stepLabel(offset)}`}</span>
              <select
                name={`voice_channel_${offset}`}
                defaultValue={initial("voice_channel", offset, voices?.[offset]?.channel ?? "email")}
                className={select}
              >
                {STEP_CHANNELS.map((c) => (
                  <option key={c} value={c}>
                    {STEP_CHANNEL_LABELS[c]}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            kept(offset) && <input type="hidden" name={`voice_channel_${offset}`} value={kept(offset)} />
          )}
        </div>
      ))}
    </fieldset>
  );
}
