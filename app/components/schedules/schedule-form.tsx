import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { Loader2 } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import type { scheduleAction } from "~/actions/schedule-action.server";
import { debtorOptionLabel } from "~/components/debtors/open-invoices";
import { DebtorCombobox, type DebtorOption } from "~/components/lists/debtor-combobox";
import { Button } from "~/components/ui/button";
import { DatePicker } from "~/components/ui/date-picker";
import { FormError } from "~/components/ui/field";
import { FieldError, Label } from "~/components/ui/input";
import { SegmentedChoice } from "~/components/ui/segmented-choice";
import {
  DEFAULT_CADENCE_STEPS,
  DEFAULT_REPEAT_DAYS,
  DEFAULT_SEND_HOUR,
  formatSteps,
  SEND_HOURS,
  storedSteps,
} from "~/domain/cadence";
import { DEFAULT_FREQUENCY, FREQUENCIES } from "~/domain/frequencies";
import { DEFAULT_PRESET, PRESETS } from "~/domain/presets";
import type { ActionResult } from "~/platform/action-result";
import { SCHEDULE_INTENTS } from "~/schemas/intents";
import { type ScheduleInput, ScheduleSchema } from "~/schemas/schedule";
import { useFormResult } from "~/ui/use-form-result";
import { AfterFinalNotice } from "./after-final-notice";

export interface ScheduleFormOptions {
  /** Every debtor, for a select; empty when the account has too many (then `searchDebtors`). */
  debtors: { id: number; fullName: string; email: string; activeStrategy: number; openInvoices?: number }[];
  /** The account has more debtors than a select lists: the field searches as the user types. */
  searchDebtors?: boolean;
  organizations: { id: number; name: string }[];
  /** The user's own name, shown (disabled) as the sender on the Person tab. */
  userName: string;
}

export interface ScheduleFormValues {
  id: string;
  debtorId: number;
  /** The schedule's debtor, shown in the search field when the debtors are searched. */
  debtor?: DebtorOption & { activeStrategy?: number };
  organizationId: number | null;
  preset: string;
  frequency: string;
  dueDate: string | null;
  /** A due-date schedule's stored steps ("-3,0,3,7,14"), repeat and hour. */
  cadenceSteps?: string | null;
  cadenceRepeatDays?: number | null;
  sendHour?: number | null;
}

/** What the preview beside the form follows (and a test send uses). */
export interface ScheduleFormWatch {
  preset: string;
  frequency: string;
  debtorId: string;
  /** The chosen debtor's strategy when it came from a search (the select's options carry it otherwise). */
  debtorStrategy?: number;
  /** The sending organization on the Company tab; "" on the Person tab. */
  organizationId: string;
  /** "YYYY-MM-DD" or "". */
  dueDate: string;
  /** A due-date cadence's steps as typed ("-3, 0, 3, 7, 14"). */
  cadenceSteps?: string;
  /** What follows its last step ("end" or "repeat"), every how many days, and its hour, as chosen. */
  afterLast?: string;
  repeatDays?: string;
  sendHour?: string;
}

const inputClass =
  "mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm aria-[invalid=true]:border-danger";

const selectClass =
  "mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm aria-[invalid=true]:border-danger disabled:opacity-70";

/**
 * The schedule form (docs/product-spec.md §2 "New schedule page"): Person/Company tabs with 'Send as', Debtor,
 * Preset, 'Payment Due Date', Frequency. Validated in the browser and by the server with one
 * schema; what the user chose stays on any error. Used for a new schedule and for Edit.
 */
