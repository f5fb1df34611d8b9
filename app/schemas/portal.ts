import * as v from "valibot";
import { isCalendarDate } from "~/domain/calendar-date";
import { formatDate } from "~/domain/dates";
import { DISPUTE_REASON_MAX } from "~/domain/dispute";
import { isWithinPromiseWindow } from "~/domain/promise";
import { missingFieldMessage } from "./missing";

/**
 * The debtor's page's forms: a promise to pay by a
 * date, and a dispute of one invoice. The page works without JavaScript: the action checks them
 * with these schemas (field errors, what was typed kept) and the browser with the inputs' own
 * constraints (required, min, max, maxlength) drawn from the same values.
 */

export const PROMISE_DATE_MESSAGE = "Please enter the date you will pay by.";
export const DISPUTE_INVOICE_MESSAGE = "Please choose the invoice you dispute.";
export const DISPUTE_REASON_MESSAGE = "Please say what is wrong with the invoice.";
export const DISPUTE_REASON_LONG = `Please keep the reason to ${DISPUTE_REASON_MAX} characters.`;

/** A date outside the debtor's window: the range in words. */
export function promiseRangeMessage(window: { min: string; max: string }, locale?: string) {
  return `Please choose a date from ${formatDate(window.min, locale)} to ${formatDate(window.max, locale)}.`;
}

/** A promise to pay by `promised_on`, a date in the debtor's window (their today to 60 days later). */
export function promiseSchema(window: { min: string; max: string }, locale?: string) {
  return v.object(
    {
      promised_on: v.pipe(
        v.string(PROMISE_DATE_MESSAGE),
        v.trim(),
        v.check(isCalendarDate, PROMISE_DATE_MESSAGE),
        // A date not on the calendar has its message already.
        v.check(
          (date) => !isCalendarDate(date) || isWithinPromiseWindow(date, window),
          promiseRangeMessage(window, locale),
        ),
      ),
    },
    missingFieldMessage({ promised_on: PROMISE_DATE_MESSAGE }),
  );
}

/**
 * A dispute: the invoice (the page's reference for it, meaningful only with the page's token) and
 * the reason, 1 to DISPUTE_REASON_MAX characters.
 */
export const DisputeSchema = v.object(
  {
    invoice: v.pipe(
      v.string(DISPUTE_INVOICE_MESSAGE),
      v.trim(),
      v.regex(/^[A-Za-z0-9_-]{1,64}$/, DISPUTE_INVOICE_MESSAGE),
    ),
    reason: v.pipe(
      v.string(DISPUTE_REASON_MESSAGE),
      // A form posts a text area's line breaks as CR LF; the browser counted each as one character.
      v.transform((text) => text.replace(/\r\n?/g, "\n")),
      v.trim(),
      v.nonEmpty(DISPUTE_REASON_MESSAGE),
      v.maxLength(DISPUTE_REASON_MAX, DISPUTE_REASON_LONG),
    ),
  },
  missingFieldMessage({ invoice: DISPUTE_INVOICE_MESSAGE, reason: DISPUTE_REASON_MESSAGE }),
);
