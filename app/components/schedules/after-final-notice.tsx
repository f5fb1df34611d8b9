import { FieldError } from "~/components/ui/input";
import { MAX_REPEAT_DAYS, MIN_REPEAT_DAYS } from "~/domain/cadence";

/** A conform field's names and errors, as both cadence forms pass them. */
interface Field {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
}

/**
 * What follows a cadence's final notice, in the schedule form and in Settings → Cadence: stop and
 * e-mail the user, or a reminder every N days until paid (the final notice goes once either way).
 */
export function AfterFinalNotice({
  afterLast,
  repeatDays,
  value,
  defaultDays,
  onChange,
  onDays,
}: {
  afterLast: Pick<Field, "name">;
  repeatDays: Field;
  value: "end" | "repeat";
  defaultDays: string;
  onChange: (value: "end" | "repeat") => void;
  onDays?: (days: string) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">After the final notice</legend>
      <label className="mt-2 flex items-start gap-2 text-sm">
        <input
          type="radio"
          name={afterLast.name}
          value="end"
          checked={value === "end"}
          onChange={() => onChange("end")}
          className="mt-1"
        />
        <span>Stop and e-mail me</span>
      </label>
      <label className="mt-2 flex flex-wrap items-center gap-2 text-sm">
        <input
          type="radio"
          name={afterLast.name}
          value="repeat"
          checked={value === "repeat"}
          onChange={() => onChange("repeat")}
          aria-label="A reminder every few days until paid"
        />
        <span aria-hidden>A reminder every</span>
        <input
          id={repeatDays.id}
          name={repeatDays.name}
          type="number"
          min={MIN_REPEAT_DAYS}
          max={MAX_REPEAT_DAYS}
          step={1}
          defaultValue={defaultDays}
          onChange={(event) => onDays?.(event.target.value)}
          disabled={value !== "repeat"}
          aria-label="A reminder every how many days"
          aria-invalid={repeatDays.errors ? true : undefined}
          aria-describedby={repeatDays.errors ? repeatDays.errorId : undefined}
          className="h-9 w-20 rounded-md border border-border bg-background px-2 text-sm aria-[invalid=true]:border-danger disabled:opacity-60"
        />
        <span aria-hidden>days until paid</span>
      </label>
      <FieldError id={repeatDays.errorId} errors={repeatDays.errors} />
    </fieldset>
  );
}
