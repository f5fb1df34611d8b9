import type { SubmissionResult } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { type AppContext, getApp } from "~/auth/context.server";
import { requireUser } from "~/auth/guard.server";
import type { SessionUser } from "~/auth/index.server";
import { AccountCapReached } from "~/domain/account-caps";
import { FieldsRefused, TwinFound } from "~/domain/refused";
import { intentOf, readForm, reply } from "~/platform/action-result.server";
import { type EntityScope, entityScope, type OwnedEntity } from "~/platform/scope.server";
import { FormIdSchema } from "~/schemas/ids";
import { ALLOW_DUPLICATE_FIELD } from "~/schemas/intents";
import { SOMETHING_WRONG, twinDebtorMessage } from "~/schemas/messages";

/**
 * A database failure during a write: logged, and answered 500 with "Something went wrong" (an error
 * toast, what the user typed kept) instead of the error page (docs/product-spec.md §8).
 */
export function writeFailed(intent: string, noun: string, error: unknown, result?: SubmissionResult<string[]>) {
  console.error(`[dunly] ${noun} ${intent} failed`, error);
  return reply(intent, { status: 500, message: SOMETHING_WRONG, result });
}

/** A numeric id field of the form (a hidden field, only a request), or null. */
export function formId(formData: FormData, field: "id" | "debtor_id" = "id") {
  const id = v.safeParse(FormIdSchema, formData.get(field));
  return id.success ? id.output : null;
}

/**
 * The three intents of an owned record, one function each, made from the entity's description
 * (the features' *-entity.server.ts, the same the JSON API uses). Field errors answer 400 with what the user typed;
 * an id that is not the owner's answers 404 and changes nothing; a database failure answers 500
 * with "Something went wrong".
 */
function ownedRecordIntents<Input, Row>(entity: OwnedEntity<Input, Row>) {
  const { intents, messages, noun } = entity;
  const parse = (scope: EntityScope, formData: FormData) =>
    parseWithValibot(formData, { schema: entity.schemas.form(scope) });
  return {
    async add(scope: EntityScope, formData: FormData) {
      const submission = parse(scope, formData);
      if (submission.status !== "success") return reply(intents.add, { status: 400, result: submission.reply() });
      try {
        await entity.create(scope, submission.value, {
          allowDuplicate: formData.get(ALLOW_DUPLICATE_FIELD) === "true",
        });
      } catch (error) {
        if (error instanceof FieldsRefused) {
          return reply(intents.add, { status: 400, result: submission.reply({ fieldErrors: error.fieldErrors }) });
        }
        if (error instanceof TwinFound) {
          // A debtor with this e-mail exists (only debtors refuse a twin): the form says so, keeps
          // what was typed and offers that debtor or a new one anyway.
          const { id, fullName } = error.existing;
          return reply(intents.add, {
            status: 409,
            result: submission.reply({ formErrors: [twinDebtorMessage(fullName)] }),
            existing: { id, name: fullName },
          });
        }
        if (!(error instanceof AccountCapReached)) return writeFailed(intents.add, noun, error, submission.reply());
        // A form error (in the markup, also without JavaScript); what the user typed stays.
        return reply(intents.add, { status: 403, result: submission.reply({ formErrors: [error.message] }) });
      }
      return reply(intents.add, { message: messages.added, result: submission.reply({ resetForm: true }) });
    },
    async edit(scope: EntityScope, formData: FormData) {
      const submission = parse(scope, formData);
      if (submission.status !== "success") return reply(intents.edit, { status: 400, result: submission.reply() });
      const id = formId(formData);
      let updated: Row | undefined;
      try {
        updated = id === null ? undefined : await entity.update(scope, id, submission.value);
      } catch (error) {
        if (error instanceof FieldsRefused) {
          return reply(intents.edit, { status: 400, result: submission.reply({ fieldErrors: error.fieldErrors }) });
        }
        return writeFailed(intents.edit, noun, error, submission.reply());
      }
      if (!updated) return reply(intents.edit, { status: 404, message: SOMETHING_WRONG, result: submission.reply() });
      return reply(intents.edit, { message: messages.updated, result: submission.reply({ resetForm: true }) });
    },
    async remove(scope: EntityScope, formData: FormData) {
      const id = formId(formData);
      let removed: boolean;
      try {
        removed = id !== null && (await entity.remove(scope, id));
      } catch (error) {
        return writeFailed(intents.remove, noun, error);
      }
      if (!removed) return reply(intents.remove, { status: 404, message: SOMETHING_WRONG });
      return reply(intents.remove, { message: messages.deleted });
    },
  };
}

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

/** What an extra intent of an owned record's action gets: the entity scope, the signed-in user and the form. */
export interface IntentScope {
  scope: EntityScope;
  app: AppContext;
  user: SessionUser;
  formData: FormData;
}

/** Intents beyond add / edit / delete that live on the same pages (payments, consent). */
export type ExtraIntents = Record<string, (scope: IntentScope) => Promise<ReturnType<typeof reply> | Response>>;

/**
 * The form action of an owned record kind: the signed-in user, the form, then `switch (intent)`
 * to one function per intent. Another user's id answers 404.
 */
export function ownedRecordAction<Input, Row>(entity: OwnedEntity<Input, Row>, extra: ExtraIntents = {}) {
  const intents = ownedRecordIntents(entity);
  return async ({ context, request, url }: ActionArgs) => {
    const user = await requireUser(context, url);
    const app = getApp(context);
    const form = await readForm(request);
    if ("refused" in form) return form.refused;
    const { formData } = form;
    const scope = entityScope(app.env, app.config, user, request);
    const intent = intentOf(formData);
    switch (intent) {
      case entity.intents.add:
        return intents.add(scope, formData);
      case entity.intents.edit:
        return intents.edit(scope, formData);
      case entity.intents.remove:
        return intents.remove(scope, formData);
      default: {
        const handler = Object.hasOwn(extra, intent) ? extra[intent] : undefined;
        if (handler) return handler({ scope, app, user, formData });
        return reply(intent, { status: 400, message: SOMETHING_WRONG });
      }
    }
  };
}
