import * as v from "valibot";
import {
  type Cadence,
  MAX_REPEAT_DAYS,
  MIN_REPEAT_DAYS,
  parseSteps,
  REPEAT_DAYS_MESSAGE,
  SEND_HOUR_MESSAGE,
  SEND_HOURS,
  STEPS_MESSAGE,
} from "~/domain/cadence";
import { missingFieldMessage } from "./missing";

const whole = (message: string) =>
  v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value)),
    v.number(message),
    v.integer(message),
  );

/**
 * Settings → Cadence: the account's steps in days from each invoice's due date ("-3, 0, 7, 14, 30,
 * 45"), the hour they go out in the debtor's zone, and what follows the final notice: stop and tell
 * the user, or a reminder every N days until paid.
 */
export const AccountCadenceSchema = v.pipe(
  v.object(
    {
      cadence_steps: v.pipe(
        v.string(STEPS_MESSAGE),
        v.trim(),
        v.check((text) => parseSteps(text) !== null, STEPS_MESSAGE),
      ),
      send_hour: v.pipe(
        whole(SEND_HOUR_MESSAGE),
        v.check((h) => (SEND_HOURS as readonly number[]).includes(h), SEND_HOUR_MESSAGE),
      ),
      after_last: v.picklist(["end", "repeat"], "Choose what follows the final notice"),
      repeat_days: v.optional(
        v.union([
          v.literal(""),
          v.pipe(
            whole(REPEAT_DAYS_MESSAGE),
            v.minValue(MIN_REPEAT_DAYS, REPEAT_DAYS_MESSAGE),
            v.maxValue(MAX_REPEAT_DAYS, REPEAT_DAYS_MESSAGE),
          ),
        ]),
      ),
    },
    missingFieldMessage({ cadence_steps: STEPS_MESSAGE, send_hour: SEND_HOUR_MESSAGE }),
  ),
  v.forward(
    v.partialCheck(
      [["after_last"], ["repeat_days"]],
      (input) => input.after_last !== "repeat" || typeof input.repeat_days === "number",
      REPEAT_DAYS_MESSAGE,
    ),
    ["repeat_days"],
  ),
);

export type AccountCadenceInput = v.InferOutput<typeof AccountCadenceSchema>;

/** The cadence the form's valid values describe: its steps, hour, and the repeat after the final notice (or none). */
export function cadenceOfInput(input: AccountCadenceInput): Cadence {
  return {
    steps: parseSteps(input.cadence_steps) ?? [],
    hour: input.send_hour,
    repeatDays: input.after_last === "repeat" && typeof input.repeat_days === "number" ? input.repeat_days : null,
  };
}
