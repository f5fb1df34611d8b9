import { Resend } from "resend";
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
  | { ok: false; retryable: boolean; status: number | null; error: string; attempts: number };

/** Backoff between attempts inside one send; each retry uses the same Idempotency-Key. */
const RETRY_DELAYS_MS = [250, 1000] as const;

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
 * Never throws: the caller gets a result it can record. Retryable provider errors are retried
 * with backoff under the same Idempotency-Key, so the provider sends at most one e-mail.
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

  const resend = new Resend(config.RESEND_API_KEY, { baseUrl: config.RESEND_BASE_URL });
  const payload = {
    from,
    to: [message.to],
    replyTo: message.replyTo ?? undefined,
    subject: message.subject,
    html: message.html,
    text: message.text,
    headers: message.headers && Object.keys(message.headers).length > 0 ? message.headers : undefined,
  };
  let attempts = 0;
  for (;;) {
    attempts += 1;
    // The SDK never throws; it returns { data, error } (network failures have statusCode null).
    const { data, error } = await resend.emails.send(payload, idempotencyKey ? { idempotencyKey } : undefined);
    if (!error) return { ok: true, id: data?.id ?? null, via: "resend", attempts };
    const status =
      typeof (error as { statusCode?: unknown }).statusCode === "number"
        ? (error as { statusCode: number }).statusCode
        : null;
    const retryable = isRetryable(status, error.name);
    const delay = RETRY_DELAYS_MS[attempts - 1];
    if (!retryable || delay === undefined) {
      return { ok: false, retryable, status, error: `Resend${status ? ` ${status}` : ""}: ${error.message}`, attempts };
    }
    await sleep(delay);
  }
}