export function ScheduleForm({
  options,
  schedule,
  action = "/schedules/actions",
  redirectTo,
  onDone,
  onCancel,
  onWatch,
}: {
  options: ScheduleFormOptions;
  schedule?: ScheduleFormValues;
  /** Where the form posts: the page's own route when it must also work as a document post. */
  action?: string;
  /** Where a saved schedule lands (with the message as a toast); without it the reply stays here. */
  redirectTo?: string;
  onDone: (data: ActionResult) => void;
  /** Edit: back to the details. A new schedule's Cancel goes to /dashboard. */
  onCancel?: () => void;
  onWatch?: (watch: ScheduleFormWatch) => void;
}) {
  const fetcher = useFetcher<typeof scheduleAction>();
  const busy = fetcher.state !== "idle";
  const intent = schedule ? SCHEDULE_INTENTS.update : SCHEDULE_INTENTS.create;
  const reply = useFormResult(fetcher, [intent], (data) => {
    if (data.ok || data.message) onDone(data);
  });
  const { debtors, searchDebtors = false, organizations, userName } = options;
  const [searched, setSearched] = useState<DebtorOption | null>(schedule?.debtor ?? null);
  // After a document post (no JavaScript yet) the page comes back with what the user chose.
  const typed = (key: string) => {
    const value = reply?.result?.initialValue?.[key];
    return typeof value === "string" ? value : undefined;
  };
  const [kind, setKind] = useState<"person" | "company">(
    (typed("kind") ?? (schedule?.organizationId ? "company" : "person")) === "company" ? "company" : "person",
  );
  const defaultOrganization = schedule?.organizationId
    ? String(schedule.organizationId)
    : organizations[0]
      ? String(organizations[0].id)
      : "";
  const [watch, setWatch] = useState<Omit<ScheduleFormWatch, "organizationId">>({
    // A new schedule starts on the default preset (docs/product-spec.md §9).
    preset: typed("preset") ?? schedule?.preset ?? DEFAULT_PRESET,
    frequency: typed("frequency") ?? schedule?.frequency ?? DEFAULT_FREQUENCY,
    debtorId: typed("debtor_id") ?? (schedule ? String(schedule.debtorId) : ""),
    dueDate: typed("due_date") ?? schedule?.dueDate ?? "",
    cadenceSteps:
      typed("cadence_steps") ??
      (schedule?.cadenceSteps ? formatSteps(storedSteps(schedule.cadenceSteps)) : formatSteps(DEFAULT_CADENCE_STEPS)),
    afterLast: typed("after_last") ?? (schedule?.cadenceRepeatDays ? "repeat" : "end"),
    repeatDays: typed("repeat_days") ?? String(schedule?.cadenceRepeatDays ?? DEFAULT_REPEAT_DAYS),
    sendHour: typed("send_hour") ?? String(schedule?.sendHour ?? DEFAULT_SEND_HOUR),
  });
  const [organizationId, setOrganizationId] = useState(typed("organization_id") ?? defaultOrganization);
  const [form, fields] = useForm({
    id: schedule ? `schedule-edit-${schedule.id}` : "schedule-new",
    lastResult: busy ? undefined : reply?.result,
    defaultValue: {
      debtor_id: schedule ? String(schedule.debtorId) : "",
      preset: schedule?.preset ?? DEFAULT_PRESET,
      frequency: schedule?.frequency ?? DEFAULT_FREQUENCY,
      organization_id: defaultOrganization,
    },
    onValidate: ({ formData }) => parseWithValibot(formData, { schema: ScheduleSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });

  const sendingAs = kind === "company" ? organizationId : "";
  useEffect(() => onWatch?.({ ...watch, organizationId: sendingAs }), [watch, sendingAs, onWatch]);

  const update =
    (key: "preset" | "frequency" | "debtorId" | "cadenceSteps") => (event: React.ChangeEvent<HTMLSelectElement>) =>
      setWatch((w) => ({ ...w, [key]: event.target.value }));
  // The date picker keeps its value in a hidden `due_date` input and fires no change event: read
  // it after any interaction with the form (its calendar popup's events bubble here too).
  const readDueDate = (event: React.SyntheticEvent<HTMLFormElement>) => {
    const formElement = event.currentTarget;
    setTimeout(() => {
      const value = new FormData(formElement).get("due_date");
      const dueDate = typeof value === "string" ? value : "";
      setWatch((w) => (w.dueDate === dueDate ? w : { ...w, dueDate }));
    }, 0);
  };
  const noOrganizations = kind === "company" && organizations.length === 0;

  return (
    <div className="flex flex-col gap-4">
      <SegmentedChoice
        legend="Send as a person or a company"
        name={`${form.id}-kind-choice`}
        value={kind}
        options={[
          { value: "person", label: "Person" },
          { value: "company", label: "Company" },
        ]}
        onChange={setKind}
      />

      {noOrganizations ? (
        <p className="rounded-lg border border-border bg-background p-4 text-sm" role="status">
          You have no organizations. Please create one on the{" "}
          <Link to="/iam/orgs" className="text-primary underline">
            settings page
          </Link>
          . to send emails as a company.
        </p>
      ) : (
        <fetcher.Form
          method="post"
          action={action}
          {...getFormProps(form)}
          className="flex flex-col gap-4"
          onKeyUp={readDueDate}
          onClick={readDueDate}
          onBlur={readDueDate}
        >
          <input type="hidden" name="intent" value={intent} />
          {redirectTo && <input type="hidden" name="redirectTo" value={redirectTo} />}
          {schedule && <input type="hidden" name="id" value={schedule.id} />}
          <input type="hidden" name="kind" value={kind} />
          <TimeZoneField />
          <div>
            {kind === "person" ? (
              <>
                <Label htmlFor={`${form.id}-send-as`}>Send as</Label>
                <select id={`${form.id}-send-as`} className={selectClass} disabled value="me">
                  <option value="me">{userName}</option>
                </select>
              </>
            ) : (
              <>
                <Label htmlFor={fields.organization_id.id}>Send as</Label>
                <select
                  {...getSelectProps(fields.organization_id)}
                  key={fields.organization_id.key}
                  className={selectClass}
                  onChange={(event) => setOrganizationId(event.target.value)}
                >
                  {organizations.map((o) => (
                    <option key={o.id} value={o.id}>
                      {o.name}
                    </option>
                  ))}
                </select>
                <FieldError id={fields.organization_id.errorId} errors={fields.organization_id.errors} />
              </>
            )}
          </div>
          {searchDebtors ? (
            <div>
              <DebtorCombobox
                id={fields.debtor_id.id}
                label="Debtor"
                labelClassName="text-sm font-medium"
                selected={searched}
                invalid={Boolean(fields.debtor_id.errors)}
                errorId={fields.debtor_id.errors ? fields.debtor_id.errorId : undefined}
                onSelect={(option) => {
                  setSearched(option);
                  const strategy = (option as DebtorOption & { activeStrategy?: number }).activeStrategy;
                  setWatch((w) => ({ ...w, debtorId: String(option.id), debtorStrategy: strategy }));
                }}
              />
              <input type="hidden" name={fields.debtor_id.name} value={watch.debtorId} />
              <FieldError id={fields.debtor_id.errorId} errors={fields.debtor_id.errors} />
            </div>
          ) : (
            <div>
              <Label htmlFor={fields.debtor_id.id}>Debtor</Label>
              <select
                {...getSelectProps(fields.debtor_id)}
                key={fields.debtor_id.key}
                className={selectClass}
                onChange={update("debtorId")}
              >
                <option value="">Select a debtor</option>
                {debtors.map((d) => (
                  <option key={d.id} value={d.id}>
                    {debtorOptionLabel(d)}
                  </option>
                ))}
              </select>
              <FieldError id={fields.debtor_id.errorId} errors={fields.debtor_id.errors} />
            </div>
          )}
          <div>
            <Label htmlFor={fields.preset.id}>Preset</Label>
            <select
              {...getSelectProps(fields.preset)}
              key={fields.preset.key}
              className={selectClass}
              onChange={update("preset")}
            >
              {PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            <FieldError id={fields.preset.errorId} errors={fields.preset.errors} />
          </div>
          {/* A due-date schedule follows each open invoice's own due date: no single date to give. */}
          {watch.frequency !== "due" && (
            <DatePicker
              name="due_date"
              label="Payment Due Date"
              defaultValue={watch.dueDate || schedule?.dueDate}
              errors={fields.due_date.errors}
              errorId={fields.due_date.errorId}
            />
          )}
          <div>
            <Label htmlFor={fields.frequency.id}>Frequency</Label>
            <select
              {...getSelectProps(fields.frequency)}
              key={fields.frequency.key}
              className={selectClass}
              onChange={update("frequency")}
            >
              {FREQUENCIES.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.label}
                </option>
              ))}
            </select>
            <FieldError id={fields.frequency.errorId} errors={fields.frequency.errors} />
          </div>
          {watch.frequency === "due" && (
            <CadenceFields
              formId={form.id}
              fields={fields}
              steps={watch.cadenceSteps ?? ""}
              onSteps={(value) => setWatch((w) => ({ ...w, cadenceSteps: value }))}
              onCadence={(change) => setWatch((w) => ({ ...w, ...change }))}
              initial={{
                afterLast: watch.afterLast ?? "end",
                repeatDays: watch.repeatDays ?? String(DEFAULT_REPEAT_DAYS),
                sendHour: watch.sendHour ?? String(DEFAULT_SEND_HOUR),
                sendFirstNow: typed("send_first_now") === "on",
              }}
            />
          )}
          <FormError form={form} />
          <div className="flex justify-end gap-2">
            {onCancel ? (
              <Button type="button" variant="outline" onClick={onCancel}>
                Cancel
              </Button>
            ) : (
              <Button asChild variant="outline">
                <Link to="/dashboard">Cancel</Link>
              </Button>
            )}
            <Button type="submit" disabled={busy}>
              {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
              {schedule ? "Update" : "Schedule"}
            </Button>
          </div>
        </fetcher.Form>
      )}
    </div>
  );
}

/**
 * A due-date cadence's settings: the steps in days
 * from each open invoice's due date, the hour in the debtor's zone, what follows the last step,
 * and whether the first reminder goes out now. Every field is the server's to check too.
 */
function CadenceFields({
  formId,
  fields,
  steps,
  onSteps,
  onCadence,
  initial,
}: {
  formId: string;
  fields: ReturnType<typeof useForm<ScheduleInput>>[1];
  steps: string;
  onSteps: (value: string) => void;
  onCadence: (change: { afterLast?: string; repeatDays?: string; sendHour?: string }) => void;
  initial: { afterLast: string; repeatDays: string; sendHour: string; sendFirstNow: boolean };
}) {
  const [afterLast, setAfterLast] = useState(initial.afterLast === "repeat" ? "repeat" : "end");
  const stepsHelp = `${formId}-steps-help`;
  return (
    <fieldset className="flex flex-col gap-4 rounded-lg border border-border p-3">
      <legend className="px-1 text-sm font-medium">Steps that follow the due date</legend>
      <div>
        <Label htmlFor={fields.cadence_steps.id}>Days from the due date</Label>
        <input
          id={fields.cadence_steps.id}
          name={fields.cadence_steps.name}
          value={steps}
          onChange={(event) => onSteps(event.target.value)}
          inputMode="text"
          autoComplete="off"
          aria-invalid={fields.cadence_steps.errors ? true : undefined}
          aria-describedby={`${stepsHelp}${fields.cadence_steps.errors ? ` ${fields.cadence_steps.errorId}` : ""}`}
          className={inputClass}
        />
        <p id={stepsHelp} className="mt-1 text-xs text-muted">
          Negative numbers are days before the due date, 0 is the due date itself. Every open invoice gets its own
          steps; one already overdue gets one e-mail at the step its age calls for, never the ones it missed. A day with
          several sends one e-mail listing them all.
        </p>
        <FieldError id={fields.cadence_steps.errorId} errors={fields.cadence_steps.errors} />
      </div>
      <div>
        <Label htmlFor={fields.send_hour.id}>Send at (the debtor's time)</Label>
        <select
          id={fields.send_hour.id}
          name={fields.send_hour.name}
          defaultValue={initial.sendHour}
          onChange={(event) => onCadence({ sendHour: event.target.value })}
          className={selectClass}
        >
          {SEND_HOURS.map((h) => (
            <option key={h} value={h}>
              {`${String(h).padStart(2, "0")}:00`}
            </option>
          ))}
        </select>
        <FieldError id={fields.send_hour.errorId} errors={fields.send_hour.errors} />
      </div>
      <AfterFinalNotice
        afterLast={fields.after_last}
        repeatDays={fields.repeat_days}
        value={afterLast === "repeat" ? "repeat" : "end"}
        defaultDays={initial.repeatDays}
        onChange={(value) => {
          setAfterLast(value);
          onCadence({ afterLast: value });
        }}
        onDays={(days) => onCadence({ repeatDays: days })}
      />
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name={fields.send_first_now.name}
          defaultChecked={initial.sendFirstNow}
          className="mt-1"
        />
        <span>Send the first reminder now (in a minute), then follow the steps</span>
      </label>
    </fieldset>
  );
}

/** The browser's time zone: daily and weekly reminders go out at 10:00 there. */
function TimeZoneField() {
  const [tz, setTz] = useState("");
  useEffect(() => setTz(Intl.DateTimeFormat().resolvedOptions().timeZone ?? ""), []);
  return <input type="hidden" name="time_zone" value={tz} />;
}

export default ScheduleForm;
