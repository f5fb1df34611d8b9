import * as v from "valibot";
import { CONTACT_DEFAULTS } from "~/domain/contact-rules";
import { missingFieldMessage } from "./missing";

const { startHour: EARLIEST, endHour: LATEST, maxPerWindow: MOST } = CONTACT_DEFAULTS;

const hour = (min: number, max: number, message: string) =>
  v.pipe(
    v.unknown(),
    v.transform((value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value)),
    v.number(message),
    v.integer(message),
    v.minValue(min, message),
    v.maxValue(max, message),
  );

export const START_MESSAGE = `Please choose a start between ${EARLIEST}:00 and ${LATEST - 1}:00`;
export const END_MESSAGE = `Please choose an end between ${EARLIEST + 1}:00 and ${LATEST}:00`;
export const ORDER_MESSAGE = "The end must be after the start";
export const CAP_MESSAGE = `Please choose between 1 and ${MOST} reminders`;

/**
 * The account's contact rules (Settings → Info): its own sending hours and contact cap, never
 * looser than Dunly's defaults (08:00–21:00, 7 reminders per debtor in 7 days).
 */
export const ContactRulesSchema = v.pipe(
  v.object(
    {
      start_hour: hour(EARLIEST, LATEST - 1, START_MESSAGE),
      end_hour: hour(EARLIEST + 1, LATEST, END_MESSAGE),
      max_per_week: hour(1, MOST, CAP_MESSAGE),
    },
    missingFieldMessage({ start_hour: START_MESSAGE, end_hour: END_MESSAGE, max_per_week: CAP_MESSAGE }),
  ),
  v.forward(
    v.partialCheck([["start_hour"], ["end_hour"]], (input) => input.start_hour < input.end_hour, ORDER_MESSAGE),
    ["end_hour"],
  ),
);

export type ContactRulesInput = v.InferOutput<typeof ContactRulesSchema>;
