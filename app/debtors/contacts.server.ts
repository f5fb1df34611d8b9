import { and, asc, eq, sql } from "drizzle-orm";
import type { Bindable, Db } from "~/db/client.server";
import { debtorContacts, debtors } from "~/db/schema";
import {
  CONTACT_IS_PRIMARY_MESSAGE,
  CONTACT_LIMIT_MESSAGE,
  CONTACT_TWIN_MESSAGE,
  MAX_OTHER_CONTACTS,
} from "~/domain/contacts";
import { FieldsRefused } from "~/domain/refused";
import type { ContactInput } from "~/schemas/contact";

/**
 * A debtor's other contacts (decisions/057): read with their state (opted out, bouncing), added
 * under the per-debtor bound in the INSERT itself, edited and removed, always within the owner's
 * debtors. The primary contact is the debtor's own row (email, contact_name, contact_role).
 */

/** A debtor has MAX_DEBTOR_CONTACTS contacts already (the primary included): nothing was added. */
export class ContactLimitReached extends Error {
  constructor() {
    super(CONTACT_LIMIT_MESSAGE);
    this.name = "ContactLimitReached";
  }
}

export interface ContactRow {
  id: number;
  debtorId: number;
  name: string;
  email: string;
  role: string | null;
  cc: boolean;
  bouncedAt: number | null;
  bounceError: string | null;
  /** The address opted out of the owner's reminders (opt_outs): no copy goes to it. */
  optedOut: boolean;
}

/** Whether the contact's address opted out of its owner's reminders (spelled out: it runs inside other queries). */
const contactOptedOut = sql<number>`EXISTS (SELECT 1 FROM "opt_outs" AS o WHERE o."owner_id" = "debtor_contacts"."owner_id" AND o."email" = "debtor_contacts"."email")`;

const CONTACT_COLUMNS = {
  id: debtorContacts.id,
  debtorId: debtorContacts.debtorId,
  name: debtorContacts.name,
  email: debtorContacts.email,
  role: debtorContacts.role,
  cc: debtorContacts.cc,
  bouncedAt: debtorContacts.bouncedAt,
  bounceError: debtorContacts.bounceError,
  optedOut: contactOptedOut,
};

type ContactQueryRow = Omit<ContactRow, "optedOut"> & { optedOut: number };
export const contactRowOf = (row: ContactQueryRow): ContactRow => ({ ...row, optedOut: Boolean(row.optedOut) });

/** The owner's debtor's contacts in the order they were added, unrun (a statement of the page's batch). */
export function debtorContactsQuery(db: Db, ownerId: Bindable<string>, debtorId: Bindable<number>) {
  return db
    .select(CONTACT_COLUMNS)
    .from(debtorContacts)
    .where(and(eq(debtorContacts.ownerId, ownerId), eq(debtorContacts.debtorId, debtorId)))
    .orderBy(asc(debtorContacts.id));
}

export async function listContacts(db: Db, ownerId: string, debtorId: number): Promise<ContactRow[]> {
  return (await debtorContactsQuery(db, ownerId, debtorId)).map(contactRowOf);
}

const isUniqueViolation = (error: unknown) =>
  /UNIQUE constraint failed/i.test(String((error as { cause?: unknown })?.cause ?? "")) ||
  /UNIQUE constraint failed/i.test(String(error));

/** The owner's contact by id, with its debtor's primary address. */
async function ownedContact(db: Db, ownerId: string, id: number) {
  return db
    .select({ id: debtorContacts.id, debtorId: debtorContacts.debtorId, primary: debtors.email })
    .from(debtorContacts)
    .innerJoin(debtors, eq(debtors.id, debtorContacts.debtorId))
    .where(and(eq(debtorContacts.ownerId, ownerId), eq(debtorContacts.id, id)))
    .get();
}

async function readContact(db: Db, ownerId: string, id: number) {
  const row = await db
    .select(CONTACT_COLUMNS)
    .from(debtorContacts)
    .where(and(eq(debtorContacts.ownerId, ownerId), eq(debtorContacts.id, id)))
    .get();
  return row ? contactRowOf(row) : undefined;
}

