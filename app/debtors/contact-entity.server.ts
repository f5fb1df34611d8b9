import type { EntityScope } from "~/platform/scope.server";
import { ContactFormSchema, type ContactInput, ContactJsonSchema } from "~/schemas/contact";
import { CONTACT_INTENTS } from "~/schemas/intents";
import { CONTACT_MESSAGES } from "~/schemas/messages";
import { addContact, contactToJson, deleteContact, updateContact } from "./contacts.server";

/**
 * A debtor's other contacts (decisions/057): the debtor page's contact-add / -edit / -delete and
 * POST /api/debtors/contacts/add, PUT /api/debtors/contacts/edit, DELETE /api/debtors/contacts/del.
 * Undefined (false for a remove): not the owner's debtor or contact, which both ways answer 404.
 * A rule only the server checks (the debtor's address already, the bound) throws FieldsRefused or
 * ContactLimitReached.
 */
export const contactEntity = {
  noun: "contact",
  intents: CONTACT_INTENTS,
  messages: CONTACT_MESSAGES,
  schemas: { form: ContactFormSchema, json: ContactJsonSchema },
  add: (scope: EntityScope, debtorId: number, input: ContactInput) =>
    addContact(scope.db, scope.ownerId, debtorId, input, scope.now),
  edit: (scope: EntityScope, id: number, input: ContactInput) =>
    updateContact(scope.db, scope.ownerId, id, input, scope.now),
  remove: (scope: EntityScope, id: number) => deleteContact(scope.db, scope.ownerId, id),
  toJson: contactToJson,
} as const;
