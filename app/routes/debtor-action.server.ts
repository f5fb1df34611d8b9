import { createDebtor, deleteDebtor, updateDebtor } from "~/models/debtor.server";
import { DebtorSchema } from "~/schemas/debtor";
import { consentIntents } from "./consent-action.server";
import { ownedRecordAction } from "./owned-record-action.server";
import { paidClaimIntents } from "./paid-claim-action.server";
import { paymentIntents } from "./payment-action.server";

/**
 * Every debtor write from a form: add, edit and delete. The action of each page that shows the
 * debtors table (dashboard, /debtors-list). The owner is the signed-in user.
 */
export const debtorAction = ownedRecordAction(
  {
    intents: { add: "debtor-add", edit: "debtor-edit", remove: "debtor-delete" },
    noun: "Debtor",
    cap: "debtors",
    schema: DebtorSchema,
    create: createDebtor,
    update: updateDebtor,
    remove: deleteDebtor,
  },
  { ...paymentIntents, ...consentIntents, ...paidClaimIntents },
);
