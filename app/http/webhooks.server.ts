import { type Context, Hono } from "hono";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import * as v from "valibot";
import { writeBackAfter } from "~/accounting/index.server";
import { sendNoticesAfter } from "~/activity/index.server";
import { type Db, getDb } from "~/db/client.server";
import { BodyTooLarge, readBodyWithin } from "~/platform/body-limit.server";
import {
  forgetWebhookEvent,
  recordComplaint,
  recordDelivered,
  recordHardBounce,
  recordWebhookEvent,
} from "~/responses/index.server";
import type { StripeEndpoint } from "~/stripe/index.server";
import type { AppBindings } from "./hono-env";
import { quickBooksWebhook } from "./quickbooks-webhook.server";
import { MAX_STRIPE_EVENT_BYTES, receiveStripeEvent } from "./stripe-webhooks.server";
import {
  MAX_TWILIO_BODY_BYTES,
  receiveTwilioRequest,
  signedUrlOf,
  type TwilioEndpoint,
} from "./twilio-webhooks.server";
import { MAX_XERO_PAYLOAD_BYTES, receiveXeroWebhook } from "./xero-webhooks.server";

type Ctx = Context<AppBindings>;

/**
 * Provider webhooks: POST /webhooks/resend takes Resend's e-mail events. They
 * are authenticated by their signature, not a session (the CSRF check exempts /webhooks/): Resend
 * signs with Svix, the Standard Webhooks scheme, verified by the `standardwebhooks` library with
 * the RESEND_WEBHOOK_SECRET binding; a timestamp more than five minutes off is refused. Without
 * the secret the endpoint does not exist (404). An event id is handled once: a repeat changes
 * nothing. A hard bounce pauses the debtor's schedules, a complaint opts the address out, a
 * delivery records its time.
 */
export const webhookRoutes = new Hono<AppBindings>();

/** Resend's events are small JSON objects; anything larger is not one. */
export const MAX_WEBHOOK_BYTES = 64 * 1024;
/** Svix message ids are short ("msg_…"); a longer one is not from Resend. */
const MAX_EVENT_ID_LENGTH = 200;

const fail = (c: Ctx, status: 400 | 404 | 413, error: string) => c.json({ ok: false, error }, status);

/** The fields of Resend's event payload that Dunly reads; anything else is ignored. */
const ResendEventSchema = v.looseObject({
  type: v.pipe(v.string(), v.nonEmpty(), v.maxLength(100)),
  created_at: v.optional(v.string()),
  data: v.optional(
    v.looseObject({
      email_id: v.optional(v.string()),
      to: v.optional(v.union([v.array(v.string()), v.string()])),
      bounce: v.optional(
        v.looseObject({
          type: v.optional(v.string()),
          subType: v.optional(v.string()),
          message: v.optional(v.string()),
        }),
      ),
    }),
  ),
});
type ResendEvent = v.InferOutput<typeof ResendEventSchema>;

/**
 * The signature headers in the Standard Webhooks names the library reads. Resend sends Svix's
 * (svix-id, svix-timestamp, svix-signature); the unbranded webhook-* names are taken too.
 */
function signatureHeaders(c: Ctx) {
  const header = (name: string) => c.req.header(`svix-${name}`) ?? c.req.header(`webhook-${name}`) ?? "";
  return {
    "webhook-id": header("id"),
    "webhook-timestamp": header("timestamp"),
    "webhook-signature": header("signature"),
  };
}

webhookRoutes.post("/resend", async (c) => {
  const secret = c.get("config").RESEND_WEBHOOK_SECRET;
  if (!secret) return fail(c, 404, "Not found");

  let payload: string;
  try {
    payload = new TextDecoder().decode(await readBodyWithin(c.req.raw, MAX_WEBHOOK_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLarge) return fail(c, 413, "The event is too large");
    return fail(c, 400, "The event could not be read");
  }

  const headers = signatureHeaders(c);
  try {
    // Checks the headers are present, the timestamp within five minutes, and the HMAC.
    new Webhook(secret).verify(payload, headers, { jsonParse: false });
  } catch (error) {
    if (error instanceof WebhookVerificationError) return fail(c, 400, `Invalid signature: ${error.message}`);
    throw error;
  }
  const eventId = headers["webhook-id"];
  if (eventId.length > MAX_EVENT_ID_LENGTH) return fail(c, 400, "Invalid event id");

  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    return fail(c, 400, "The event is not JSON");
  }
  const parsed = v.safeParse(ResendEventSchema, json);
  const event = parsed.success ? parsed.output : null;

  const db = getDb(c.env.DB);
  // Seen before: Resend retries until it gets a 2xx, and a replay must change nothing.
  if (!(await recordWebhookEvent(db, eventId, event?.type ?? "unreadable"))) {
    return c.json({ ok: true, duplicate: true });
  }
  let handled: Handled;
  try {
    handled = event ? await handleEvent(c.env, db, event) : NOTHING;
  } catch (error) {
    // Not handled: forget the id so the provider's retry is handled, not skipped as a repeat.
    await forgetWebhookEvent(db, eventId).catch((forgetError) =>
      console.error(`[dunly] could not forget webhook event ${eventId}`, forgetError),
    );
    throw error;
  }
  // A bounce or a complaint: the user is told.
  if (handled.ownerId) sendNoticesAfter(c.executionCtx, c.env, db, c.get("config"), handled.ownerId);
  return c.json({ ok: true });
});

