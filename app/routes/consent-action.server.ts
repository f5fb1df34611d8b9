import * as v from "valibot";
import { reply, SOMETHING_WRONG } from "~/lib/action-result.server";
import { renewConsent } from "~/models/opt-out.server";
import { FormIdSchema } from "~/schemas/ids";
import type { ExtraIntents } from "./owned-record-action.server";

/** The intent of "Record renewed consent" (the same literal in app/components/debtors/opt-out-notice.tsx). */
const CONSENT_INTENT = "debtor-consent";
/** The `confirm` value that says the user confirmed the debtor agreed again (the notice posts it). */
const CONSENT_CONFIRMATION = "renewed-consent";
export const CONSENT_UNCONFIRMED = "Please confirm that the debtor agreed to receive reminders again.";
export const CONSENT_RECORDED = "Consent recorded. Reminders to this address are allowed again.";

/**
 * Opt-out and renewed-consent intents on the debtor pages (issue 10, item 2). An opted-out address
 * gets reminders again only after the user records, deliberately and confirmed, that the debtor
 * agreed; the debtor's stopped schedules stay stopped until the user resumes them.
 */
export const consentIntents: ExtraIntents = {
  async [CONSENT_INTENT]({ db, user, formData }) {
    if (formData.get("confirm") !== CONSENT_CONFIRMATION) {
      return reply(CONSENT_INTENT, { status: 400, message: CONSENT_UNCONFIRMED });
    }
    const id = v.safeParse(FormIdSchema, formData.get("id"));
    // Another user's debtor answers like a missing one, and nothing changes.
    if (!id.success || !(await renewConsent(db, user.id, id.output))) {
      return reply(CONSENT_INTENT, { status: 404, message: SOMETHING_WRONG });
    }
    return reply(CONSENT_INTENT, { message: CONSENT_RECORDED });
  },
};
