import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import type { ReminderMessage } from "../../emails/reminder-message";
import { mail } from "./client.server";

/** An env whose mail Worker binding rejects every call, as an unreachable or crashing Worker does. */
function throwingEnv(): Env {
  const boom = () => Promise.reject(new Error("connection reset"));
  const mailer = new Proxy({}, { get: () => boom });
  return { MAILER: mailer } as unknown as Env;
}

/** An env whose mail Worker answers every call with `answer`. */
function answeringEnv(answer: unknown): Env {
  const mailer = new Proxy({}, { get: () => () => Promise.resolve(answer) });
  return { MAILER: mailer } as unknown as Env;
}

const notice = {
  to: "user@example.com",
  kind: "paid_claimed",
  debtorName: "Ada",
  debtorEmail: "ada@example.com",
  detail: "",
  debtorUrl: "https://dunly.example/debtors/1",
  settingsUrl: "https://dunly.example/iam/info",
} as const;

describe("the mail client's failure policy", () => {
  let logged: MockInstance<typeof console.error>;
  beforeEach(() => {
    logged = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    logged.mockRestore();
  });

  it("turns a binding that throws into a retryable failure, logged once with the kind and key", async () => {
    const result = await mail.notice(throwingEnv(), notice, "paid_claimed:7");
    expect(result).toEqual({
      ok: false,
      retryable: true,
      status: null,
      error: "Mail Worker: connection reset",
      attempts: 0,
    });
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]?.[0])).toContain(
      "notice paid_claimed:7 not sent: Mail Worker: connection reset",
    );
  });

  it("never throws, whatever the kind of mail", async () => {
    const env = throwingEnv();
    const results = await Promise.all([
      mail.signInLink(env, { to: "a@example.com", url: "https://dunly.example/auth/verify", expiresInMinutes: 15 }),
      mail.passwordChanged(env, { to: "a@example.com", changedAt: "now", signedOut: 0, signInUrl: "/" }, "u1"),
      mail.digest(env, { to: "a@example.com", day: "2026-01-01", items: [], total: 0, settingsUrl: "/" }, "d"),
      mail.reminder(env, {} as ReminderMessage, "occurrence"),
    ]);
    for (const result of results) expect(result).toMatchObject({ ok: false, retryable: true, status: null });
    expect(logged).toHaveBeenCalledTimes(results.length);
  });

  it("a batch whose call throws is an unanswered request: retryable, not split", async () => {
    const result = await mail.reminders(throwingEnv(), [{ message: {} as ReminderMessage, key: "k1" }], "batch:1");
    expect(result).toEqual({
      ok: false,
      split: false,
      retryable: true,
      status: null,
      error: "Mail Worker: connection reset",
    });
  });

  it("passes the mail Worker's own answer on as it is, and logs a failure but not a 429", async () => {
    const refused = { ok: false, retryable: false, status: 422, error: "Invalid to", attempts: 1 };
    expect(await mail.receipt(answeringEnv(refused), {} as never, "receipt:pi_1")).toEqual(refused);
    expect(String(logged.mock.calls[0]?.[0])).toContain("receipt receipt:pi_1 not sent: Invalid to");
    const limited = { ok: false, retryable: true, status: 429, error: "Too many", attempts: 1, retryAfterMs: 1000 };
    expect(await mail.reminder(answeringEnv(limited), {} as ReminderMessage, "k")).toEqual(limited);
    const sent = { ok: true, id: "re_1", via: "resend", attempts: 1 };
    expect(await mail.replyCopy(answeringEnv(sent), {} as never, "reply:1")).toEqual(sent);
    expect(logged).toHaveBeenCalledTimes(1);
  });

  it("a preview that cannot be rendered is a failure, not an exception", async () => {
    const props = { template: "initial", tone: 1 } as never;
    expect(await mail.renderReminderPreview(throwingEnv(), props)).toMatchObject({ ok: false });
    const rendered = { subject: "s", html: "<p>h</p>", text: "h" };
    expect(await mail.renderReminderPreview(answeringEnv(rendered), props)).toEqual({ ok: true, ...rendered });
  });
});
