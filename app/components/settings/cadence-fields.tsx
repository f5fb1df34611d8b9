import { type FieldMetadata, getInputProps, getSelectProps } from "@conform-to/react";
import { FormField } from "~/components/ui/field";
import { SEND_HOURS } from "~/domain/cadence";

/** The cadence forms' field style (Settings → Cadence and "Use another cadence"). */
export const CADENCE_FIELD = "mt-1 h-10 w-full rounded-md border border-border bg-background px-3 text-sm";

const hourLabel = (h: number) => `${String(h).padStart(2, "0")}:00`;

/** "Days from the due date", with what the numbers mean; `onSteps` hears what is typed. */
export function CadenceStepsField<S>({ meta, onSteps }: { meta: FieldMetadata<S>; onSteps?: (text: string) => void }) {
  return (
    <>
      <FormField meta={meta} label="Days from the due date">
        <input
          {...getInputProps(meta, { type: "text" })}
          key={meta.key}
          autoComplete="off"
          className={CADENCE_FIELD}
          onInput={onSteps ? (event) => onSteps(event.currentTarget.value) : undefined}
        />
      </FormField>
      <p className="-mt-3 text-xs text-muted">
        Negative numbers are days before the due date, 0 the due date itself. The e-mails grow firmer along the steps
        after the due date; the last one is the final notice.
      </p>
    </>
  );
}

/** "Send at (the debtor's time)": 08:00 to 20:00. */
export function SendHourField<S>({ meta }: { meta: FieldMetadata<S> }) {
  return (
    <FormField meta={meta} label="Send at (the debtor's time)">
      <select {...getSelectProps(meta)} key={meta.key} className={CADENCE_FIELD}>
        {SEND_HOURS.map((h) => (
          <option key={h} value={h}>
            {hourLabel(h)}
          </option>
        ))}
      </select>
    </FormField>
  );
}
