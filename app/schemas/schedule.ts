import * as v from "valibot";
import {
  DEFAULT_CADENCE_STEPS,
  formatSteps,
  MAX_REPEAT_DAYS,
  MIN_REPEAT_DAYS,
  parseSteps,
  REPEAT_DAYS_MESSAGE,
  SEND_HOUR_MESSAGE,
  SEND_HOURS,
  STEPS_MESSAGE,
} from "~/domain/cadence";
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
const DEFAULT_STEPS_TEXT = formatSteps(DEFAULT_CADENCE_STEPS);

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
      // A due-date cadence ('due', app/domain/cadence.ts): its steps as typed ("-3, 0, 3, 7, 14"),
      // what happens after the last step, the hour in the debtor's zone, and whether the first
      // reminder goes out now. Read only for 'due'.
      // Not given: the default steps (app/domain/cadence.ts DEFAULT_CADENCE_STEPS); ending after the last.
      cadence_steps: v.optional(v.pipe(v.string(), v.trim())),
      after_last: v.optional(v.picklist(["end", "repeat"])),
      repeat_days: v.optional(
        v.pipe(
          v.number(REPEAT_DAYS_MESSAGE),
          v.integer(REPEAT_DAYS_MESSAGE),
          v.minValue(MIN_REPEAT_DAYS, REPEAT_DAYS_MESSAGE),
          v.maxValue(MAX_REPEAT_DAYS, REPEAT_DAYS_MESSAGE),
        ),
      ),
      send_hour: v.optional(
        v.pipe(
          v.number(SEND_HOUR_MESSAGE),
          v.check((h) => (SEND_HOURS as readonly number[]).includes(h), SEND_HOUR_MESSAGE),
        ),
      ),
      send_first_now: v.optional(v.boolean()),
    },
    MISSING,
  ),
  v.forward(
    v.check(
      (input) => input.frequency !== "due" || parseSteps(input.cadence_steps ?? DEFAULT_STEPS_TEXT) !== null,
      STEPS_MESSAGE,
    ),
    ["cadence_steps"],
  ),
  v.forward(
    v.check(
      (input) => input.frequency !== "due" || input.after_last !== "repeat" || input.repeat_days !== undefined,
      REPEAT_DAYS_MESSAGE,
    ),
    ["repeat_days"],
  ),
  v.forward(
    v.check((input) => input.kind !== "company" || input.organization_id !== undefined, SCHEDULE_ORG_MESSAGE),
    ["organization_id"],
  ),
);
export type ScheduleInput = v.InferOutput<typeof ScheduleSchema>;
