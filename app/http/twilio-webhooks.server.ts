import { sendNoticesAfter } from "~/activity/index.server";
import { getDb } from "~/db/client.server";
import { type AppConfig, appOrigin } from "~/platform/config.server";
import { forgetWebhookEvent, receiveText, recordWebhookEvent } from "~/responses/index.server";
import { isTextStatus, recordTextStatus, textChannel, verifyTwilioSignature } from "~/texts/index.server";

/**
 * Twilio's two webhooks (decisions/068), for Twilio and the dev outbox alike:
 * - POST /webhooks/twilio/status: a text's status callback (queued, sent, delivered, undelivered,
 *   failed), recorded on the text and its reminder's delivery, only forward;
 * - POST /webhooks/twilio/inbound: a debtor's text to the Messaging Service: STOP/START/HELP and the
 *   other keywords, or a reply (app/responses receiveText). Answered with empty TwiML: Dunly never
 *   texts back (the Messaging Service answers STOP and HELP itself).
 * Both are verified by X-Twilio-Signature over the URL Twilio requested (APP_ORIGIN's, with the
 * query string) and the form's parameters, with the account's auth token (the stand-in's in
 * development and test). Without Twilio in production they answer 404.
 */

/** Twilio's webhooks are small forms (a text is at most 1,600 characters). */
export const MAX_TWILIO_BODY_BYTES = 32 * 1024;

export type TwilioEndpoint = "status" | "inbound";

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
const E164 = /^\+[1-9]\d{6,14}$/;

export interface TwilioAnswer {
  status: 200 | 400 | 403 | 404;
  body: string;
  contentType: "text/xml" | "text/plain";
}

const plain = (status: TwilioAnswer["status"], body: string): TwilioAnswer => ({
  status,
  body,
  contentType: "text/plain",
});

/** The URL Twilio signed: this app's public origin (never the Host a client chooses) with the path and query. */
export function signedUrlOf(config: AppConfig, requestUrl: string): string {
  const url = new URL(requestUrl);
  return `${appOrigin(config, requestUrl)}${url.pathname}${url.search}`;
}

/**
 * One request to either endpoint: `url` is the URL Twilio signed, `form` the raw
 * application/x-www-form-urlencoded body.
 */
export async function receiveTwilioRequest(
  env: Env,
  config: AppConfig,
  ctx: Pick<ExecutionContext, "waitUntil">,
  endpoint: TwilioEndpoint,
  url: string,
  form: string,
  signature: string | null,
  now = Date.now(),
): Promise<TwilioAnswer> {
  const channel = textChannel(config);
  if (channel.mode === "off") return plain(404, "Not found");
  const params = [...new URLSearchParams(form).entries()];
  if (!(await verifyTwilioSignature(channel.authToken, url, params, signature))) {
    return plain(403, "Invalid signature");
  }
  const value = (name: string) => params.find(([key]) => key === name)?.[1] ?? null;
  const sid = value("MessageSid") ?? value("SmsSid");
  if (!sid || sid.length > 64) return plain(400, "MessageSid is missing");
  const db = getDb(env.DB);

  if (endpoint === "status") {
    const status = (value("MessageStatus") ?? value("SmsStatus") ?? "").toLowerCase();
    // A status Dunly does not follow ("received", "read", a new one): taken, nothing changes.
    if (!isTextStatus(status)) return plain(200, "");
    const errorCode = value("ErrorCode")?.slice(0, 20) || null;
    await recordTextStatus(db, sid, status, errorCode, now);
    return plain(200, "");
  }

  const from = value("From") ?? "";
  if (!E164.test(from)) return plain(400, "From is not a number in E.164");
  // Twilio retries a webhook it got no answer to: one message is handled once.
  const eventId = `twilio:${sid}`;
  if (!(await recordWebhookEvent(db, eventId, "text.inbound", now))) {
    return { status: 200, body: EMPTY_TWIML, contentType: "text/xml" };
  }
  try {
    const outcome = await receiveText(
      env,
      config,
      { from, body: value("Body") ?? "", optOutType: value("OptOutType") },
      now,
    );
    const told = outcome.kind === "stop" ? outcome.ownerIds : outcome.kind === "reply" ? [outcome.ownerId] : [];
    for (const ownerId of told) sendNoticesAfter(ctx, env, db, config, ownerId);
  } catch (error) {
    // Not handled: forget it so Twilio's retry is handled, not skipped as a repeat.
    await forgetWebhookEvent(db, eventId).catch((forgetError) =>
      console.error(`[dunly] could not forget webhook event ${eventId}`, forgetError),
    );
    throw error;
  }
  return { status: 200, body: EMPTY_TWIML, contentType: "text/xml" };
}
