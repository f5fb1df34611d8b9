import {
  readXeroPayload,
  STANDIN_WEBHOOK_KEY,
  syncTenants,
  verifyXeroSignature,
  xeroPayload,
  xeroSignature,
  xeroWebhookSetup,
} from "~/accounting/index.server";
import { getDb } from "~/db/client.server";
import type { AppConfig } from "~/platform/config.server";
import { recordWebhookEvent } from "~/responses/index.server";

/**
 * Xero's webhook (decisions/062): POST /webhooks/xero. Authenticated by `x-xero-signature` on the
 * raw body (app/accounting/xero/webhook.ts), never a session. Every answer has an empty body, as
 * Xero requires: 200 for a correctly signed payload ("Intent to receive" included), 401 for any
 * other, 404 where Xero's webhooks are not set up (fails closed). A signed payload's events of
 * invoices or contacts sync the accounts connected to their organisations after the answer
 * (`waitUntil`: Xero waits 5 seconds at most). The same payload again (its SHA-256, kept in
 * webhook_events) does nothing; the sync itself is idempotent anyway. The local stand-in delivers
 * its signed payloads here too (`deliverStandInXeroEvent`): one code path.
 */

/** Xero's payloads are small JSON objects; anything larger is not one. */
export const MAX_XERO_PAYLOAD_BYTES = 256 * 1024;

export type XeroReceipt = 200 | 401 | 404;

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function receiveXeroWebhook(
  env: Env,
  config: AppConfig,
  rawBody: Uint8Array<ArrayBuffer>,
  signature: string | null,
  waitUntil: (promise: Promise<unknown>) => void,
  now = Date.now(),
): Promise<XeroReceipt> {
  const setup = xeroWebhookSetup(env, config);
  if (!setup) return 404;
  if (!(await verifyXeroSignature(rawBody, signature, setup.key))) return 401;
  const payload = readXeroPayload(new TextDecoder().decode(rawBody));
  // "Intent to receive", or nothing Dunly reads: answered, nothing to do.
  if (payload.kind !== "events" || payload.tenantIds.length === 0) return 200;
  // A replay (or Xero's retry of a delivery already taken) does no work.
  if (!(await recordWebhookEvent(getDb(env.DB), `xero:${await sha256Hex(rawBody)}`, "xero", now))) return 200;
  waitUntil(
    syncTenants(env, "xero", payload.tenantIds).catch((error) =>
      console.error("[dunly] the Xero webhook's sync failed", error),
    ),
  );
  return 200;
}

let sequence = 1;

/**
 * What Xero does after a change in the books, for the stand-in (/dev/xero): a payload naming the
 * invoice's change, signed with the stand-in's key, handed to the webhook's own code. Answers its
 * status.
 */
export async function deliverStandInXeroEvent(
  env: Env,
  config: AppConfig,
  change: { tenantId: string; invoiceId: string },
  waitUntil: (promise: Promise<unknown>) => void,
) {
  const body = new TextEncoder().encode(
    xeroPayload([{ tenantId: change.tenantId, resourceId: change.invoiceId }], sequence++),
  );
  return receiveXeroWebhook(env, config, body, await xeroSignature(body, STANDIN_WEBHOOK_KEY), waitUntil);
}
