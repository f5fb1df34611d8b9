import { createOrganization, deleteOrganization, updateOrganization } from "~/models/organization.server";
import { OrganizationSchema } from "~/schemas/organization";
import { ownedRecordAction } from "./owned-record-action.server";

/** Every organization write from a form: add, edit and delete (the action of /iam/orgs). */
export const organizationAction = ownedRecordAction({
  intents: { add: "org-add", edit: "org-edit", remove: "org-delete" },
  noun: "Organization",
  cap: "organizations",
  schema: OrganizationSchema,
  create: createOrganization,
  update: updateOrganization,
  remove: deleteOrganization,
});
