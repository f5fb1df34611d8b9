import { debtorEventInsert, noticeInsert } from "~/activity/index.server";
import type { Db } from "~/db/client.server";
import { formatDayOf } from "~/domain/dates";
import { nextTextMonthStart } from "~/domain/phone";
import { type Plan, textAllowanceMessage } from "~/domain/plans";

/**
 * How long a text-only step past the month's texts waits and why, in the plan's words: until the
 * first of next month (UTC), written in the debtor's zone and the user's format. The claim's hold and
 * the consumer's (holdForAllowance) say the same, so a user is told once (`textHeldStatements`).
 */
export function allowanceWait(plan: Plan | null, now: number, timeZone: string, locale?: string | null) {
  const until = nextTextMonthStart(now);
  const reason = plan
    ? textAllowanceMessage(plan, formatDayOf(until, timeZone, locale ?? undefined))
    : "Not sent: the account has no plan.";
  return { until, reason };
}

/** The timeline's line and the user's notice of a text step that waits for next month's texts. */
export function textHeldStatements(db: Db, at: { ownerId: string; debtorId: number }, reason: string, now: number) {
  return [
    debtorEventInsert(db, { ...at, type: "text_held", detail: reason, at: now }),
    noticeInsert(db, { ...at, kind: "text_held", at: now }),
  ] as const;
}
