import { describe, expect, it } from "vitest";
import { readMailConfig } from "./config";
import { deliver, RESEND_API_KEY_MISSING, unsubscribeHeaders } from "./send";

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
