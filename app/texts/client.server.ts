import { and, eq, sql } from "drizzle-orm";
import { type Db, getDb } from "~/db/client.server";
import { textMessages, textOptOuts } from "~/db/schema";
import { TEXT_MAX_CHARS, textLength } from "~/domain/text-message";
import { type AppConfig, linkOrigin } from "~/platform/config.server";

/**
 * The one client of Twilio's Messaging API (decisions/068), with one failure policy: plain fetch (no
 * Node SDK on the Worker), every text through the account's Messaging Service (the carriers' STOP
 * and HELP handled by Twilio), a status callback on each. Nothing here throws to its caller: every
 * outcome is a `TextResult` the caller records.
 *
 * Exactly once: each text is written to `text_messages` under the caller's idempotency key (a
 * reminder's occurrence key) before the request. A key Twilio accepted answers its SID again, never
 * a second text. Twilio's Messages API has no idempotency key of its own, so a request whose answer
 * never came (a timeout, a 5xx) stays 'pending': a later attempt first asks Twilio for a message to
 * that number with that body since the first attempt, and sends only when there is none.
 *
 * Without TWILIO_* in production the channel is off and every send fails closed, naming what is
 * missing; in development and test the dev outbox (/dev/texts) stands in: the same row, a made-up
 * SID, and buttons that fire the same signed callbacks Twilio would.
 */

export type TextChannel =
  | { mode: "twilio"; accountSid: string; authToken: string; messagingServiceSid: string }
  | { mode: "standin"; authToken: string; messagingServiceSid: string }
  | { mode: "off" };

/** The stand-in's auth token: signs the dev outbox's callbacks (development and test only). */
export const STANDIN_AUTH_TOKEN = "dunly-dev-texts-standin-auth-token";
/** The stand-in's Messaging Service (the number debtors' replies are addressed to). */
export const STANDIN_MESSAGING_SERVICE_SID = "MG00000000000000000000000000000000";

/** Which way texts go: Twilio, the dev outbox, or nowhere (production without Twilio). */
export function textChannel(config: AppConfig): TextChannel {
  const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_MESSAGING_SERVICE_SID } = config;
  if (TWILIO_ACCOUNT_SID && TWILIO_AUTH_TOKEN && TWILIO_MESSAGING_SERVICE_SID) {
    return {
      mode: "twilio",
      accountSid: TWILIO_ACCOUNT_SID,
      authToken: TWILIO_AUTH_TOKEN,
      messagingServiceSid: TWILIO_MESSAGING_SERVICE_SID,
    };
  }
  if (config.APP_ENV === "development" || config.APP_ENV === "test") {
    return { mode: "standin", authToken: STANDIN_AUTH_TOKEN, messagingServiceSid: STANDIN_MESSAGING_SERVICE_SID };
  }
  return { mode: "off" };
}

/** Whether the text channel can send at all (Settings hides it otherwise). */
export function textsAvailable(config: AppConfig): boolean {
  return textChannel(config).mode !== "off";
}

/** How long an attempt without an answer waits for Twilio's callback before it is looked up and retried. */
export const UNANSWERED_WAIT_MS = 10 * 60_000;
const TIMEOUT_MS = 15_000;
const TWILIO_API = "https://api.twilio.com/2010-04-01";
/** Twilio's "Attempt to send to unsubscribed recipient": the number opted out at the carrier. */
const UNSUBSCRIBED_RECIPIENT = 21610;

export interface TextRequest {
  ownerId: string;
  debtorId?: number | null;
  /** The reminder's delivery row, when the text is a reminder's: its status callbacks are recorded there too. */
  deliveryId?: number | null;
  /** E.164 ("+447700900123"). */
  to: string;
  body: string;
  /** One per occurrence (a reminder's occurrence key plus ":text"): the same key never texts twice. */
  idempotencyKey: string;
  /** Where Twilio reports the text's status; by default this app's /webhooks/twilio/status. */
  statusCallback?: string;
}

export type TextFailure = "off" | "invalid" | "opted-out" | "refused" | "unanswered" | "unavailable";

export type TextResult =
  | { ok: true; sid: string; duplicate?: true }
  | { ok: false; retryable: boolean; reason: TextFailure; error: string; retryAfterMs?: number };

const E164 = /^\+[1-9]\d{6,14}$/;

/** The URL Twilio's status callbacks go to. */
export function statusCallbackUrl(config: AppConfig): string {
  return `${linkOrigin(config)}/webhooks/twilio/status`;
}

/**
 * Sends one text, once per idempotency key. A number that said STOP to this account is refused
 * (not retryable) at the moment it would leave, whatever the caller checked before.
 */
