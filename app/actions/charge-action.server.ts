import * as v from "valibot";
import { formatMoney } from "~/domain/money";
import { restoreCharge, waiveCharge } from "~/ledger/index.server";
import { reply } from "~/platform/action-result.server";
import { FormIdSchema } from "~/schemas/ids";
import { CHARGE_INTENTS } from "~/schemas/intents";
import { SOMETHING_WRONG } from "~/schemas/messages";
import type { ExtraIntents, IntentScope } from "./owned-record-action.server";

export const CHARGE_UNCHANGED = {
  waive: "This charge was already waived.",
  restore: "This charge is not waived.",
} as const;

/**
 * "Waive" and "Restore" on a late-payment charge (decisions/065), on the debtor pages' action:
 * `charge_id`, the user's own (another user's answers 404 and nothing changes). A waiver records the
 * user's e-mail and the time.
 */
function answer(how: "waive" | "restore") {
  return async ({ scope, user, formData }: IntentScope) => {
    const intent = CHARGE_INTENTS[how];
    const id = v.safeParse(FormIdSchema, formData.get("charge_id"));
    if (!id.success) return reply(intent, { status: 404, message: SOMETHING_WRONG });
    const out =
      how === "waive" ? await waiveCharge(scope, id.output, user.email) : await restoreCharge(scope, id.output);
    if ("error" in out) {
      if (out.error === "not-found") return reply(intent, { status: 404, message: SOMETHING_WRONG });
      return reply(intent, { status: 409, message: CHARGE_UNCHANGED[how] });
    }
    const amount = formatMoney(out.cents, out.currency, scope.locale);
    return reply(intent, {
      message: how === "waive" ? `${out.label} of ${amount} waived.` : `${out.label} of ${amount} owed again.`,
    });
  };
}

export const chargeIntents: ExtraIntents = {
  [CHARGE_INTENTS.waive]: answer("waive"),
  [CHARGE_INTENTS.restore]: answer("restore"),
};
