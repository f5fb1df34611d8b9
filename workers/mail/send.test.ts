import { afterEach, describe, expect, it, vi } from "vitest";
import { readMailConfig } from "./config";
import {
  deliver,
  deliverBatch,
  RESEND_API_KEY_MISSING,
  RETRY_AFTER_DEFAULT_MS,
  RETRY_AFTER_MAX_MS,
  retryAfterMs,
  unsubscribeHeaders,
} from "./send";

/** A D1 stand-in that records every statement, so a test sees whether the dev outbox was written. */
function recordingDb() {
  const statements: { sql: string; params: unknown[] }[] = [];
  const db = {
    prepare(sql: string) {
      return {
        bind(...params: unknown[]) {
          return {
            async run() {
              statements.push({ sql, params });
              return { success: true };
            },
          };
        },
      };
    },
  };
  return { db: db as unknown as D1Database, statements };
}

const message = {
  to: "payer@example.com",
  fromName: "Sally Sender",
  replyTo: "sally@example.com",
  subject: "Friendly reminder",
  html: "<p>Hi</p>",
  text: "Hi",
};

/** Production with no RESEND_API_KEY secret set; the provider URL points nowhere, so nothing can leave. */
const production = {
  APP_ENV: "production",
  MAIL_FROM_ADDRESS: "reminders@dunly.app",
  RESEND_BASE_URL: "http://127.0.0.1:9",
};

describe("deliver without RESEND_API_KEY", () => {
  it("fails in production, not retryable, with the reason, and writes nothing to the dev outbox", async () => {
    const { db, statements } = recordingDb();
    const result = await deliver(db, readMailConfig(production), message, "key-1");
    expect(result).toEqual({ ok: false, retryable: false, status: null, error: RESEND_API_KEY_MISSING, attempts: 0 });
    expect(RESEND_API_KEY_MISSING).toBe("RESEND_API_KEY is not set: e-mail cannot be sent in production");
    expect(statements).toEqual([]);
  });

  it("treats an empty key as missing in production", async () => {
    const { db, statements } = recordingDb();
    const result = await deliver(db, readMailConfig({ ...production, RESEND_API_KEY: "" }), message, "key-2");
    expect(result).toMatchObject({ ok: false, error: RESEND_API_KEY_MISSING });
    expect(statements).toEqual([]);
  });

  it.each(["development", "test"])("stores the message in the dev outbox in %s", async (appEnv) => {
    const { db, statements } = recordingDb();
    const result = await deliver(db, readMailConfig({ ...production, APP_ENV: appEnv }), message, "key-3");
    expect(result).toEqual({ ok: true, id: null, via: "outbox", attempts: 1 });
    expect(statements).toHaveLength(1);
    expect(statements[0]!.sql).toMatch(/^INSERT OR IGNORE INTO dev_outbox/);
    expect(statements[0]!.params.slice(0, 3)).toEqual([
      "key-3",
      "payer@example.com",
      '"Sally Sender" <reminders@dunly.app>',
    ]);
  });
});

