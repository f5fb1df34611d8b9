/**
 * A debtor's contacts (decisions/057): the primary is the debtor's own address with a contact
 * person's name; the others are copied (CC) on the debtor's reminders. Pure rules, client included.
 */

/** The most contacts a debtor has, the primary included. */
export const MAX_DEBTOR_CONTACTS = 10;

/** The most other (CC) contacts a debtor has beside the primary. */
export const MAX_OTHER_CONTACTS = MAX_DEBTOR_CONTACTS - 1;

export const CONTACT_LIMIT_MESSAGE = `A debtor can have at most ${MAX_DEBTOR_CONTACTS} contacts, the main address included. Remove one to add another.`;
export const CONTACT_TWIN_MESSAGE = "This debtor already has a contact with this e-mail.";
export const CONTACT_IS_PRIMARY_MESSAGE = "This is the debtor's main address already.";

/** Where a contact stands for the debtor's reminders, as the debtor's page shows it. */
export type ContactState = "copied" | "not-copied" | "opted-out" | "bouncing";

export const CONTACT_STATE_LABELS: Record<ContactState, string> = {
  copied: "CC on reminders",
  "not-copied": "Not copied",
  "opted-out": "Opted out of copies",
  bouncing: "Address bounces",
};

/** A contact's state: a bounce or an opt-out outranks the user's CC choice (no copy goes either way). */
export function contactState(contact: { cc: boolean; bouncedAt: number | null; optedOut: boolean }): ContactState {
  if (contact.optedOut) return "opted-out";
  if (contact.bouncedAt !== null) return "bouncing";
  return contact.cc ? "copied" : "not-copied";
}

/**
 * The copies of a reminder: the contacts that may receive one, each address once, never the
 * primary's, lower-cased, in the order given (the contacts' own order).
 */
export function copyList(primary: string, contacts: readonly { email: string }[]): string[] {
  const seen = new Set([primary.trim().toLowerCase()]);
  const out: string[] = [];
  for (const { email } of contacts) {
    const address = email.trim().toLowerCase();
    if (address === "" || seen.has(address)) continue;
    seen.add(address);
    out.push(address);
  }
  return out;
}
