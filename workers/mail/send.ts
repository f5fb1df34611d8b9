import { assertHeaderSafe, formatAddress } from "../../app/domain/header-safe";
import { type BatchSendResult, INVALID_IDEMPOTENT, type SendResult } from "../../app/mail/contract";
import { type MailConfig, PROVIDER_TIMEOUT_SECONDS } from "./config";

export type { BatchSendResult, LastLook, SendResult } from "../../app/mail/contract";

export interface OutgoingMessage {
  to: string;
  /** Copies (a reminder's CC'd contacts, decisions/057); none when absent or empty. */
  cc?: readonly string[];
  /** Display name for the From header. */
  fromName: string;
  /**
   * The From address: the user's verified domain's (docs/decisions/059-sending-domains.md), decided
   * by the app as it builds the message; absent or null: MAIL_FROM_ADDRESS.
   */
  fromAddress?: string | null;
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

/** A sending domain's address: a plain local part at a host name (app/domain/sending-domain.ts checks it first). */
const FROM_ADDRESS_RE = /^[a-z0-9](?:[a-z0-9._+-]*[a-z0-9])?@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** An RFC 5322 field name. */
const HEADER_NAME_RE = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** Backoff between attempts inside one send (5xx, network, 409 in progress); same Idempotency-Key. */
export const RETRY_DELAYS_MS = [250, 1000] as const;

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
export function isRetryable(status: number | null, name?: string): boolean {
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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  const checked = checkOutgoing(config, message);
  if (!checked.ok) return { ok: false, retryable: false, status: null, error: checked.error, attempts: 0 };
  const { from } = checked;

  if (!config.RESEND_API_KEY) {
    if (config.APP_ENV !== "development" && config.APP_ENV !== "test") {
      return { ok: false, retryable: false, status: null, error: RESEND_API_KEY_MISSING, attempts: 0 };
    }
    try {
      await outboxInsert(db, message, from, idempotencyKey).run();
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

  const payload = JSON.stringify(providerEmail(message, from));
  let attempts = 0;
  for (;;) {
    attempts += 1;
    const answer = await postProvider(config, "/emails", payload, idempotencyKey);
    if (answer.ok)
      return { ok: true, id: typeof answer.body?.id === "string" ? answer.body.id : null, via: "resend", attempts };
    const { status } = answer;
    // This key already sent an e-mail with another body (the provider keeps keys 24 hours): the
    // e-mail under this key went out, earlier; nothing was sent now. Never a failure.
    if (status === 409 && answer.name === INVALID_IDEMPOTENT)
      return { ok: true, id: null, via: "resend", attempts, replayed: true };
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

/** What deliver checks before anything is sent: header-safe values; the From header it makes. */
export function checkOutgoing(
  config: MailConfig,
  message: OutgoingMessage,
): { ok: true; from: string } | { ok: false; error: string } {
  try {
    assertHeaderSafe(message.to, "Recipient");
    for (const copy of message.cc ?? []) assertHeaderSafe(copy, "Cc");
    assertHeaderSafe(message.subject, "Subject");
    if (message.replyTo) assertHeaderSafe(message.replyTo, "Reply-To");
    for (const [name, value] of Object.entries(message.headers ?? {})) {
      if (!HEADER_NAME_RE.test(name)) throw new Error(`Header name ${JSON.stringify(name)} is not valid`);
      assertHeaderSafe(value, name);
    }
    const address = message.fromAddress || config.MAIL_FROM_ADDRESS;
    if (message.fromAddress) {
      assertHeaderSafe(message.fromAddress, "From");
      if (!FROM_ADDRESS_RE.test(message.fromAddress)) throw new Error("From address is not an e-mail address");
    }
    return { ok: true, from: formatAddress(message.fromName, address) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** One e-mail as Resend's /emails and /emails/batch take it. */
function providerEmail(message: OutgoingMessage, from: string) {
  return {
    from,
    to: [message.to],
    cc: message.cc && message.cc.length > 0 ? [...message.cc] : undefined,
    reply_to: message.replyTo ?? undefined,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers && Object.keys(message.headers).length > 0 ? message.headers : undefined,
  };
}

/** The dev outbox's INSERT OR IGNORE on the unique key: the outbox, like Resend, sends one message per key. */
function outboxInsert(db: D1Database, message: OutgoingMessage, from: string, idempotencyKey: string | undefined) {
  return db
    .prepare(
      'INSERT OR IGNORE INTO dev_outbox (idempotency_key, "to", "from", reply_to, cc, subject, html, text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .bind(
      idempotencyKey ?? null,
      message.to,
      from,
      message.replyTo ?? null,
      message.cc && message.cc.length > 0 ? message.cc.join(", ") : null,
      message.subject,
      message.html,
      message.text,
      Date.now(),
    );
}

/** Resend's batch endpoint takes at most this many e-mails a request. */
export const MAX_BATCH_EMAILS = 100;

/** One e-mail of a batch: the message and its own key (the occurrence key; the dev outbox's unique key). */
export interface BatchItem {
  message: OutgoingMessage;
  key: string;
}

/**
 * One request to Resend's POST /emails/batch (docs/decisions/021-batch-sending.md): up to 100
 * e-mails under one Idempotency-Key, `batchKey`, which the caller derives from exactly what the
 * batch carries, so a retry of the same batch is sent at most once. Strict validation (Resend's
 * default): the provider refuses the whole batch when one e-mail is invalid, and the caller splits
 * it. Never retries by itself and never throws: a timeout (RESEND_TIMEOUT_SECONDS) or a reset is an
 * unanswered request (status null, retryable), retried only under the same key. Without
 * RESEND_API_KEY, development and test write every e-mail to the dev outbox in one D1 batch.
 */
export async function deliverBatch(
  db: D1Database,
  config: MailConfig,
  items: readonly BatchItem[],
  batchKey: string,
): Promise<BatchSendResult> {
  if (items.length === 0 || items.length > MAX_BATCH_EMAILS) {
    const error = `A batch carries 1 to ${MAX_BATCH_EMAILS} e-mails (got ${items.length})`;
    return { ok: false, split: false, retryable: false, status: null, error };
  }
  const invalid: { index: number; error: string }[] = [];
  const froms: string[] = [];
  items.forEach((item, index) => {
    const checked = checkOutgoing(config, item.message);
    if (checked.ok) froms.push(checked.from);
    else invalid.push({ index, error: checked.error });
  });
  if (invalid.length > 0) return { ok: false, invalid };

  if (!config.RESEND_API_KEY) {
    if (config.APP_ENV !== "development" && config.APP_ENV !== "test") {
      return { ok: false, split: false, retryable: false, status: null, error: RESEND_API_KEY_MISSING };
    }
    try {
      await db.batch(items.map((item, i) => outboxInsert(db, item.message, froms[i] ?? "", item.key)));
      return { ok: true, ids: items.map(() => null), via: "outbox" };
    } catch (error) {
      return {
        ok: false,
        split: false,
        retryable: true,
        status: null,
        error: `Dev outbox: ${(error as Error).message}`,
      };
    }
  }

  const payload = JSON.stringify(items.map((item, i) => providerEmail(item.message, froms[i] ?? "")));
  const answer = await postProvider(config, "/emails/batch", payload, batchKey);
  if (answer.ok) {
    const data = Array.isArray(answer.body?.data) ? (answer.body.data as { id?: unknown }[]) : [];
    if (data.length !== items.length) {
      // Accepted, but not answered as documented: the same batch is tried again under its key.
      const error = `Resend: the batch's answer lists ${data.length} ids for ${items.length} e-mails`;
      return { ok: false, split: false, retryable: true, status: null, error };
    }
    return { ok: true, ids: data.map((d) => (typeof d?.id === "string" ? d.id : null)), via: "resend" };
  }
  const { status } = answer;
  const error = `Resend${status ? ` ${status}` : ""}: ${answer.message}`;
  if (status === 429) {
    return { ok: false, split: false, retryable: true, status, error, retryAfterMs: retryAfterMs(answer.retryAfter) };
  }
  // Refused as a whole as invalid (strict validation): nothing was sent; one bad e-mail must not
  // hold back the others, so the caller splits the batch.
  const split = status === 400 || status === 422;
  return { ok: false, split, retryable: isRetryable(status, answer.name), status, error, code: answer.name };
}

export type ProviderAnswer =
  | { ok: true; status: number; body: Record<string, unknown> | null }
  | { ok: false; status: number | null; name: string; message: string; retryAfter: string | null };

/** How a request reaches the provider: `fetch`, or a local stand-in answering the same HTTP. */
export type ProviderFetch = (url: string, init: RequestInit) => Promise<Response>;

/** One POST {RESEND_BASE_URL}{path} (see requestProvider). */
function postProvider(
  config: MailConfig,
  path: "/emails" | "/emails/batch",
  payload: string,
  idempotencyKey: string | undefined,
): Promise<ProviderAnswer> {
  return requestProvider(config, "POST", path, payload, idempotencyKey);
}

/**
 * One request to {RESEND_BASE_URL}{path} (Resend's REST API, what its SDK sends): the API key as a
 * Bearer token, the Idempotency-Key if any, a JSON body if any. Answers JSON, or an error
 * `{ statusCode, name, message }`. Abandoned after RESEND_TIMEOUT_SECONDS (an unanswered request:
 * the provider may or may not have acted on it). Never throws: a network failure or a timeout has
 * no status. `fetcher`: the local stand-in instead of the network (the Domains API without a key).
 */
export async function requestProvider(
  config: MailConfig,
  method: "GET" | "POST" | "DELETE",
  path: string,
  payload: string | undefined,
  idempotencyKey: string | undefined,
  fetcher: ProviderFetch = fetch,
): Promise<ProviderAnswer> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${config.RESEND_API_KEY ?? ""}`,
    "User-Agent": "dunly-mail",
  };
  if (payload !== undefined) headers["Content-Type"] = "application/json";
  if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
  const timeoutMs = (config.RESEND_TIMEOUT_SECONDS ?? PROVIDER_TIMEOUT_SECONDS) * 1000;
  let response: Response;
  let body: string;
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    response = await fetcher(`${config.RESEND_BASE_URL.replace(/\/+$/, "")}${path}`, {
      method,
      headers,
      body: payload,
      signal,
    });
    body = await response.text();
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError" || (error as Error).name === "AbortError";
    return {
      ok: false,
      status: null,
      name: timedOut ? "timeout" : "network_error",
      message: timedOut
        ? `no answer within ${timeoutMs / 1000} s`
        : `the request could not be completed (${(error as Error).message})`,
      retryAfter: null,
    };
  }
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not JSON: the status says enough.
  }
  if (response.ok) return { ok: true, status: response.status, body: parsed };
  return {
    ok: false,
    status: response.status,
    name: typeof parsed?.name === "string" ? parsed.name : "application_error",
    message: typeof parsed?.message === "string" ? parsed.message : response.statusText || `HTTP ${response.status}`,
    retryAfter: response.headers.get("Retry-After"),
  };
}
