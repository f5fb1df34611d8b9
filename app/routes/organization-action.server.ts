import { parseWithValibot } from "@conform-to/valibot";
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { requireUser } from "~/auth/guard.server";
import { type Db, getDb } from "~/db/client.server";
import { intentOf, readForm, reply, SOMETHING_WRONG } from "~/lib/action-result.server";
import { getApp } from "~/lib/context.server";
import { createOrganization, deleteOrganization, updateOrganization } from "~/models/organization.server";
import { FormIdSchema } from "~/schemas/ids";
import { OrganizationSchema } from "~/schemas/organization";

interface ActionArgs {
  context: Readonly<RouterContextProvider>;
  request: Request;
  url: URL;
}

/**
 * Every organization write from a form: add, edit and delete (the action of /iam/orgs). The owner
 * is the signed-in user; another user's id answers 404.
 */
export async function organizationAction({ context, request, url }: ActionArgs) {
  const user = requireUser(context, url);
  const db = getDb(getApp(context).env.DB);
  const form = await readForm(request);
  if ("refused" in form) return form.refused;
  const { formData } = form;
  const intent = intentOf(formData);
  switch (intent) {
    case "org-add":
      return addOrganization(db, user.id, formData);
    case "org-edit":
      return editOrganization(db, user.id, formData);
    case "org-delete":
      return removeOrganization(db, user.id, formData);
    default:
      return reply(intent, { status: 400, message: SOMETHING_WRONG });
  }
}

async function addOrganization(db: Db, ownerId: string, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: OrganizationSchema });
  if (submission.status !== "success") return reply("org-add", { status: 400, result: submission.reply() });
  await createOrganization(db, ownerId, submission.value);
  return reply("org-add", { message: "Organization added", result: submission.reply({ resetForm: true }) });
}

async function editOrganization(db: Db, ownerId: string, formData: FormData) {
  const submission = parseWithValibot(formData, { schema: OrganizationSchema });
  if (submission.status !== "success") return reply("org-edit", { status: 400, result: submission.reply() });
  const id = v.safeParse(FormIdSchema, formData.get("id"));
  const updated = id.success ? await updateOrganization(db, ownerId, id.output, submission.value) : undefined;
  if (!updated) return reply("org-edit", { status: 404, message: SOMETHING_WRONG, result: submission.reply() });
  return reply("org-edit", { message: "Organization updated", result: submission.reply({ resetForm: true }) });
}

async function removeOrganization(db: Db, ownerId: string, formData: FormData) {
  const id = v.safeParse(FormIdSchema, formData.get("id"));
  if (!id.success || !(await deleteOrganization(db, ownerId, id.output))) {
    return reply("org-delete", { status: 404, message: SOMETHING_WRONG });
  }
  return reply("org-delete", { message: "Organization deleted" });
}