export async function sendText(env: Env, config: AppConfig, req: TextRequest, now = Date.now()): Promise<TextResult> {
  const channel = textChannel(config);
  if (channel.mode === "off") {
    return {
      ok: false,
      retryable: false,
      reason: "off",
      error:
        "Text messages are off: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_MESSAGING_SERVICE_SID are not set",
    };
  }
  if (!E164.test(req.to)) {
    return { ok: false, retryable: false, reason: "invalid", error: `Not a number in E.164: ${req.to}` };
  }
  const length = textLength(req.body);
  if (length === 0 || length > TEXT_MAX_CHARS) {
    return {
      ok: false,
      retryable: false,
      reason: "invalid",
      error: `A text has 1 to ${TEXT_MAX_CHARS} characters (this one ${length})`,
    };
  }
  if (!req.idempotencyKey || req.idempotencyKey.length > 200) {
    return {
      ok: false,
      retryable: false,
      reason: "invalid",
      error: "An idempotency key of 1 to 200 characters is required",
    };
  }
  const db = getDb(env.DB);
  try {
    const [optedOut] = await db
      .select({ at: textOptOuts.at })
      .from(textOptOuts)
      .where(and(eq(textOptOuts.ownerId, req.ownerId), eq(textOptOuts.number, req.to)));
    if (optedOut) {
      return {
        ok: false,
        retryable: false,
        reason: "opted-out",
        error: "The number replied STOP: no more texts to it",
      };
    }
    const claim = await claimAttempt(db, channel, req, now);
    if (claim.kind === "answered") return claim.result;
    return channel.mode === "standin"
      ? await sendToStandIn(db, claim.id, now)
      : await sendToTwilio(db, channel, claim, req, config, now);
  } catch (error) {
    console.error(`[dunly] text ${req.idempotencyKey} could not be sent`, error);
    return {
      ok: false,
      retryable: true,
      reason: "unavailable",
      error: "The text could not be sent; it will be retried",
    };
  }
}

type Claim = { kind: "answered"; result: TextResult } | { kind: "claimed"; id: number; lookUpSince: number | null };

/** Writes the attempt under its key, or reads what an earlier attempt under the same key concluded. */
async function claimAttempt(
  db: Db,
  channel: Exclude<TextChannel, { mode: "off" }>,
  req: TextRequest,
  now: number,
): Promise<Claim> {
  const inserted = await db
    .insert(textMessages)
    .values({
      ownerId: req.ownerId,
      debtorId: req.debtorId ?? null,
      deliveryId: req.deliveryId ?? null,
      idempotencyKey: req.idempotencyKey,
      to: req.to,
      body: req.body,
      provider: channel.mode,
      status: "pending",
      attemptedAt: now,
    })
    .onConflictDoNothing({ target: textMessages.idempotencyKey })
    .returning({ id: textMessages.id });
  if (inserted[0]) return { kind: "claimed", id: inserted[0].id, lookUpSince: null };

  const [earlier] = await db.select().from(textMessages).where(eq(textMessages.idempotencyKey, req.idempotencyKey));
  if (!earlier) throw new Error("The text's row vanished");
  if (earlier.sid) return { kind: "answered", result: { ok: true, sid: earlier.sid, duplicate: true } };
  if (earlier.status === "refused") {
    return {
      kind: "answered",
      result: { ok: false, retryable: false, reason: "refused", error: earlier.error ?? "Twilio refused the text" },
    };
  }
  const waiting = earlier.status === "pending" && now - earlier.attemptedAt < UNANSWERED_WAIT_MS;
  if (waiting) {
    return {
      kind: "answered",
      result: {
        ok: false,
        retryable: true,
        reason: "unanswered",
        error: "An earlier attempt is waiting for Twilio's answer",
        retryAfterMs: earlier.attemptedAt + UNANSWERED_WAIT_MS - now,
      },
    };
  }
  // 'retry' (Twilio said "not now") or 'pending' long unanswered: this attempt takes it over, once.
  const taken = await db
    .update(textMessages)
    .set({ status: "pending", attemptedAt: now, attempts: sql`${textMessages.attempts} + 1` })
    .where(
      and(
        eq(textMessages.id, earlier.id),
        eq(textMessages.status, earlier.status),
        eq(textMessages.attemptedAt, earlier.attemptedAt),
        sql`${textMessages.sid} IS NULL`,
      ),
    )
    .returning({ id: textMessages.id });
  if (!taken[0]) {
    return {
      kind: "answered",
      result: { ok: false, retryable: true, reason: "unanswered", error: "Another attempt is sending this text" },
    };
  }
  // Looked up from the first attempt on: a later takeover must not hide an earlier attempt's send.
  return { kind: "claimed", id: earlier.id, lookUpSince: earlier.status === "pending" ? earlier.createdAt : null };
}

async function accepted(db: Db, id: number, sid: string, status: string, now: number): Promise<TextResult> {
  await db.update(textMessages).set({ sid, status, statusAt: now, error: null }).where(eq(textMessages.id, id));
  return { ok: true, sid };
}

