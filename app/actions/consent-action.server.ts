import { reply } from "~/platform/action-result.server";
import { renewConsent } from "~/responses/index.server";
import { CONSENT_CONFIRMATION, DEBTOR_INTENTS } from "~/schemas/intents";
import { SOMETHING_WRONG } from "~/schemas/messages";
import { type ExtraIntents, formId } from "./owned-record-action.server";

const CONSENT_INTENT = DEBTOR_INTENTS.consent;
export const CONSENT_UNCONFIRMED = "Please confirm that the debtor agreed to receive reminders again.";
export const CONSENT_RECORDED = "Consent recorded. Reminders to this address are allowed again.";

/**
 * Opt-out and renewed-consent intents on the debtor pages. An opted-out
 * address gets reminders again only after the user records, deliberately and confirmed, that the
 * debtor agreed; the debtor's stopped schedules stay stopped until the user resumes them.
 */
export const consentIntents: ExtraIntents = {
  async [CONSENT_INTENT]({ scope, formData }) {
    if (formData.get("confirm") !== CONSENT_CONFIRMATION) {
      return reply(CONSENT_INTENT, { status: 400, message: CONSENT_UNCONFIRMED });
    }
    const id = formId(formData);
    // Another user's debtor answers like a missing one, and nothing changes.
    if (id === null || !(await renewConsent(scope.db, scope.ownerId, id))) {
      return reply(CONSENT_INTENT, { status: 404, message: SOMETHING_WRONG });
    }
    return reply(CONSENT_INTENT, { message: CONSENT_RECORDED });
  },
};
