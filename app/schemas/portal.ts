import * as v from "valibot";
import { isCalendarDate } from "~/domain/calendar-date";
import { DISPUTE_REASON_MAX } from "~/domain/dispute";
import type { PortalKey } from "~/domain/i18n/portal";
import type { PageMessage } from "~/domain/page-copy";
import { isWithinPromiseWindow } from "~/domain/promise";
import { missingFieldMessage } from "./missing";

/**
 * The debtor's page's forms: a promise to pay by a
 * date, and a dispute of one invoice. The page works without JavaScript: the action checks them
 * with these schemas (field errors, what was typed kept) and the browser with the inputs' own
 * constraints (required, min, max, maxlength) drawn from the same values. Each message is a key of
 * the page's catalogue (app/domain/i18n/portal.ts): the page writes it in the debtor's language,
 * with the values `portalMessage` gives it.
 */

export const PROMISE_DATE_MESSAGE = "portal.error.promiseDate" satisfies PortalKey;
export const PROMISE_RANGE_MESSAGE = "portal.error.promiseRange" satisfies PortalKey;
export const DISPUTE_INVOICE_MESSAGE = "portal.error.disputeInvoice" satisfies PortalKey;
export const DISPUTE_REASON_MESSAGE = "portal.error.disputeReason" satisfies PortalKey;
export const DISPUTE_REASON_LONG = "portal.error.disputeLong" satisfies PortalKey;

/**
 * A schema's message as the page writes it: its key with the values it names (the promise's
 * window, written by the page in its own date format; the reason's limit).
 */
export function portalMessage(key: string | undefined): PageMessage<PortalKey> | undefined {
  if (key === undefined) return undefined;
  if (key === DISPUTE_REASON_LONG) return { key, values: { max: DISPUTE_REASON_MAX } };
  if (key === PROMISE_DATE_MESSAGE || key === PROMISE_RANGE_MESSAGE) return { key };
  if (key === DISPUTE_INVOICE_MESSAGE || key === DISPUTE_REASON_MESSAGE) return { key };
  return { key: "portal.error.unknown" };
}

/** A promise to pay by `promised_on`, a date in the debtor's window (their today to 60 days later). */
export function promiseSchema(window: { min: string; max: string }) {
  return v.object(
    {
      promised_on: v.pipe(
        v.string(PROMISE_DATE_MESSAGE),
        v.trim(),
        v.check(isCalendarDate, PROMISE_DATE_MESSAGE),
        // A date not on the calendar has its message already.
        v.check((date) => !isCalendarDate(date) || isWithinPromiseWindow(date, window), PROMISE_RANGE_MESSAGE),
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
