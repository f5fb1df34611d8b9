import { Loader2, Send } from "lucide-react";
import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import type { scheduleAction } from "~/actions/schedule-action.server";
import { notify } from "~/components/toast";
import { Button } from "~/components/ui/button";
import { afterLastLabel, parseSteps, stepLabel, stepTemplates } from "~/domain/cadence";
import type { OutlookAnswer } from "~/domain/cadence-plan";
import { frequencyLabel } from "~/domain/frequencies";
import { getPreset, templateName } from "~/domain/presets";
import { strategyLabel } from "~/domain/strategies";
import { SCHEDULE_INTENTS } from "~/schemas/intents";
import { cn } from "~/ui/class-names";
import { useFormResult } from "~/ui/use-form-result";

/** Whose values the preview shows and a test send uses; all "" for the sample. */
export interface PreviewValues {
  debtorId: string;
  organizationId: string;
  dueDate: string;
}

/**
 * The e-mail preview beside the new-schedule form (docs/product-spec.md §2): preset name and description, the
 * frequency, the preset's templates as a list to click, and the selected template rendered by the
 * server into a sandboxed frame (no scripts, no same-origin access): with the chosen debtor's real
 * values, else a sample debtor's; the sender, their 'Pay now' page, the due date and the frequency
 * (a one-time reminder announces no more) are the real ones either way, so it shows what would be
 * sent. "Send me a test" e-mails it to the user's own address.
 */