/** A bounce the provider calls permanent: the address does not take mail. Soft ones are ignored. */
function isHardBounce(bounce: { type?: string } | undefined) {
  const type = bounce?.type?.trim().toLowerCase();
  return type === "permanent" || type === "hard";
}

/** When the event happened (ms), or `fallback` when the payload has no readable time. */
function eventTime(event: ResendEvent, fallback: number) {
  const at = event.created_at ? Date.parse(event.created_at) : Number.NaN;
  return Number.isFinite(at) ? at : fallback;
}

function firstRecipient(to: string | string[] | undefined) {
  const first = Array.isArray(to) ? to[0] : to;
  return first?.trim().toLowerCase() || null;
}

/** Every recipient the event names, lower-cased (a reminder's copies may be among them: decisions/057). */
function recipientsOf(to: string | string[] | undefined) {
  const list = Array.isArray(to) ? to : to ? [to] : [];
  return list.map((address) => address.trim().toLowerCase()).filter((address) => address !== "");
}

/** What an event changed: the schedules it stopped (their alarms are disarmed), and the owner to tell. */
type Handled = { scheduleIds: string[]; ownerId?: string };
const NOTHING: Handled = { scheduleIds: [] };

/** Applies one new event. */
async function handleEvent(env: Env, db: Db, event: ResendEvent): Promise<Handled> {
  const emailId = event.data?.email_id;
  if (!emailId) return NOTHING;
  const now = Date.now();
  switch (event.type) {
    case "email.bounced": {
      if (!isHardBounce(event.data?.bounce)) return NOTHING;
      const message = event.data?.bounce?.message ?? "";
      return await recordHardBounce({ env, db }, emailId, message, now, recipientsOf(event.data?.to));
    }
    case "email.complained":
      return await recordComplaint(
        { env, db },
        emailId,
        firstRecipient(event.data?.to),
        now,
        recipientsOf(event.data?.to),
      );
    case "email.delivered":
      await recordDelivered(db, emailId, eventTime(event, now));
      return NOTHING;
    default:
      return NOTHING;
  }
}

webhookRoutes.onError((error, c) => {
  console.error("[dunly] webhook error", error);
  return c.json({ ok: false, error: "Something went wrong" }, 500);
});

/**
 * Stripe's two endpoints (app/http/stripe-webhooks.server.ts): the connected accounts' events and
 * Dunly's own billing events, verified on the raw body. Without Stripe (production without a key)
 * they answer 404.
 */
webhookRoutes.post("/stripe/:endpoint{connect|billing}", async (c) => {
  let payload: string;
  try {
    payload = new TextDecoder().decode(await readBodyWithin(c.req.raw, MAX_STRIPE_EVENT_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLarge) return fail(c, 413, "The event is too large");
    throw error;
  }
  const endpoint = c.req.param("endpoint") as StripeEndpoint;
  const receipt = await receiveStripeEvent(
    c.env,
    c.get("config"),
    endpoint,
    payload,
    c.req.header("Stripe-Signature") ?? null,
  );
  // A debtor's payment online may have been queued for the books (decisions/063): written after the answer.
  if (endpoint === "connect" && receipt.status === 200 && !receipt.body.duplicate && !receipt.body.ignored) {
    writeBackAfter(c.executionCtx, c.env);
  }
  return c.json(receipt.body, receipt.status);
});

/**
 * Xero's webhook (app/http/xero-webhooks.server.ts, decisions/062): every answer without a body, as
 * Xero requires; its status says everything (200 taken, 401 bad signature, 404 not set up).
 */
webhookRoutes.post("/xero", async (c) => {
  let payload: Uint8Array<ArrayBuffer>;
  try {
    payload = await readBodyWithin(c.req.raw, MAX_XERO_PAYLOAD_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return c.body(null, 413);
    return c.body(null, 400);
  }
  const status = await receiveXeroWebhook(
    c.env,
    c.get("config"),
    payload,
    c.req.header("x-xero-signature") ?? null,
    (promise) => c.executionCtx.waitUntil(promise),
  );
  return c.body(null, status);
});

/**
 * Twilio's status callbacks and inbound texts (app/http/twilio-webhooks.server.ts, decisions/068),
 * verified by X-Twilio-Signature; 404 without Twilio in production.
 */
webhookRoutes.post("/twilio/:endpoint{status|inbound}", async (c) => {
  let form: string;
  try {
    form = new TextDecoder().decode(await readBodyWithin(c.req.raw, MAX_TWILIO_BODY_BYTES));
  } catch (error) {
    if (error instanceof BodyTooLarge) return c.text("The request is too large", 413);
    return c.text("The request could not be read", 400);
  }
  const config = c.get("config");
  const answer = await receiveTwilioRequest(
    c.env,
    config,
    c.executionCtx,
    c.req.param("endpoint") as TwilioEndpoint,
    signedUrlOf(config, c.req.url),
    form,
    c.req.header("X-Twilio-Signature") ?? null,
  );
  return c.body(answer.body, answer.status, { "Content-Type": `${answer.contentType}; charset=utf-8` });
});

/** QuickBooks Online's notifications (app/http/quickbooks-webhook.server.ts, decisions/061). */
webhookRoutes.route("/quickbooks", quickBooksWebhook);

webhookRoutes.all("*", (c) => fail(c, 404, "Not found"));