describe("unsubscribeHeaders", () => {
  it("makes List-Unsubscribe and the RFC 8058 one-click List-Unsubscribe-Post from the opt-out URL", () => {
    expect(unsubscribeHeaders("https://dunly.app/u/abc.def")).toEqual({
      ok: true,
      headers: {
        "List-Unsubscribe": "<https://dunly.app/u/abc.def>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    });
  });

  it.each([
    [undefined, /missing/],
    ["", /missing/],
    ["https://dunly.app/u/abc\r\nBcc: x@example.com", /line breaks/],
    ["https://dunly.app/u/abc\n", /line breaks/],
    ["javascript:alert(1)", /absolute http/],
    ["/u/abc.def", /absolute http/],
    ["https://dunly.app/u/a>b", /absolute http/],
    ["https://dunly.app/u/a b", /absolute http/],
  ])("refuses %j", (url, error) => {
    const result = unsubscribeHeaders(url);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(error);
  });
});

describe("deliver with extra headers", () => {
  const test = { ...production, APP_ENV: "test" };

  it.each([
    ["a value with CR/LF", { "List-Unsubscribe": "<https://x.test/u/a>\r\nBcc: victim@example.com" }],
    ["a name that is no header name", { "List-Unsubscribe: x\r\nBcc": "y" }],
  ])("refuses %s, not retryable, and writes nothing", async (_what, headers) => {
    const { db, statements } = recordingDb();
    const result = await deliver(db, readMailConfig(test), { ...message, headers }, "key-4");
    expect(result).toMatchObject({ ok: false, retryable: false, attempts: 0 });
    expect(statements).toEqual([]);
  });

  it("accepts one-line headers (the dev outbox keeps the message; the headers go to Resend only)", async () => {
    const { db, statements } = recordingDb();
    const headers = unsubscribeHeaders("https://dunly.app/u/abc.def");
    expect(headers.ok).toBe(true);
    const result = await deliver(db, readMailConfig(test), { ...message, headers: headers.ok ? headers.headers : {} });
    expect(result).toEqual({ ok: true, id: null, via: "outbox", attempts: 1 });
    expect(statements).toHaveLength(1);
  });
});

describe("retryAfterMs", () => {
  const now = Date.UTC(2026, 10, 22, 10, 0, 0);

  it.each([
    ["2", 2000],
    [" 3 ", 3000],
    ["0", 0],
    ["1.5", 1500],
    ["7200", RETRY_AFTER_MAX_MS],
    [new Date(now + 5000).toUTCString(), 5000],
    [new Date(now - 60_000).toUTCString(), 0],
    [new Date(now + 2 * 60 * 60 * 1000).toUTCString(), RETRY_AFTER_MAX_MS],
    ["Sunday, 22-Nov-26 10:00:30 GMT", 30_000],
  ])("reads %j as %i ms", (value, expected) => {
    expect(retryAfterMs(value, now)).toBe(expected);
  });

  it.each([null, undefined, "", "soon", "-1", "1e3", "2 seconds", "12:00"])("falls back to 1 s for %j", (value) => {
    expect(retryAfterMs(value, now)).toBe(RETRY_AFTER_DEFAULT_MS);
    expect(RETRY_AFTER_DEFAULT_MS).toBe(1000);
  });

  it("clamps to one hour", () => {
    expect(RETRY_AFTER_MAX_MS).toBe(60 * 60 * 1000);
  });
});

describe("deliver through Resend's REST API", () => {
  const withKey = readMailConfig({
    ...production,
    RESEND_API_KEY: "re_unit_key",
    RESEND_BASE_URL: "https://resend.test/",
  });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

  /** A fetch that answers from a list and records every request. */
  function stubFetch(...answers: (Response | Error)[]) {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), init: init ?? {} });
      const next = answers.shift();
      if (!next) throw new Error("no more answers");
      if (next instanceof Error) throw next;
      return next;
    });
    vi.stubGlobal("fetch", fetch);
    return calls;
  }

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("POSTs the message as Resend's JSON with the Bearer key and the Idempotency-Key, and returns its id", async () => {
    const calls = stubFetch(json(200, { id: "re_123" }));
    const { db, statements } = recordingDb();
    const headers = { "List-Unsubscribe": "<https://dunly.app/u/a>" };
    const result = await deliver(db, withKey, { ...message, headers }, "occ-1");
    expect(result).toEqual({ ok: true, id: "re_123", via: "resend", attempts: 1 });
    expect(statements).toEqual([]);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.url).toBe("https://resend.test/emails");
    expect(call!.init.method).toBe("POST");
    expect(call!.init.headers).toMatchObject({
      Authorization: "Bearer re_unit_key",
      "Content-Type": "application/json",
      "Idempotency-Key": "occ-1",
    });
    expect(JSON.parse(String(call!.init.body))).toEqual({
      from: '"Sally Sender" <reminders@dunly.app>',
      to: ["payer@example.com"],
      reply_to: "sally@example.com",
      subject: "Friendly reminder",
      html: "<p>Hi</p>",
      text: "Hi",
      headers,
    });
  });

  it("sends no Idempotency-Key, reply_to or headers when there are none", async () => {
    const calls = stubFetch(json(200, { id: "re_124" }));
    await deliver(recordingDb().db, withKey, { ...message, replyTo: null });
    expect(calls[0]!.init.headers).not.toHaveProperty("Idempotency-Key");
    expect(JSON.parse(String(calls[0]!.init.body))).not.toHaveProperty("reply_to");
    expect(JSON.parse(String(calls[0]!.init.body))).not.toHaveProperty("headers");
  });

  it("429: returns at once, retryable, with the provider's Retry-After, and does not retry", async () => {
    const calls = stubFetch(
      json(429, { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests" }, { "Retry-After": "2" }),
    );
    const result = await deliver(recordingDb().db, withKey, message, "occ-2");
    expect(result).toEqual({
      ok: false,
      retryable: true,
      status: 429,
      error: "Resend 429: Too many requests",
      attempts: 1,
      retryAfterMs: 2000,
    });
    expect(calls).toHaveLength(1);
  });

  it("429 without Retry-After: 1 s", async () => {
    stubFetch(json(429, { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests" }));
    expect(await deliver(recordingDb().db, withKey, message, "occ-3")).toMatchObject({
      status: 429,
      retryAfterMs: 1000,
      attempts: 1,
    });
  });

  it("503 then 200: retried within the call under the same key", async () => {
    const calls = stubFetch(new Response("Service Unavailable", { status: 503 }), json(200, { id: "re_125" }));
    const result = await deliver(recordingDb().db, withKey, message, "occ-4");
    expect(result).toEqual({ ok: true, id: "re_125", via: "resend", attempts: 2 });
    expect(calls.map((c) => (c.init.headers as Record<string, string>)["Idempotency-Key"])).toEqual(["occ-4", "occ-4"]);
  });

  it("422: not retryable, the provider's message, one attempt, no retryAfterMs", async () => {
    const calls = stubFetch(json(422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field." }));
    const result = await deliver(recordingDb().db, withKey, message, "occ-5");
    expect(result).toEqual({
      ok: false,
      retryable: false,
      status: 422,
      error: "Resend 422: Invalid `to` field.",
      attempts: 1,
    });
    expect(calls).toHaveLength(1);
  });

  it("network errors: retried twice, then retryable without a status", async () => {
    vi.useFakeTimers();
    try {
      const calls = stubFetch(
        new TypeError("fetch failed"),
        new TypeError("fetch failed"),
        new TypeError("fetch failed"),
      );
      const pending = deliver(recordingDb().db, withKey, message, "occ-6");
      await vi.runAllTimersAsync();
      const result = await pending;
      expect(result).toMatchObject({ ok: false, retryable: true, status: null, attempts: 3 });
      expect(!result.ok && result.error).toMatch(/^Resend: .*fetch failed/);
      expect(result).not.toHaveProperty("retryAfterMs");
      expect(calls).toHaveLength(3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("deliverBatch", () => {
  const withKey = readMailConfig({ ...production, RESEND_API_KEY: "re_test", RESEND_TIMEOUT_SECONDS: "0.2" });
  const items = [
    { message, key: "s1:1" },
    { message: { ...message, to: "other@example.com" }, key: "s2:1" },
  ];
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("one POST /emails/batch of every e-mail under the batch's key; the ids come back in order", async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ data: [{ id: "a" }, { id: "b" }] }), { status: 200 }),
    );
    vi.stubGlobal("fetch", fetchMock);
    const result = await deliverBatch(recordingDb().db, withKey, items, "batch-k");
    expect(result).toEqual({ ok: true, ids: ["a", "b"], via: "resend" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("http://127.0.0.1:9/emails/batch");
    expect((init.headers as Record<string, string>)["Idempotency-Key"]).toBe("batch-k");
    expect(JSON.parse(String(init.body)).map((e: { to: string[] }) => e.to[0])).toEqual([
      "payer@example.com",
      "other@example.com",
    ]);
  });

  it("a 422 refuses the batch as a whole: split, not retryable; a 429 carries its Retry-After; a 500 is retryable", async () => {
    const answer = (status: number, headers: Record<string, string> = {}) =>
      vi.stubGlobal(
        "fetch",
        vi.fn(async () => new Response(JSON.stringify({ name: "x", message: "m" }), { status, headers })),
      );
    answer(422);
    expect(await deliverBatch(recordingDb().db, withKey, items, "k")).toMatchObject({
      ok: false,
      split: true,
      retryable: false,
      status: 422,
    });
    answer(429, { "Retry-After": "3" });
    expect(await deliverBatch(recordingDb().db, withKey, items, "k")).toMatchObject({
      split: false,
      retryable: true,
      status: 429,
      retryAfterMs: 3000,
    });
    answer(500);
    expect(await deliverBatch(recordingDb().db, withKey, items, "k")).toMatchObject({
      split: false,
      retryable: true,
      status: 500,
    });
  });

  it("no answer within RESEND_TIMEOUT_SECONDS: unanswered (no status), retryable, never thrown", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason))),
      ),
    );
    const started = Date.now();
    const result = await deliverBatch(recordingDb().db, withKey, items, "k");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result).toEqual({
      ok: false,
      split: false,
      retryable: true,
      status: null,
      error: "Resend: no answer within 0.2 s",
      code: "timeout",
    });
  });

  it("an e-mail that is not header-safe is reported by its index and nothing is sent", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    const bad = [items[0]!, { message: { ...message, subject: "a\r\nBcc: x@example.com" }, key: "s3:1" }];
    const result = await deliverBatch(recordingDb().db, withKey, bad, "k");
    expect(result).toMatchObject({ ok: false, invalid: [{ index: 1 }] });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
