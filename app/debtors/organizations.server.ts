import { and, asc, eq } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { organizations } from "~/db/schema";
import { DEFAULT_ACCOUNT_CAPS } from "~/domain/account-caps";
import { type CreateOptions, enforceCap } from "~/platform/account-caps.server";
import type { OrganizationInput } from "~/schemas/organization";

const fields = {
  id: organizations.id,
  name: organizations.name,
  address: organizations.address,
  paymentUrl: organizations.paymentUrl,
};

/** The columns an input writes; a blank payment link is none (reminders use the user's). */
function columns(input: OrganizationInput) {
  return { name: input.name, address: input.address, paymentUrl: input.payment_url ?? null };
}

/** The owner's organizations in the order they were added; unrun, to await or to batch. */
export function listOrganizations(db: Db, ownerId: Bindable<string>) {
  return db
    .select(fields)
    .from(organizations)
    .where(eq(organizations.ownerId, ownerId))
    .orderBy(asc(organizations.id))
    .limit(200);
}

/**
 * Adds the owner's organization. Throws AccountCapReached (and keeps nothing) when the account
 * already has `max` organizations (ACCOUNT_MAX_ORGANIZATIONS).
 */
export async function createOrganization(
  db: Db,
  ownerId: string,
  input: OrganizationInput,
  options: CreateOptions = {},
) {
  const row = await db
    .insert(organizations)
    .values({ ownerId, ...columns(input), createdAt: options.now ?? Date.now() })
    .returning(fields)
    .get();
  await enforceCap(db, "organizations", ownerId, [row.id], options.max ?? DEFAULT_ACCOUNT_CAPS.organizations);
  return row;
}

/** Updates the owner's organization; undefined when it is not theirs. */
export async function updateOrganization(db: Db, ownerId: string, id: number, input: OrganizationInput) {
  return db
    .update(organizations)
    .set(columns(input))
    .where(and(eq(organizations.ownerId, ownerId), eq(organizations.id, id)))
    .returning(fields)
    .get();
}

export async function deleteOrganization(db: Db, ownerId: string, id: number) {
  const row = await db
    .delete(organizations)
    .where(and(eq(organizations.ownerId, ownerId), eq(organizations.id, id)))
    .returning({ id: organizations.id })
    .get();
  return Boolean(row);
}

export function organizationToJson(
  o: { id: number; name: string; address: string; paymentUrl?: string | null },
  ownerId: string,
) {
  return { id: o.id, name: o.name, address: o.address, payment_url: o.paymentUrl ?? null, fb_uuid: ownerId };
}
