import * as v from "valibot";

/** The most rows one bulk action may name. */
const MAX_SELECTED = 100;

/** A numeric row id (debtor, organization) as a form sends it: "12". */
export const FormIdSchema = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^\d{1,15}$/),
  v.transform(Number),
  v.safeInteger(),
  v.minValue(1),
);

/** A numeric row id in a JSON body: a number or a numeric string. */
export const JsonIdSchema = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d{1,15}$/), v.transform(Number))]),
  v.safeInteger(),
  v.minValue(1),
);

/** A schedule id (text: the owner id, then a random part). */
export const ScheduleIdSchema = v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(200));

/** The schedules selected for a bulk action: ids are only a request, the server keeps the owner's own. */
export const ScheduleIdsSchema = v.pipe(v.array(ScheduleIdSchema), v.minLength(1), v.maxLength(MAX_SELECTED));

/** The debtors selected for a bulk action. */
export const DebtorIdsSchema = v.pipe(v.array(FormIdSchema), v.minLength(1), v.maxLength(MAX_SELECTED));

/**
 * What a bulk action answers when its ids do not pass: too many named, or none (a missing or
 * malformed id counts as none, as the page never sends one).
 */
export function selectionMessage(ids: readonly unknown[], noun: "debtor" | "schedule") {
  return ids.length > MAX_SELECTED
    ? `Select at most ${MAX_SELECTED} ${noun}s at a time.`
    : `Select at least one ${noun}.`;
}