export function EmailPreview({
  presetId,
  frequency,
  tone,
  values = { debtorId: "", organizationId: "", dueDate: "" },
  cadence = null,
}: {
  presetId: string;
  frequency: string;
  tone: number;
  values?: PreviewValues;
  /**
   * The due-date cadence as the form holds it: its steps are listed instead of the templates, and
   * with a debtor chosen, its coming e-mails.
   */
  cadence?: CadenceWatch | null;
}) {
  const steps = cadence ? parseSteps(cadence.cadenceSteps ?? "") : null;
  const preset = getPreset(presetId);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [stepIndex, setStepIndex] = useState(0);
  const outlook = useOutlook(presetId, values.debtorId, cadence);
  const [runIndex, setRunIndex] = useState(0);
  const runs = outlook && typeof outlook === "object" && "runs" in outlook ? outlook.runs : null;
  const chosenRun = runs && runs.length > 0 ? (runs[Math.min(runIndex, runs.length - 1)] ?? null) : null;
  // A due-date schedule: each step's e-mail as it will read on that day (app/domain/cadence.ts).
  const stepChoices = preset && steps && steps.length > 0 && !runs ? stepTemplates(steps, preset.id) : null;
  const chosenStep = stepChoices && steps ? Math.min(stepIndex, steps.length - 1) : null;
  const stepOffset = chosenStep !== null && steps ? (steps[chosenStep] ?? null) : null;
  const stepTemplate = chosenStep !== null && stepChoices ? stepChoices[chosenStep] : undefined;
  const runTemplate = chosenRun?.template;
  // A step with its own tone (the account's cadence) sends in it; else the debtor's.
  const runTone = chosenRun?.tone ?? null;
  const wanted = runTemplate ?? stepTemplate ?? templateId;
  const selected =
    preset?.templates.find((t) => t.id === wanted) ??
    (wanted ? { id: wanted, name: templateName(wanted) } : undefined) ??
    preset?.templates[0];
  const runDay = chosenRun?.date ?? null;
  const firstRun = chosenRun !== null && chosenRun === runs?.[0];
  const [html, setHtml] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  // Another preset starts on its first template (state reset during render, not in an effect).
  const [templatesOf, setTemplatesOf] = useState(presetId);
  if (templatesOf !== presetId) {
    setTemplatesOf(presetId);
    setTemplateId(null);
  }
  const selectedId = selected?.id;
  const { debtorId, organizationId, dueDate } = values;
  useEffect(() => {
    if (!selectedId) return;
    const controller = new AbortController();
    setHtml(null);
    setFailed(false);
    // The frequency decides whether the e-mail announces further reminders ('now' sends one).
    const query = new URLSearchParams({ template: selectedId, tone: String(runTone ?? tone), frequency });
    if (runDay) {
      query.set("on", runDay);
      // The first coming e-mail to a debtor never reminded speaks of no earlier one.
      if (firstRun) query.set("first", "1");
    } else if (stepOffset !== null) query.set("step", String(stepOffset));
    if (debtorId) query.set("debtor_id", debtorId);
    if (organizationId) query.set("organization_id", organizationId);
    if (dueDate) query.set("due_date", dueDate);
    fetch(`/schedule/preview?${query}`, { signal: controller.signal })
      .then((res) => (res.ok ? res.text() : Promise.reject(new Error(String(res.status)))))
      .then(setHtml)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) {
          console.error("[dunly] preview failed", error);
          setFailed(true);
        }
      });
    return () => controller.abort();
  }, [selectedId, tone, runTone, frequency, debtorId, organizationId, dueDate, stepOffset, runDay, firstRun]);

  if (!preset || !selected) {
    return (
      <section aria-label="Email preview" className="rounded-xl border border-dashed border-border p-6 text-muted">
        Choose a preset to preview its e-mails.
      </section>
    );
  }
  return (
    <section
      aria-labelledby="preview-heading"
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:p-6"
    >
      <div>
        <h2 id="preview-heading" className="text-lg font-bold">
          {preset.name}
        </h2>
        <p className="text-sm text-muted">
          {steps && cadence
            ? `Each open invoice follows the steps from its own due date; ${afterLastLabel({
                steps: [...steps],
                repeatDays: cadence.afterLast === "repeat" ? Number(cadence.repeatDays) || null : null,
              })}.`
            : preset.description}
        </p>
        <p className="mt-1 text-sm">
          <span className="text-muted">Frequency:</span>{" "}
          <span data-testid="preview-frequency">{frequencyLabel(frequency)}</span>
          <span className="text-muted"> · Tone:</span> {strategyLabel(runTone ?? tone)}
        </p>
      </div>
      {cadence && values.debtorId ? (
        <ComingEmails outlook={outlook} chosen={chosenRun} onChoose={setRunIndex} />
      ) : stepChoices && steps ? (
        <ol className="flex flex-wrap gap-2" aria-label="Steps">
          {steps.map((offset, i) => (
            <li key={offset}>
              <button
                type="button"
                aria-pressed={i === chosenStep}
                onClick={() => setStepIndex(i)}
                className={cn(
                  "rounded-full border px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-primary",
                  i === chosenStep
                    ? "border-primary bg-primary text-primary-foreground"
                    : "border-border hover:bg-surface-2",
                )}
              >
                {`${i + 1}. ${capitalize(stepLabel(offset))} · ${templateName(stepChoices[i] ?? "initial")}`}
              </button>
            </li>
          ))}
        </ol>
      ) : (
        <ol className="flex flex-wrap gap-2" aria-label="Templates">
          {preset.templates.map((t, i) => (
            <li key={t.id}>
              <button
                type="button"
                aria-pressed={t.id === selected.id}
                onClick={() => setTemplateId(t.id)}
                className={cn(
                  "rounded-full border px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-primary",
                  t.id === selected.id
                    ? "border-primary bg-primary text-primary-foreground"
                    : "border-border hover:bg-surface-2",
                )}
              >
                {preset.templates.length > 1 ? `${i + 1}. ` : ""}
                {t.name}
              </button>
            </li>
          ))}
        </ol>
      )}
      <div
        className="relative min-h-[28rem] overflow-hidden rounded-lg border border-border bg-white"
        aria-busy={html === null && !failed}
      >
        {failed ? (
          <p className="p-6 text-sm text-danger" role="alert">
            The preview could not be loaded. Try another template or reload the page.
          </p>
        ) : html === null ? (
          <div
            className="absolute inset-0 flex items-center justify-center gap-2 text-sm text-neutral-600"
            role="status"
          >
            <Loader2 className="h-5 w-5 animate-spin" aria-hidden /> Loading preview…
          </div>
        ) : (
          <iframe title={`Preview: ${selected.name}`} sandbox="" srcDoc={html} className="h-[28rem] w-full" />
        )}
      </div>
      <p className="text-xs text-muted" data-testid="preview-values">
        {debtorId
          ? "Shown with the chosen debtor's details."
          : "Shown with a sample debtor and amount: choose a debtor to see theirs."}
      </p>
      <TestSendForm
        template={selected.id}
        tone={tone}
        frequency={frequency}
        values={values}
        step={stepOffset}
        on={runDay}
        first={firstRun}
      />
    </section>
  );
}

/**
 * "Send me a test": the previewed template and tone with the chosen debtor's details, to the user's
 * own address. It counts toward the daily quota; the answer is a toast.
 */
function TestSendForm({
  template,
  tone,
  frequency,
  values,
  step,
  on,
  first,
}: {
  template: string;
  tone: number;
  frequency: string;
  values: PreviewValues;
  step: number | null;
  on: string | null;
  first: boolean;
}) {
  const fetcher = useFetcher<typeof scheduleAction>();
  const busy = fetcher.state !== "idle";
  useFormResult(fetcher, [SCHEDULE_INTENTS.testSend], (data) => {
    if (data.message) notify(data.ok ? "success" : "error", data.message);
  });
  return (
    <fetcher.Form method="post" action="/schedule" className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="intent" value={SCHEDULE_INTENTS.testSend} />
      <input type="hidden" name="template" value={template} />
      <input type="hidden" name="tone" value={tone} />
      <input type="hidden" name="frequency" value={frequency} />
      <input type="hidden" name="debtor_id" value={values.debtorId} />
      <input type="hidden" name="organization_id" value={values.organizationId} />
      <input type="hidden" name="due_date" value={values.dueDate} />
      {on ? (
        <>
          <input type="hidden" name="on" value={on} />
          {first && <input type="hidden" name="first" value="1" />}
        </>
      ) : (
        step !== null && <input type="hidden" name="step" value={step} />
      )}
      <Button type="submit" variant="outline" disabled={busy} aria-describedby="test-send-note">
        {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> : <Send className="h-4 w-4" aria-hidden />}
        Send me a test
      </Button>
      <p id="test-send-note" className="text-xs text-muted">
        Sends this e-mail to your own address. It counts toward your daily quota.
      </p>
    </fetcher.Form>
  );
}

