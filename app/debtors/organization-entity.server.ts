import {
  createOrganization,
  deleteOrganization,
  organizationToJson,
  updateOrganization,
} from "~/debtors/organizations.server";
import type { OwnedEntity } from "~/platform/scope.server";
import { ORGANIZATION_INTENTS } from "~/schemas/intents";
import { ORGANIZATION_MESSAGES } from "~/schemas/messages";
import { type OrganizationInput, OrganizationSchema } from "~/schemas/organization";

type OrganizationRecord = Awaited<ReturnType<typeof createOrganization>>;

/**
 * Organizations: /iam/orgs' add / edit / delete and POST /api/org/add,
 * PUT /api/org/edit, DELETE /api/org/del. A form and a JSON body carry the same fields as text.
 */
export const organizationEntity: OwnedEntity<OrganizationInput, OrganizationRecord> = {
  noun: "organization",
  intents: ORGANIZATION_INTENTS,
  messages: ORGANIZATION_MESSAGES,
  schemas: { form: () => OrganizationSchema, json: OrganizationSchema },
  create: (scope, input) =>
    createOrganization(scope.db, scope.ownerId, input, { max: scope.caps.organizations, now: scope.now }),
  update: (scope, id, input) => updateOrganization(scope.db, scope.ownerId, id, input),
  remove: (scope, id) => deleteOrganization(scope.db, scope.ownerId, id),
  toJson: organizationToJson,
};
