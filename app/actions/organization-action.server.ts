import { organizationEntity } from "~/debtors/index.server";
import { ownedRecordAction } from "./owned-record-action.server";

/**
 * Every organization write from a form: add, edit and delete (the action of /iam/orgs), from the
 * organization's description shared with the JSON API (app/debtors/organization-entity.server.ts).
 */
export const organizationAction = ownedRecordAction(organizationEntity);