/** The dev outbox: the row is the message; its SID is made up, its status 'queued' until a button says more. */
async function sendToStandIn(db: Db, id: number, now: number): Promise<TextResult> {
  const bytes = crypto.getRandomValues(new Uint8Array(14));
  const sid = `SMdev${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
  return await accepted(db, id, sid, "queued", now);
}

interface TwilioMessage {
  sid?: string;
  status?: string;
  body?: string;
  to?: string;
  date_created?: string;
}

function basicAuth(channel: { accountSid: string; authToken: string }) {
  return `Basic ${btoa(`${channel.accountSid}:${channel.authToken}`)}`;
}

/**
 * A text Twilio may have accepted though its answer never came: the account's messages to the
 * number sent since the attempt (a day's page), matched by body. Null when none.
 */
async function findEarlierSend(
  channel: Extract<TextChannel, { mode: "twilio" }>,
  to: string,
  body: string,
  since: number,
): Promise<TwilioMessage | null> {
  const day = new Date(since).toISOString().slice(0, 10);
  const url = `${TWILIO_API}/Accounts/${channel.accountSid}/Messages.json?To=${encodeURIComponent(to)}&DateSent%3E=${day}&PageSize=100`;
  const response = await fetch(url, {
    headers: { Authorization: basicAuth(channel) },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`Twilio's message list answered ${response.status}`);
  const json = (await response.json()) as { messages?: TwilioMessage[] };
  return (
    json.messages?.find(
      (m) => m.body === body && (m.date_created ? Date.parse(m.date_created) >= since - 60_000 : true),
    ) ?? null
  );
}

async function sendToTwilio(
  db: Db,
  channel: Extract<TextChannel, { mode: "twilio" }>,
  claim: { id: number; lookUpSince: number | null },
  req: TextRequest,
  config: AppConfig,
  now: number,
): Promise<TextResult> {
  if (claim.lookUpSince !== null) {
    // An earlier attempt was never answered: it may have gone. Sent → recorded, not sent again.
    let found: TwilioMessage | null;
    try {
      found = await findEarlierSend(channel, req.to, req.body, claim.lookUpSince);
    } catch (error) {
      console.error(`[dunly] text ${req.idempotencyKey}: could not look up an earlier attempt`, error);
      await db.update(textMessages).set({ status: "pending" }).where(eq(textMessages.id, claim.id));
      return {
        ok: false,
        retryable: true,
        reason: "unanswered",
        error: "Twilio could not say whether an earlier attempt was sent; it will be asked again",
      };
    }
    if (found?.sid) return await accepted(db, claim.id, found.sid, found.status ?? "accepted", now);
  }

  const form = new URLSearchParams({
    To: req.to,
    MessagingServiceSid: channel.messagingServiceSid,
    Body: req.body,
    StatusCallback: req.statusCallback ?? statusCallbackUrl(config),
  });
  let response: Response;
  try {
    response = await fetch(`${TWILIO_API}/Accounts/${channel.accountSid}/Messages.json`, {
      method: "POST",
      headers: { Authorization: basicAuth(channel), "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    // No answer: Twilio may have taken it. The row stays 'pending'; its callback or the look-up decides.
    console.error(`[dunly] text ${req.idempotencyKey}: Twilio did not answer`, error);
    return {
      ok: false,
      retryable: true,
      reason: "unanswered",
      error: "Twilio did not answer; the text is looked up before any retry",
      retryAfterMs: UNANSWERED_WAIT_MS,
    };
  }
  const json = (await response.json().catch(() => null)) as
    | (TwilioMessage & { code?: number; message?: string })
    | null;
  if (response.ok && json?.sid) return await accepted(db, claim.id, json.sid, json.status ?? "accepted", now);

  if (response.status === 429 || response.status === 401 || response.status === 403) {
    // Not taken: a limit, or the credentials (fixed by the operator, then retried).
    const error = `Twilio answered ${response.status}${json?.message ? `: ${json.message}` : ""}`;
    await db.update(textMessages).set({ status: "retry", error }).where(eq(textMessages.id, claim.id));
    const retryAfter = Number(response.headers.get("Retry-After"));
    return {
      ok: false,
      retryable: true,
      reason: "unavailable",
      error,
      retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
    };
  }
  if (response.status >= 400 && response.status < 500) {
    // A definite no (a bad or unreachable number, a blocked country, a number that said STOP to the service).
    const error = `Twilio refused the text${json?.code ? ` (${json.code})` : ""}: ${json?.message ?? `HTTP ${response.status}`}`;
    const refused = db
      .update(textMessages)
      .set({ status: "refused", errorCode: json?.code ? String(json.code) : null, error, statusAt: now })
      .where(eq(textMessages.id, claim.id));
    if (json?.code === UNSUBSCRIBED_RECIPIENT) {
      // The number said STOP to the Messaging Service (perhaps before Dunly heard it): this account stops too.
      await db.batch([
        refused,
        db
          .insert(textOptOuts)
          .values({ ownerId: req.ownerId, number: req.to, source: "carrier", at: now })
          .onConflictDoNothing(),
      ]);
    } else {
      await refused;
    }
    return { ok: false, retryable: false, reason: "refused", error };
  }
  // A 5xx: Twilio may or may not have taken it; looked up before any retry.
  return {
    ok: false,
    retryable: true,
    reason: "unanswered",
    error: `Twilio answered ${response.status}; the text is looked up before any retry`,
    retryAfterMs: UNANSWERED_WAIT_MS,
  };
}