/** "3 days before" → "3 days before"; "on the due date" → "On the due date". */
function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The form's due-date cadence as typed: what the outlook plans with. */
export interface CadenceWatch {
  cadenceSteps?: string;
  afterLast?: string;
  repeatDays?: string;
  sendHour?: string;
}

type Outlook = OutlookAnswer | "loading" | "failed" | null;

/** The chosen debtor's coming e-mails under the typed cadence (/schedule/outlook), re-read as it changes. */
function useOutlook(preset: string, debtorId: string, cadence: CadenceWatch | null): Outlook {
  const [outlook, setOutlook] = useState<Outlook>(null);
  const steps = cadence?.cadenceSteps ?? "";
  const afterLast = cadence?.afterLast ?? "end";
  const repeatDays = cadence?.repeatDays ?? "";
  const sendHour = cadence?.sendHour ?? "";
  const active = cadence !== null && debtorId !== "";
  useEffect(() => {
    if (!active) {
      setOutlook(null);
      return;
    }
    if (!parseSteps(steps)) {
      setOutlook({ error: "Enter the steps to see the coming e-mails." });
      return;
    }
    const controller = new AbortController();
    const query = new URLSearchParams({
      debtor_id: debtorId,
      preset,
      cadence_steps: steps,
      after_last: afterLast,
      repeat_days: repeatDays,
      send_hour: sendHour,
    });
    // Typing in the steps: one request once the user pauses.
    const timer = setTimeout(() => {
      setOutlook("loading");
      fetch(`/schedule/outlook?${query}`, { signal: controller.signal })
        .then((res) => res.json() as Promise<OutlookAnswer>)
        .then(setOutlook)
        .catch(() => {
          if (!controller.signal.aborted) setOutlook("failed");
        });
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [active, debtorId, preset, steps, afterLast, repeatDays, sendHour]);
  return outlook;
}

type Run = Extract<OutlookAnswer, { runs: unknown }>["runs"][number];

/** The coming e-mails as a list to pick from (each previews as on its day), and the steps skipped. */
function ComingEmails({
  outlook,
  chosen,
  onChoose,
}: {
  outlook: Outlook;
  chosen: Run | null;
  onChoose: (index: number) => void;
}) {
  if (outlook === null || outlook === "loading")
    return (
      <p className="flex items-center gap-2 text-sm text-muted" role="status">
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Planning the coming e-mails…
      </p>
    );
  if (outlook === "failed" || "error" in outlook)
    return (
      <p className="text-sm text-danger" role="alert">
        {outlook === "failed" ? "The coming e-mails could not be loaded." : outlook.error}
      </p>
    );
  return (
    <div className="flex flex-col gap-2" data-testid="coming-emails">
      <h3 className="text-sm font-medium">
        Coming e-mails <span className="font-normal text-muted">(the debtor's time, {outlook.timeZone})</span>
      </h3>
      {outlook.runs.length === 0 ? (
        <p className="text-sm text-muted">Nothing: no open invoice has a step left.</p>
      ) : (
        <ol className="flex flex-col gap-1">
          {outlook.runs.map((run, i) => (
            <li key={run.at}>
              <button
                type="button"
                aria-pressed={run === chosen}
                onClick={() => onChoose(i)}
                className={cn(
                  "w-full rounded-md border px-3 py-2 text-left text-sm focus-visible:outline-2 focus-visible:outline-primary",
                  run === chosen ? "border-primary bg-primary/10" : "border-border hover:bg-surface-2",
                )}
              >
                <span className="font-medium">{run.when}</span>
                {` · ${run.templateName}${run.tone ? ` · ${strategyLabel(run.tone)}` : ""}`}
                <span className="block text-muted">
                  {run.lines
                    .map(
                      (l) =>
                        `${l.number ?? `Invoice due ${l.due}`} (${l.step}${l.late ? ", joined late: one e-mail for the steps it missed" : ""})`,
                    )
                    .join("; ")}
                </span>
              </button>
            </li>
          ))}
        </ol>
      )}
      {outlook.skipped.length > 0 && (
        <details className="text-sm text-muted">
          <summary className="cursor-pointer">{`${outlook.skipped.length} ${outlook.skipped.length === 1 ? "step" : "steps"} skipped: joined late`}</summary>
          <ul className="mt-1 list-disc pl-5">
            {outlook.skipped.map((s) => (
              <li key={`${s.number}-${s.due}-${s.step}`}>
                {`${s.number ?? `Invoice due ${s.due}`}: ${s.step} (${s.date}), skipped: joined late`}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
