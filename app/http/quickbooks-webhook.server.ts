import { Hono } from "hono";
import { notifiedRealms, quickBooksWebhookVerifier, syncTenants } from "~/accounting/index.server";
import { getDb } from "~/db/client.server";
import { BodyTooLarge, readBodyWithin } from "~/platform/body-limit.server";
import { readConfig } from "~/platform/config.server";
import { recordWebhookEvent } from "~/responses/index.server";
import type { AppBindings } from "./hono-env";

/**
 * QuickBooks Online's webhook (decisions/061): POST /webhooks/quickbooks. Intuit signs the raw body:
 * `intuit-signature` is base64(HMAC-SHA256(body, verifier token)), checked in constant time (Web
 * Crypto's verify); a bad or missing signature is 401, and without a verifier (production without
 * QUICKBOOKS_WEBHOOK_VERIFIER) the endpoint does not exist (404). A good one names companies
 * (CloudEvents' intuitaccountid, or the earlier format's eventNotifications[].realmId): each
 * connected account of those runs its incremental sync after the answer (waitUntil: Intuit wants
 * an answer within seconds). The notification says only that
 * something changed; the sync reads what. A body seen before (its SHA-256 is remembered like other
 * providers' event ids) changes nothing, and the sync is idempotent anyway.
 * The local stand-in's pages call this same route, in CloudEvents, with the stand-in's verifier.
 */
export const quickBooksWebhook = new Hono<AppBindings>();

/** Intuit's notifications are small; anything larger is not one. */
const MAX_BYTES = 256 * 1024;

async function verified(body: Uint8Array<ArrayBuffer>, signature: string, verifier: string) {
  let mac: Uint8Array<ArrayBuffer>;
  try {
    mac = Uint8Array.from(atob(signature), (ch) => ch.charCodeAt(0));
  } catch {
    return false;
  }
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(verifier),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  return crypto.subtle.verify("HMAC", key, mac, body);
}

/** The signature Intuit sends with a body (the stand-in signs its own notifications with it). */
export async function intuitSignature(body: string, verifier: string) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(verifier),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
  return btoa(String.fromCharCode(...mac));
}

async function sha256(bytes: Uint8Array<ArrayBuffer>) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

quickBooksWebhook.post("/", async (c) => {
  const verifier = quickBooksWebhookVerifier(readConfig(c.env));
  if (!verifier) return c.json({ ok: false, error: "Not found" }, 404);
  let body: Uint8Array<ArrayBuffer>;
  try {
    body = await readBodyWithin(c.req.raw, MAX_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return c.json({ ok: false, error: "The notification is too large" }, 413);
    return c.json({ ok: false, error: "The notification could not be read" }, 400);
  }
  const signature = c.req.header("intuit-signature") ?? "";
  if (!signature || !(await verified(body, signature, verifier))) {
    return c.json({ ok: false, error: "Invalid signature" }, 401);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return c.json({ ok: false, error: "The notification is not JSON" }, 400);
  }
  // Seen before (Intuit retries, or a replay): nothing more to do.
  if (!(await recordWebhookEvent(getDb(c.env.DB), `quickbooks:${await sha256(body)}`, "quickbooks"))) {
    return c.json({ ok: true, duplicate: true });
  }
  const realms = notifiedRealms(payload);
  // The companies' accounts sync after the answer (one whose sync is under way a few seconds later).
  const syncs = syncTenants(c.env, "quickbooks", realms).catch((error) =>
    console.error("[dunly] QuickBooks webhook sync failed", error),
  );
  try {
    c.executionCtx.waitUntil(syncs);
  } catch {
    // No execution context (never in the Worker): the sync runs before the answer instead.
    await syncs;
  }
  return c.json({ ok: true, companies: realms.length });
});
