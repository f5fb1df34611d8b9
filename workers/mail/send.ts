import { assertHeaderSafe, formatAddress } from "../../app/domain/header-safe";
import type { MailConfig } from "./config";

export interface OutgoingMessage {
  to: string;
  /** Display name for the From header; the address is always MAIL_FROM_ADDRESS. */
  fromName: string;
  replyTo?: string | null;
  subject: string;
  html: string;
  text: string;
  /**
   * Extra headers for the provider, e.g. a reminder's List-Unsubscribe and List-Unsubscribe-Post
   * (RFC 8058). Names are header tokens and values single lines, or the message is refused. The
   * dev outbox has no column for them (it keeps what a mailbox shows: the link is in the body).
   */
  headers?: Record<string, string>;
}

/** An RFC 5322 field name. */
const HEADER_NAME_RE = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

export type SendResult =
  | { ok: true; id: string | null; via: "resend" | "outbox"; attempts: number }
  | {
      ok: false;
      retryable: boolean;
      status: number | null;
      error: string;
      attempts: number;
      /**
       * Only with the provider's 429 (rate limited): how long to wait before sending again, from its
       * Retry-After header (see `retryAfterMs`). deliver never retries a 429 itself; the caller paces.
       */
      retryAfterMs?: number;
    };

/** Backoff between attempts inside one send (5xx, network, 409 in progress); same Idempotency-Key. */
const RETRY_DELAYS_MS = [250, 1000] as const;

/** The wait after a 429 without a usable Retry-After, and the longest one honoured. */
export const RETRY_AFTER_DEFAULT_MS = 1000;
export const RETRY_AFTER_MAX_MS = 60 * 60 * 1000;

/**
 * A Retry-After header (RFC 9110 §10.2.3) in milliseconds from `now`: delay-seconds or an
 * HTTP-date. Absent or unparseable: RETRY_AFTER_DEFAULT_MS; clamped to [0, RETRY_AFTER_MAX_MS].
 */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number {
  const trimmed = value?.trim() ?? "";
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else if (/[a-z]/i.test(trimmed) && Number.isFinite(Date.parse(trimmed))) ms = Date.parse(trimmed) - now;
  else return RETRY_AFTER_DEFAULT_MS;
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, Math.ceil(ms)));
}

/**
 * 429, 5xx and network failures (no status) may succeed later, and so may a 409 for a request
 * with the same Idempotency-Key that is still in progress (an earlier attempt whose answer was
 * lost); everything else will not.
 */
function isRetryable(status: number | null, name?: string): boolean {
  return (
    status === null || status === 429 || status >= 500 || (status === 409 && name === "concurrent_idempotent_requests")
  );
}

/**
 * A reminder's opt-out headers (RFC 2369 List-Unsubscribe, RFC 8058 one-click List-Unsubscribe-Post)
 * for its signed opt-out URL, or why there can be none: the URL must be an absolute http(s) URL on
 * one line. It is ours (an origin and base64url), but it becomes a header value, so that is checked.
 */
