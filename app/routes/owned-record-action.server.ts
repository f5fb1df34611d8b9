import type { SubmissionResult } from "@conform-to/react";
import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { requireUser } from "~/auth/guard.server";
import type { SessionUser } from "~/auth/session.server";
import { type Db, getDb } from "~/db/client.server";
import { AccountCapReached, type AccountCaps } from "~/domain/account-caps";
import { intentOf, readForm, reply, SOMETHING_WRONG } from "~/lib/action-result.server";
import { accountCaps } from "~/lib/config.server";
import { type AppContext, getApp } from "~/lib/context.server";
import { requestTimeZone } from "~/lib/time-zone.server";
import type { CreateOptions } from "~/models/account-caps.server";
import { FormIdSchema } from "~/schemas/ids";

/** How the add / edit / delete intents of one owned record kind (debtors, organizations) reach its model. */
export interface OwnedRecord<Input> {
  /** The intent names the forms post, e.g. 'debtor-add', 'debtor-edit', 'debtor-delete'. */
  intents: { add: string; edit: string; remove: string };
  /** The word the messages start with: 'Debtor added', 'Debtor updated', 'Debtor deleted'. */
  noun: string;
  schema: v.GenericSchema<unknown, Input>;
  /** Which per-account cap an add counts against (app/domain/account-caps.ts). */
  cap: "debtors" | "organizations";
  /** Adds the record; throws AccountCapReached (keeping nothing) when the account is at `max`. */
  create(db: Db, ownerId: string, input: Input, options: CreateOptions & { timeZone?: string }): Promise<unknown>;
  update(db: Db, ownerId: string, id: number, input: Input): Promise<unknown>;
  remove(db: Db, ownerId: string, id: number): Promise<boolean>;
}

/**
 * A database failure during a write: logged, and answered 500 with "Something went wrong" (an error
 * toast, what the user typed kept) instead of the error page (docs/product-spec.md §8).
 */
function writeFailed(intent: string, noun: string, error: unknown, result?: SubmissionResult<string[]>) {
  console.error(`[dunly] ${noun} ${intent} failed`, error);
  return reply(intent, { status: 500, message: SOMETHING_WRONG, result });
}

/**
 * The three intents of an owned record, one function each. Field errors answer 400 with what the
 * user typed; an id that is not the owner's answers 404 and changes nothing; a database failure
 * answers 500 with "Something went wrong".
 */
function ownedRecordIntents<Input>(record: OwnedRecord<Input>) {
  const parse = (formData: FormData) => parseWithValibot(formData, { schema: record.schema });
  const idOf = (formData: FormData) => v.safeParse(FormIdSchema, formData.get("id"));
  return {
    async add(db: Db, ownerId: string, formData: FormData, caps: AccountCaps, timeZone: string) {
      const submission = parse(formData);
      if (submission.status !== "success")
        return reply(record.intents.add, { status: 400, result: submission.reply() });
      try {
        // The browser's zone: a new debtor's default (their quiet hours), when the form leaves it blank.
        await record.create(db, ownerId, submission.value, { max: caps[record.cap], timeZone });
      } catch (error) {
        if (!(error instanceof AccountCapReached)) {
          return writeFailed(record.intents.add, record.noun, error, submission.reply());
        }
        // A form error (in the markup, also without JavaScript); what the user typed stays.
        const result = submission.reply({ formErrors: [error.message] });
        return reply(record.intents.add, { status: 403, result });
      }
      return reply(record.intents.add, {
        message: `${record.noun} added`,
        result: submission.reply({ resetForm: true }),
      });
    },
    async edit(db: Db, ownerId: string, formData: FormData) {
      const submission = parse(formData);
      if (submission.status !== "success")
        return reply(record.intents.edit, { status: 400, result: submission.reply() });
      const id = idOf(formData);
      let updated: unknown;
      try {
        updated = id.success ? await record.update(db, ownerId, id.output, submission.value) : undefined;
      } catch (error) {
        return writeFailed(record.intents.edit, record.noun, error, submission.reply());
      }
      if (!updated) {
        return reply(record.intents.edit, { status: 404, message: SOMETHING_WRONG, result: submission.reply() });
      }
      return reply(record.intents.edit, {
        message: `${record.noun} updated`,
        result: submission.reply({ resetForm: true }),
      });
    },
    async remove(db: Db, ownerId: string, formData: FormData) {
      const id = idOf(formData);
      let removed: boolean;
      try {
        removed = id.success && (await record.remove(db, ownerId, id.output));
      } catch (error) {
        return writeFailed(record.intents.remove, record.noun, error);
      }
      if (!removed) {
        return reply(record.intents.remove, { status: 404, message: SOMETHING_WRONG });
      }
      return reply(record.intents.remove, { message: `${record.noun} deleted` });
    },
  };
}

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

/** What an extra intent of an owned record's action gets: the signed-in user and the form. */
export interface IntentScope {
  app: AppContext;
  db: Db;
  user: SessionUser;
  formData: FormData;
  request: Request;
}

/** Intents beyond add / edit / delete that live on the same pages (payments, consent). */
export type ExtraIntents = Record<string, (scope: IntentScope) => Promise<ReturnType<typeof reply> | Response>>;

/**
 * The form action of an owned record kind: the signed-in user, the form, then `switch (intent)`
 * to one function per intent. Another user's id answers 404.
 */
export function ownedRecordAction<Input>(record: OwnedRecord<Input>, extra: ExtraIntents = {}) {
  const intents = ownedRecordIntents(record);
  return async ({ context, request, url }: ActionArgs) => {
    const user = requireUser(context, url);
    const app = getApp(context);
    const { env, config } = app;
    const db = getDb(env.DB);
    const form = await readForm(request);
    if ("refused" in form) return form.refused;
    const { formData } = form;
    const intent = intentOf(formData);
    switch (intent) {
      case record.intents.add:
        return intents.add(db, user.id, formData, accountCaps(config), requestTimeZone(request));
      case record.intents.edit:
        return intents.edit(db, user.id, formData);
      case record.intents.remove:
        return intents.remove(db, user.id, formData);
      default: {
        const handler = Object.hasOwn(extra, intent) ? extra[intent] : undefined;
        if (handler) return handler({ app, db, user, formData, request });
        return reply(intent, { status: 400, message: SOMETHING_WRONG });
      }
    }
  };
}
