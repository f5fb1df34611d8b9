import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { requireUser } from "~/auth/guard.server";
import { type Db, getDb } from "~/db/client.server";
import { intentOf, readForm, reply, SOMETHING_WRONG } from "~/lib/action-result.server";
import { getApp } from "~/lib/context.server";
import { createDebtor, deleteDebtor, updateDebtor } from "~/models/debtor.server";
import { DebtorSchema } from "~/schemas/debtor";
import { FormIdSchema } from "~/schemas/ids";

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

/**
 * Every debtor write from a form: add, edit and delete. The action of each page that shows the
 * debtors table (dashboard, /debtors-list). The owner is the signed-in user; another user's id
 * answers 404.
 */
export async function debtorAction({ context, request, url }: ActionArgs) {
  const user = requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  switch (intent) {
    case "debtor-add":
      return addDebtor(db, user.id, formData);
    case "debtor-edit":
      return editDebtor(db, user.id, formData);
    case "debtor-delete":
      return removeDebtor(db, user.id, formData);
    default:
      return reply(intent, { status: 400, message: SOMETHING_WRONG });
  }
}

async function addDebtor(db: Db, ownerId: string, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: DebtorSchema });
  if (submission.status !== "success") return reply("debtor-add", { status: 400, result: submission.reply() });
  await createDebtor(db, ownerId, submission.value);
  return reply("debtor-add", { message: "Debtor added", result: submission.reply({ resetForm: true }) });
}

async function editDebtor(db: Db, ownerId: string, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: DebtorSchema });
  if (submission.status !== "success") return reply("debtor-edit", { status: 400, result: submission.reply() });
  const id = v.safeParse(FormIdSchema, formData.get("id"));
  const updated = id.success ? await updateDebtor(db, ownerId, id.output, submission.value) : undefined;
  if (!updated) return reply("debtor-edit", { status: 404, message: SOMETHING_WRONG, result: submission.reply() });
  return reply("debtor-edit", { message: "Debtor updated", result: submission.reply({ resetForm: true }) });
}

async function removeDebtor(db: Db, ownerId: string, formData: FormData) {
  const id = v.safeParse(FormIdSchema, formData.get("id"));
  if (!id.success || !(await deleteDebtor(db, ownerId, id.output))) {
    return reply("debtor-delete", { status: 404, message: SOMETHING_WRONG });
  }
  return reply("debtor-delete", { message: "Debtor deleted" });
}
