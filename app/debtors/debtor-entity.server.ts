import { createDebtor, debtorToJson, deleteDebtor, updateDebtor } from "~/debtors/debtors.server";
import type { OwnedEntity } from "~/platform/scope.server";
import { joinAutopilot, replanDueSchedules } from "~/reminders/index.server";
import { type DebtorInput, DebtorJsonSchema, debtorSchema } from "~/schemas/debtor";
import { DEBTOR_INTENTS } from "~/schemas/intents";
import { DEBTOR_MESSAGES } from "~/schemas/messages";

type DebtorRecord = NonNullable<Awaited<ReturnType<typeof updateDebtor>>>["debtor"];

/**
 * Debtors: the debtor pages' add / edit / delete and POST
 * /api/debtors/add, PUT /api/debtors/edit, DELETE /api/debtors/del. An add with an e-mail the
 * account already has is refused (TwinFound) unless the user asks for a new debtor anyway
 *. An edit that leaves the debt
 * paid in full completes the debtor's schedules in its batch and disarms their alarms; a delete
 * takes the debtor's schedules in its batch and disarms theirs.
 */
export const debtorEntity: OwnedEntity<DebtorInput, DebtorRecord> = {
  noun: "debtor",
  intents: DEBTOR_INTENTS,
  messages: DEBTOR_MESSAGES,
  schemas: { form: (scope) => debtorSchema(scope.locale), json: DebtorJsonSchema },
  async create(scope, input, options = {}) {
    const created = await createDebtor(scope.db, scope.ownerId, input, {
      max: scope.caps.debtors,
      capMessage: scope.capMessages.debtors,
      timeZone: scope.timeZone,
      now: scope.now,
      today: scope.today,
      allowDuplicate: options.allowDuplicate,
    });
    // Autopilot on: a debtor added with an open invoice follows the account's cadence at once.
    await joinAutopilot(scope, [created.id], { max: scope.caps.schedules });
    return created;
  },
  async update(scope, id, input) {
    const updated = await updateDebtor(scope, scope.ownerId, id, input, scope.now);
    if (!updated) return undefined;
    // Its invoice or time zone may have changed: due-date schedules follow.
    await replanDueSchedules(scope, [id]);
    return updated.debtor;
  },
  async remove(scope, id) {
    return (await deleteDebtor(scope, scope.ownerId, id, scope.now)) !== undefined;
  },
  toJson: debtorToJson,
};
