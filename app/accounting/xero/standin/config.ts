/**
 * The local Xero stand-in's fixed values (decisions/060): development and test only. Its client
 * secret is public, so it is only ever used where the stand-in answers (no XERO_CLIENT_ID, APP_ENV
 * development or test: app/accounting/xero/client.server.ts).
 */
export const STANDIN_CLIENT_ID = "dunly-local-xero-standin";
export const STANDIN_CLIENT_SECRET = "dunly-local-xero-standin-secret";
/** The host the client's requests name; the client's fetch hands them to the stand-in inside the Worker. */
export const STANDIN_HOST = "xero.standin.invalid";
/**
 * The key the stand-in signs its webhooks with (decisions/062): used only where the stand-in
 * answers (no XERO_CLIENT_ID, APP_ENV development or test), never in production.
 */
export const STANDIN_WEBHOOK_KEY = "dunly-local-xero-standin-webhook-key";
