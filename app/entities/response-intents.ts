/**
 * The intents of the debtor's page and of the user's answers to it (docs/architecture.md §10, "The
 * debtor's page"), beside app/entities/intents.ts and like it: client safe, each name written once
 * for the forms that post them, the actions that dispatch on them and the tests.
 */

/** What the debtor's page (/d/…) posts. */
export const PORTAL_INTENTS = {
  paid: "portal-paid",
  promise: "portal-promise",
  dispute: "portal-dispute",
  optOut: "portal-opt-out",
} as const;

/** The user's answers to a debtor's page, on the debtor pages' action (the timeline, the dashboard). */
export const DEBTOR_RESPONSE_INTENTS = {
  /** "Resolve dispute": the disputed invoice is open again (or paid), held reminders resume. */
  resolveDispute: "dispute-resolve",
  /** "Allow a new promise" after a broken one. */
  allowPromise: "promise-consent",
} as const;