/**
 * Adds a contact to the owner's debtor. One INSERT … SELECT over the owner's debtor that holds the
 * bound (fewer than MAX_OTHER_CONTACTS others) and refuses the debtor's own address, so two adds at
 * once cannot pass the bound. Undefined: not the owner's debtor. Throws ContactLimitReached, or
 * FieldsRefused for an address the debtor already has.
 */
export async function addContact(db: Db, ownerId: string, debtorId: number, input: ContactInput, now = Date.now()) {
  let inserted: { id: number }[];
  try {
    inserted = await db.all<{
      id: number;
    }>(sql`INSERT INTO debtor_contacts (owner_id, debtor_id, name, email, role, cc, created_at, updated_at)
      SELECT d.owner_id, d.id, ${input.name}, ${input.email}, ${input.role ?? sql`NULL`}, ${input.cc ? 1 : 0}, ${now}, ${now}
      FROM debtors AS d
      WHERE d.owner_id = ${ownerId} AND d.id = ${debtorId} AND lower(d.email) <> ${input.email}
        AND (SELECT count(*) FROM debtor_contacts AS c WHERE c.debtor_id = d.id) < ${MAX_OTHER_CONTACTS}
      RETURNING id`);
  } catch (error) {
    if (isUniqueViolation(error)) throw new FieldsRefused({ email: [CONTACT_TWIN_MESSAGE] });
    throw error;
  }
  const [row] = inserted;
  if (row) return readContact(db, ownerId, row.id);
  // Nothing added: say why.
  const debtor = await db
    .select({ email: debtors.email })
    .from(debtors)
    .where(and(eq(debtors.ownerId, ownerId), eq(debtors.id, debtorId)))
    .get();
  if (!debtor) return undefined;
  if (debtor.email.toLowerCase() === input.email) throw new FieldsRefused({ email: [CONTACT_IS_PRIMARY_MESSAGE] });
  throw new ContactLimitReached();
}

/**
 * Changes the owner's contact. A new address forgets the old one's bounce (the user corrected it).
 * Undefined: not the owner's. Throws FieldsRefused for an address the debtor already has.
 */
export async function updateContact(db: Db, ownerId: string, id: number, input: ContactInput, now = Date.now()) {
  const current = await ownedContact(db, ownerId, id);
  if (!current) return undefined;
  if (current.primary.toLowerCase() === input.email) throw new FieldsRefused({ email: [CONTACT_IS_PRIMARY_MESSAGE] });
  try {
    const changed = await db
      .update(debtorContacts)
      .set({
        name: input.name,
        email: input.email,
        role: input.role,
        cc: input.cc,
        bouncedAt: sql`CASE WHEN ${debtorContacts.email} = ${input.email} THEN ${debtorContacts.bouncedAt} END`,
        bounceError: sql`CASE WHEN ${debtorContacts.email} = ${input.email} THEN ${debtorContacts.bounceError} END`,
        updatedAt: now,
      })
      .where(and(eq(debtorContacts.ownerId, ownerId), eq(debtorContacts.id, id)))
      .returning({ id: debtorContacts.id });
    if (changed.length === 0) return undefined;
  } catch (error) {
    if (isUniqueViolation(error)) throw new FieldsRefused({ email: [CONTACT_TWIN_MESSAGE] });
    throw error;
  }
  return readContact(db, ownerId, id);
}

/** Removes the owner's contact; false when it is not theirs. */
export async function deleteContact(db: Db, ownerId: string, id: number) {
  const removed = await db
    .delete(debtorContacts)
    .where(and(eq(debtorContacts.ownerId, ownerId), eq(debtorContacts.id, id)))
    .returning({ id: debtorContacts.id });
  return removed.length > 0;
}

/** The API shape of a contact. */
export function contactToJson(c: ContactRow) {
  return {
    id: c.id,
    debtor_id: c.debtorId,
    name: c.name,
    email: c.email,
    role: c.role,
    cc: c.cc,
    opted_out: c.optedOut,
    bouncing: c.bouncedAt !== null,
  };
}

/** The primary contact as the API and the page show it, from the debtor's own row. */
export function primaryContactToJson(d: { email: string; contactName: string | null; contactRole: string | null }) {
  return { name: d.contactName, email: d.email, role: d.contactRole, primary: true };
}
