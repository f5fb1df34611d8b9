import type { Submission } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import { ContactLimitReached, type ContactRow, contactEntity } from "~/debtors/index.server";
import { FieldsRefused } from "~/domain/refused";
import { reply } from "~/platform/action-result.server";
import { DEBTOR_MESSAGES } from "~/schemas/messages";
import { type ExtraIntents, formId, type IntentScope, writeFailed } from "./owned-record-action.server";

const { intents, messages } = contactEntity;

/**
 * Runs a contact write for a parsed form (decisions/057): 404 when the debtor or contact is not the
 * owner's, 400 with the field's error for an address the debtor already has, 403 with a form error
 * at the per-debtor bound, 500 "Something went wrong" for a database failure; what the user typed is
 * kept on every refusal.
 */
async function answer(
  intent: string,
  submission: Submission<unknown>,
  write: () => Promise<ContactRow | undefined>,
  { done, notFound }: { done: string; notFound: string },
) {
  let written: ContactRow | undefined;
  try {
    written = await write();
  } catch (error) {
    if (error instanceof FieldsRefused) {
      return reply(intent, { status: 400, result: submission.reply({ fieldErrors: error.fieldErrors }) });
    }
    if (error instanceof ContactLimitReached) {
      return reply(intent, { status: 403, result: submission.reply({ formErrors: [error.message] }) });
    }
    return writeFailed(intent, contactEntity.noun, error, submission.reply());
  }
  if (!written) return reply(intent, { status: 404, message: notFound, result: submission.reply() });
  return reply(intent, { message: done, result: submission.reply({ resetForm: true }) });
}

const parse = (formData: FormData) => parseWithValibot(formData, { schema: contactEntity.schemas.form });

/** contact-add: a contact of the owner's debtor `debtor_id`. */
async function add({ scope, formData }: IntentScope) {
  const submission = parse(formData);
  if (submission.status !== "success") return reply(intents.add, { status: 400, result: submission.reply() });
  const debtorId = formId(formData, "debtor_id");
  return answer(
    intents.add,
    submission,
    async () => (debtorId === null ? undefined : contactEntity.add(scope, debtorId, submission.value)),
    { done: messages.added, notFound: DEBTOR_MESSAGES.notFound },
  );
}

/** contact-edit: the owner's contact `id` gets new values. */
async function edit({ scope, formData }: IntentScope) {
  const submission = parse(formData);
  if (submission.status !== "success") return reply(intents.edit, { status: 400, result: submission.reply() });
  const id = formId(formData);
  return answer(
    intents.edit,
    submission,
    async () => (id === null ? undefined : contactEntity.edit(scope, id, submission.value)),
    { done: messages.updated, notFound: messages.notFound },
  );
}

/** contact-delete: the owner's contact `id` is removed. */
async function remove({ scope, formData }: IntentScope) {
  const id = formId(formData);
  let removed: boolean;
  try {
    removed = id !== null && (await contactEntity.remove(scope, id));
  } catch (error) {
    return writeFailed(intents.remove, contactEntity.noun, error);
  }
  if (!removed) return reply(intents.remove, { status: 404, message: messages.notFound });
  return reply(intents.remove, { message: messages.deleted });
}

/** The contact intents of the debtor pages' action (app/actions/debtor-action.server.ts). */
export const contactIntents: ExtraIntents = {
  [intents.add]: add,
  [intents.edit]: edit,
  [intents.remove]: remove,
};
