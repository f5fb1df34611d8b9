import { debtorEntity } from "~/debtors/index.server";
import { chargeIntents } from "./charge-action.server";
import { consentIntents } from "./consent-action.server";
import { contactIntents } from "./contact-action.server";
import { debtorResponseIntents } from "./debtor-response-action.server";
import { invoiceIntents } from "./invoice-action.server";
import { ownedRecordAction } from "./owned-record-action.server";
import { paidClaimIntents } from "./paid-claim-action.server";
import { paymentIntents } from "./payment-action.server";
import { planIntents } from "./plan-action.server";

/**
 * Every debtor write from a form: add, edit and delete (the debtor's description, shared with the
 * JSON API: app/debtors/debtor-entity.server.ts), the payment, invoice, consent and "I've paid" intents
 * of the same pages, and the answers to what a debtor said on their page (resolve a dispute, allow
 * a new promise). The action of each page that shows the debtors table (dashboard, /debtors-list)
 * and of the debtor's page (/debtors/:id, its Invoices section). The owner is the signed-in user.
 */
export const debtorAction = ownedRecordAction(debtorEntity, {
  ...paymentIntents,
  ...invoiceIntents,
  ...consentIntents,
  ...paidClaimIntents,
  ...debtorResponseIntents,
  ...contactIntents,
  ...chargeIntents,
  ...planIntents,
});
