import * as v from "valibot";
import { isCalendarDate } from "~/domain/calendar-date";
import { DEFAULT_FREQUENCY, FREQUENCIES } from "~/domain/frequencies";
import { PRESETS } from "~/domain/presets";
import { trimTimeZone } from "~/domain/time-zone";
import { missingFieldMessage } from "./missing";

export const SCHEDULE_DEBTOR_MESSAGE = "Please select a debtor";
const SCHEDULE_PRESET_MESSAGE = "Please select a preset";
export const SCHEDULE_ORG_MESSAGE = "Please select an organization";
const SCHEDULE_FREQUENCY_MESSAGE = "Please select a frequency";
const DUE_DATE_MESSAGE = "Please enter a valid date";

const MISSING = missingFieldMessage({
  debtor_id: SCHEDULE_DEBTOR_MESSAGE,
  preset: SCHEDULE_PRESET_MESSAGE,
  frequency: SCHEDULE_FREQUENCY_MESSAGE,
});

const id = (message: string) => v.pipe(v.number(message), v.integer(message), v.minValue(1, message));

/**
 * The new-schedule and edit-schedule form. The owner, the sender's name and address and the
 * debtor's details are never taken from the client: the server looks them up for the signed-in user.
 */
export const ScheduleSchema = v.pipe(
  v.object(
    {
      kind: v.optional(v.picklist(["person", "company"]), "person"),
      organization_id: v.optional(id(SCHEDULE_ORG_MESSAGE)),
      debtor_id: id(SCHEDULE_DEBTOR_MESSAGE),
      preset: v.picklist(
        PRESETS.map((p) => p.id),
        SCHEDULE_PRESET_MESSAGE,
      ),
      due_date: v.optional(v.pipe(v.string(), v.trim(), v.check(isCalendarDate, DUE_DATE_MESSAGE))),
      frequency: v.optional(
        v.picklist(
          FREQUENCIES.map((f) => f.id),
          SCHEDULE_FREQUENCY_MESSAGE,
        ),
        DEFAULT_FREQUENCY,
      ),
      // Checked against Intl by the server; anything odd falls back (UTC, or the schedule's own).
      time_zone: v.optional(v.pipe(v.string(), v.transform(trimTimeZone))),
    },
    MISSING,
  ),
  v.forward(
    v.check((input) => input.kind !== "company" || input.organization_id !== undefined, SCHEDULE_ORG_MESSAGE),
    ["organization_id"],
  ),
);
export type ScheduleInput = v.InferOutput<typeof ScheduleSchema>;
