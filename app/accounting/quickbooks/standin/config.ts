/**
 * The local QuickBooks Online stand-in's fixed values (decisions/061): development and test only.
 * Its client secret and webhook verifier are public, so they are only ever used where the stand-in
 * answers (no QUICKBOOKS_CLIENT_ID, APP_ENV development or test: ../client.server.ts).
 */
export const STANDIN_CLIENT_ID = "dunly-local-quickbooks-standin";
export const STANDIN_CLIENT_SECRET = "dunly-local-quickbooks-standin-secret";
/** The verifier token the stand-in signs its webhooks with. */
export const STANDIN_WEBHOOK_VERIFIER = "dunly-local-quickbooks-verifier";
/** The host the client's requests name; the client's fetch hands them to the stand-in inside the Worker. */
export const STANDIN_HOST = "quickbooks.standin.invalid";
