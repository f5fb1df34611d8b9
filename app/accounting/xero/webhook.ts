/**
 * Xero's webhooks as Dunly reads them (decisions/062): the signature and the payload. Pure (Web
 * Crypto only): unit-tested beside it.
 *
 * Xero signs the raw body: `x-xero-signature` is base64(HMAC-SHA256(body, webhook key)), the key
 * being the webhook's signing key as Xero shows it (its text is the HMAC key). Every delivery,
 * "Intent to receive" included, is answered 200 with an empty body when correctly signed and 401
 * when not, within 5 seconds and without cookies.
 */

const encoder = new TextEncoder();

async function hmacKey(key: string, usage: "sign" | "verify") {
  return crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

const bytesOf = (body: string | Uint8Array<ArrayBuffer>) => (typeof body === "string" ? encoder.encode(body) : body);

/** The `x-xero-signature` Xero sends with `body` for this key. */
export async function xeroSignature(body: string | Uint8Array<ArrayBuffer>, key: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(key, "sign"), bytesOf(body)));
  let binary = "";
  for (const byte of mac) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A base64 signature's 32 bytes, or null when it is not one. */
function signatureBytes(signature: string): Uint8Array<ArrayBuffer> | null {
  const text = signature.trim();
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Whether `signature` is the body's under `key`. Web Crypto's HMAC verify compares in constant
 * time; a missing or malformed header is simply not a signature.
 */
export async function verifyXeroSignature(
  body: string | Uint8Array<ArrayBuffer>,
  signature: string | null | undefined,
  key: string,
): Promise<boolean> {
  const bytes = signature ? signatureBytes(signature) : null;
  if (!bytes || !key) return false;
  return crypto.subtle.verify("HMAC", await hmacKey(key, "verify"), bytes, bytesOf(body));
}

/** One event of a payload, as Xero documents it (fields Dunly does not read are ignored). */
export interface XeroWebhookEvent {
  resourceUrl?: string;
  resourceId?: string;
  eventDateUtc?: string;
  eventType?: string;
  eventCategory?: string;
  tenantId?: string;
  tenantType?: string;
}

/** The categories whose events make Dunly sync the organisation. */
export const SYNCED_CATEGORIES = ["INVOICE", "CONTACT"] as const;
/** The most organisations one payload syncs (Xero groups events per app, a few organisations at most). */
export const MAX_TENANTS_PER_PAYLOAD = 50;

const TENANT_ID = /^[0-9a-fA-F-]{8,64}$/;

/**
 * What a signed payload asks for: 'intent' (no events: Xero's "Intent to receive" check),
 * 'unreadable' (not Xero's JSON), or the organisations whose invoices or contacts changed (their
 * tenant ids, each once, at most MAX_TENANTS_PER_PAYLOAD).
 */
export function readXeroPayload(
  text: string,
): { kind: "intent" } | { kind: "unreadable" } | { kind: "events"; tenantIds: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "unreadable" };
  }
  const events = typeof json === "object" && json !== null ? (json as { events?: unknown }).events : undefined;
  if (!Array.isArray(events)) return { kind: "unreadable" };
  if (events.length === 0) return { kind: "intent" };
  const tenantIds = new Set<string>();
  for (const event of events as XeroWebhookEvent[]) {
    if (typeof event !== "object" || event === null) continue;
    if (!(SYNCED_CATEGORIES as readonly string[]).includes(String(event.eventCategory ?? "").toUpperCase())) continue;
    const tenant = String(event.tenantId ?? "");
    if (TENANT_ID.test(tenant)) tenantIds.add(tenant);
    if (tenantIds.size >= MAX_TENANTS_PER_PAYLOAD) break;
  }
  return { kind: "events", tenantIds: [...tenantIds] };
}

/** The payload Xero sends for changes of these resources (the stand-in's deliveries and the tests). */
export function xeroPayload(
  events: readonly { tenantId: string; resourceId: string; category?: "INVOICE" | "CONTACT"; type?: string }[],
  sequence: number,
  at = Date.now(),
) {
  return JSON.stringify({
    events: events.map((e) => ({
      resourceUrl: `https://api.xero.com/api.xro/2.0/${e.category === "CONTACT" ? "Contacts" : "Invoices"}/${e.resourceId}`,
      resourceId: e.resourceId,
      eventDateUtc: new Date(at).toISOString().replace("Z", ""),
      eventType: e.type ?? "UPDATE",
      eventCategory: e.category ?? "INVOICE",
      tenantId: e.tenantId,
      tenantType: "ORGANISATION",
    })),
    firstEventSequence: sequence,
    lastEventSequence: sequence + events.length - 1,
    entropy: crypto.randomUUID().replace(/-/g, "").slice(0, 20).toUpperCase(),
  });
}