export function unsubscribeHeaders(
  url: unknown,
): { ok: true; headers: Record<string, string> } | { ok: false; error: string } {
  if (typeof url !== "string" || url === "") {
    return { ok: false, error: "Opt-out link missing: a reminder is never sent without one" };
  }
  if (/[\r\n]/.test(url)) return { ok: false, error: "Opt-out link must not contain line breaks" };
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol) || /[\s<>,]/.test(url)) {
    return { ok: false, error: "Opt-out link must be an absolute http(s) URL" };
  }
  return {
    ok: true,
    headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const RESEND_API_KEY_MISSING = "RESEND_API_KEY is not set: e-mail cannot be sent in production";

/**
 * Sends through Resend when RESEND_API_KEY is set. Without it, development and test store the
 * message in the dev outbox and production fails (not retryable: a key is not set by waiting).
 * Never throws: the caller gets a result it can record. 5xx, network errors and a 409 "in
 * progress" are retried twice with backoff under the same Idempotency-Key, so the provider sends at
 * most one e-mail; a 429 is not retried here: it comes back at once, retryable, with the
 * provider's Retry-After as `retryAfterMs`.
 */
export async function deliver(
  db: D1Database,
  config: MailConfig,
  message: OutgoingMessage,
  idempotencyKey?: string,
): Promise<SendResult> {
  let from: string;
  try {
    assertHeaderSafe(message.to, "Recipient");
    assertHeaderSafe(message.subject, "Subject");
    if (message.replyTo) assertHeaderSafe(message.replyTo, "Reply-To");
    for (const [name, value] of Object.entries(message.headers ?? {})) {
      if (!HEADER_NAME_RE.test(name)) throw new Error(`Header name ${JSON.stringify(name)} is not valid`);
      assertHeaderSafe(value, name);
    }
    from = formatAddress(message.fromName, config.MAIL_FROM_ADDRESS);
  } catch (error) {
    return { ok: false, retryable: false, status: null, error: (error as Error).message, attempts: 0 };
  }

  if (!config.RESEND_API_KEY) {
    if (config.APP_ENV !== "development" && config.APP_ENV !== "test") {
      return { ok: false, retryable: false, status: null, error: RESEND_API_KEY_MISSING, attempts: 0 };
    }
    try {
      // INSERT OR IGNORE on the unique key: the outbox, like Resend, sends one message per key.
      await db
        .prepare(
          'INSERT OR IGNORE INTO dev_outbox (idempotency_key, "to", "from", reply_to, subject, html, text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        )
        .bind(
          idempotencyKey ?? null,
          message.to,
          from,
          message.replyTo ?? null,
          message.subject,
          message.html,
          message.text,
          Date.now(),
        )
        .run();
      return { ok: true, id: null, via: "outbox", attempts: 1 };
    } catch (error) {
      return {
        ok: false,
        retryable: true,
        status: null,
        error: `Dev outbox: ${(error as Error).message}`,
        attempts: 1,
      };
    }
  }

  const payload = JSON.stringify({
    from,
    to: [message.to],
    reply_to: message.replyTo ?? undefined,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers && Object.keys(message.headers).length > 0 ? message.headers : undefined,
  });
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const answer = await postEmail(config.RESEND_BASE_URL, config.RESEND_API_KEY, payload, idempotencyKey);
    if (answer.ok) return { ok: true, id: answer.id, via: "resend", attempts };
    const { status } = answer;
    const error = `Resend${status ? ` ${status}` : ""}: ${answer.message}`;
    // Rate limited: waiting here would only add to the burst. The caller (the paced queue consumer)
    // sends it again after the provider's Retry-After.
    if (status === 429) {
      return { ok: false, retryable: true, status, error, attempts, retryAfterMs: retryAfterMs(answer.retryAfter) };
    }
    const retryable = isRetryable(status, answer.name);
    const delay = RETRY_DELAYS_MS[attempts - 1];
    if (!retryable || delay === undefined) return { ok: false, retryable, status, error, attempts };
    await sleep(delay);
  }
}

type ProviderAnswer =
  | { ok: true; id: string | null }
  | { ok: false; status: number | null; name: string; message: string; retryAfter: string | null };

/**
 * One POST {RESEND_BASE_URL}/emails (Resend's REST API, what its SDK sends): the API key as a
 * Bearer token, the Idempotency-Key, a JSON body. Answers `{ id }`, or an error `{ statusCode,
 * name, message }`. Never throws: a network failure has no status.
 */
async function postEmail(
  baseUrl: string,
  apiKey: string,
  payload: string,
  idempotencyKey: string | undefined,
): Promise<ProviderAnswer> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${apiKey}`,
    "Content-Type": "application/json",
    "User-Agent": "dunly-mail",
  };
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  let response: Response;
  let body: string;
  try {
    response = await fetch(`${baseUrl.replace(/\/+$/, "")}/emails`, { method: "POST", headers, body: payload });
    body = await response.text();
  } catch (error) {
    return {
      ok: false,
      status: null,
      name: "network_error",
      message: `the request could not be completed (${(error as Error).message})`,
      retryAfter: null,
    };
  }
  let parsed: { id?: unknown; name?: unknown; message?: unknown } | null = null;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not JSON: the status says enough.
  }
  if (response.ok) return { ok: true, id: typeof parsed?.id === "string" ? parsed.id : null };
  return {
    ok: false,
    status: response.status,
    name: typeof parsed?.name === "string" ? parsed.name : "application_error",
    message: typeof parsed?.message === "string" ? parsed.message : response.statusText || `HTTP ${response.status}`,
    retryAfter: response.headers.get("Retry-After"),
  };
}
