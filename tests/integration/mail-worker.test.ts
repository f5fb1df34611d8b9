import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ReminderMessage } from "../../emails/reminder-message";
import { PAID_URL, PORTAL_URL, reminderMessage, statementLine, UNSUBSCRIBE_URL } from "../support/email-fixtures";
import { FROM_ADDRESS, programResend, resendDelivered, resendRequests } from "./engine-helpers";
import { uniqueEmail } from "./helpers";

/**
 * The built mail Worker (dist/dunly_mail) over its RPC binding, against the fake Resend server
 *: what goes over the wire, escaping, header safety, and how errors come back.
 */

let keys = 0;
const uniqueKey = () => `mail-test-${Date.now()}-${++keys}-${Math.random().toString(36).slice(2, 8)}`;

/** A reminder to a fresh address. */
const message = (over: Partial<ReminderMessage> = {}) => reminderMessage(uniqueEmail("payer"), over);

/** Resend's 409 answer named `name`. */
const conflict = (name: string, message: string) => ({ status: 409, body: { statusCode: 409, name, message } });

describe("MailWorker.sendReminder", () => {
  it("sends the rendered reminder to Resend: from, to, reply_to, subject, html and text, with the API key and the Idempotency-Key", async () => {
    const m = message();
    const key = uniqueKey();
    const result = await env.MAILER.sendReminder(m, key);
    expect(result).toMatchObject({ ok: true, via: "resend", attempts: 1 });

    const requests = await resendRequests(m.to);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req!.authorization).toBe("Bearer re_test_key");
    expect(req!.idempotencyKey).toBe(key);
    expect(req!.body).toMatchObject({
      from: `"Sally Sender" <${FROM_ADDRESS}>`,
      to: [m.to],
      reply_to: "sally@example.com",
      subject: "Friendly reminder: payment of €50.00",
    });
    const html = String(req!.body.html);
    const text = String(req!.body.text);
    expect(html).toMatch(/^<!DOCTYPE html/i);
    expect(html).toContain("Hi Pat Payer,");
    expect(html).toContain("€50.00");
    expect(html).toContain("Mar 5, 2027");
    expect(html).toContain("mailto:sally@example.com");
    expect(text).toContain("Hi Pat Payer,");
    expect(text).toContain("€50.00");
    // No markup; the opt-out, "I've paid" and statement URLs are shown in angle brackets (RFC 3986, appendix C).
    expect(text).toContain(`I've paid <${PAID_URL}>`);
    expect(text).toContain(`View your statement / respond <${PORTAL_URL}>`);
    expect(
      text.replace(`<${UNSUBSCRIBE_URL}>`, "").replace(`<${PAID_URL}>`, "").replace(`<${PORTAL_URL}>`, ""),
    ).not.toMatch(/<\/?[a-z][^>]*>/i);

    const delivered = await resendDelivered(m.to);
    expect(delivered).toHaveLength(1);
    expect(result.ok && result.id).toBe(delivered[0]!.id);
  });

  it("carries 'Pay now' (when given), the invoice number and the \"I've paid\" link, in the HTML and the text", async () => {
    const payUrl = "https://pay.example.com/sally";
    const m = message({ payUrl, statement: [statementLine({ number: "INV-3" })] });
    expect(await env.MAILER.sendReminder(m, uniqueKey())).toMatchObject({ ok: true, via: "resend" });
    const [req] = await resendRequests(m.to);
    const html = String(req!.body.html);
    const text = String(req!.body.text);
    expect(req!.body.subject).toBe("Friendly reminder: invoice INV-3 for €50.00");
    expect(html).toMatch(/<a [^>]*href="https:\/\/pay\.example\.com\/sally"[^>]*>[\s\S]*?Pay now[\s\S]*?<\/a>/);
    expect(html).toMatch(/<a [^>]*href="https:\/\/dunly\.test\/p\/0123456789abcdef[^"]*"[^>]*>I&#x27;ve paid<\/a>/);
    expect(text).toContain(`Pay now <${payUrl}>`);
    expect(text).toMatch(/INV-3 +Mar 5, 2027 +€50\.00 +4 days overdue/);
    expect(text).toContain(`I've paid <${PAID_URL}>`);

    const none = message();
    await env.MAILER.sendReminder(none, uniqueKey());
    const [plain] = await resendRequests(none.to);
    expect(String(plain!.body.html)).not.toContain("Pay now");
    expect(String(plain!.body.text)).toContain(`I've paid <${PAID_URL}>`);
  });

  it("carries the opt-out link: List-Unsubscribe and one-click List-Unsubscribe-Post headers, and 'Stop them here' in the HTML and the text", async () => {
    const m = message();
    expect(await env.MAILER.sendReminder(m, uniqueKey())).toMatchObject({ ok: true, via: "resend" });
    const [req] = await resendRequests(m.to);
    expect(req!.body.headers).toEqual({
      "List-Unsubscribe": `<${UNSUBSCRIBE_URL}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    const html = String(req!.body.html);
    expect(html).toMatch(/<a [^>]*href="https:\/\/dunly\.test\/u\/0123456789abcdef[^"]*"[^>]*>Stop them here<\/a>/);
    expect(html).toContain("Don&#x27;t want these reminders?");
    expect(String(req!.body.text)).toContain(`Don't want these reminders? Stop them here <${UNSUBSCRIBE_URL}>.`);
  });

  it.each([
    ["no opt-out link", undefined, /missing/],
    ["an empty opt-out link", "", /missing/],
    ["an opt-out link with CR/LF", `${UNSUBSCRIBE_URL}\r\nBcc: victim@example.com`, /line breaks/],
    ["a non-http opt-out link", "javascript:alert(1)", /absolute http/],
  ])("%s: refused, not retried, and nothing is sent", async (_what, unsubscribeUrl, error) => {
    const m = message({ unsubscribeUrl: unsubscribeUrl as string });
    const result = await env.MAILER.sendReminder(m, uniqueKey());
    expect(result).toMatchObject({ ok: false, retryable: false, attempts: 0 });
    expect(result.ok === false && result.error).toMatch(error);
    expect(await resendRequests(m.to)).toEqual([]);
  });

  it("the same key twice: the provider sends one e-mail and both calls get its id", async () => {
    const m = message();
    const key = uniqueKey();
    const a = await env.MAILER.sendReminder(m, key);
    const b = await env.MAILER.sendReminder(m, key);
    expect(a.ok && b.ok).toBe(true);
    expect(a.ok && a.id).toBe(b.ok && b.id);
    expect((await resendRequests(m.to)).map((r) => r.idempotencyKey)).toEqual([key, key]);
    expect(await resendDelivered(m.to)).toHaveLength(1);
  });

  it("HTML-escapes the debtor's name and the sender's name", async () => {
    const m = message({ receiverName: 'Bob <b>&"', senderName: "Eve <i>Sender</i>" });
    const result = await env.MAILER.sendReminder(m, uniqueKey());
    expect(result.ok).toBe(true);
    const [req] = await resendRequests(m.to);
    const html = String(req!.body.html);
    expect(html).toContain("Bob &lt;b&gt;&amp;&quot;");
    expect(html).not.toContain("<b>");
    expect(html).toContain("Eve &lt;i&gt;Sender&lt;/i&gt;");
    expect(html).not.toContain("<i>");
    // The plain text part shows the name as written.
    expect(String(req!.body.text)).toContain('Bob <b>&"');
  });

  it.each([
    ["CR/LF", "Sally\r\nBcc: victim@example.com"],
    ["LF", "Sally\nBcc: victim@example.com"],
  ])("a sender name with %s is refused, not retried, and nothing is sent", async (_what, senderName) => {
    const m = message({ senderName });
    const result = await env.MAILER.sendReminder(m, uniqueKey());
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(result.ok === false && result.error).toMatch(/line breaks/);
    expect(await resendRequests(m.to)).toEqual([]);
  });

  it("a recipient with a line break is refused and nothing is sent", async () => {
    const to = uniqueEmail("payer");
    const result = await env.MAILER.sendReminder(message({ to: `${to}\r\nBcc: x@example.com` }), uniqueKey());
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(await resendRequests(to)).toEqual([]);
  });

  it("422: not retryable, the status and the provider's message come back, one attempt", async () => {
    const m = message();
    await programResend(m.to, [
      { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `from` field." } },
    ]);
    const result = await env.MAILER.sendReminder(m, uniqueKey());
    expect(result).toMatchObject({ ok: false, retryable: false, status: 422, attempts: 1 });
    expect(result.ok === false && result.error).toContain("Invalid `from` field.");
    expect((await resendRequests(m.to)).map((r) => r.status)).toEqual([422]);
    expect(await resendDelivered(m.to)).toEqual([]);
  });

  it("500, 500, 500: retryable after three attempts with backoff, all under the same key", async () => {
    const m = message();
    const key = uniqueKey();
    await programResend(m.to, [500, 500, 500]);
    const result = await env.MAILER.sendReminder(m, key);
    expect(result).toMatchObject({ ok: false, retryable: true, status: 500, attempts: 3 });
    const requests = await resendRequests(m.to);
    expect(requests.map((r) => [r.status, r.idempotencyKey])).toEqual([
      [500, key],
      [500, key],
      [500, key],
    ]);
    // 250 ms, then 1000 ms between the attempts.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(200);
    expect(requests[2]!.at - requests[1]!.at).toBeGreaterThanOrEqual(900);
    expect(await resendDelivered(m.to)).toEqual([]);
  });

  it("503 then 200: sent on the second attempt under the same key", async () => {
    const m = message();
    const key = uniqueKey();
    await programResend(m.to, [503]);
    const result = await env.MAILER.sendReminder(m, key);
    expect(result).toMatchObject({ ok: true, attempts: 2 });
    expect((await resendRequests(m.to)).map((r) => [r.status, r.idempotencyKey])).toEqual([
      [503, key],
      [200, key],
    ]);
    expect(await resendDelivered(m.to)).toHaveLength(1);
  });

  it("429: comes back at once, retryable, with the provider's Retry-After as retryAfterMs; no retry inside the call", async () => {
    const m = message();
    const key = uniqueKey();
    await programResend(m.to, [
      {
        status: 429,
        headers: { "retry-after": "2" },
        body: { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests" },
      },
      { status: 429 },
    ]);
    expect(await env.MAILER.sendReminder(m, key)).toEqual({
      ok: false,
      retryable: true,
      status: 429,
      error: "Resend 429: Too many requests",
      attempts: 1,
      retryAfterMs: 2000,
    });
    // Without Retry-After: a second.
    expect(await env.MAILER.sendReminder(m, key)).toMatchObject({ status: 429, attempts: 1, retryAfterMs: 1000 });
    expect((await resendRequests(m.to)).map((r) => [r.status, r.idempotencyKey])).toEqual([
      [429, key],
      [429, key],
    ]);
    expect(await resendDelivered(m.to)).toEqual([]);
  });

  it("409 for a request with the same key still in progress is retried; 409 for a changed payload means the key's e-mail went: sent, replayed, not retried", async () => {
    const busy = message();
    await programResend(busy.to, [
      conflict(
        "concurrent_idempotent_requests",
        "Same idempotency key used while original request is still in progress.",
      ),
    ]);
    expect(await env.MAILER.sendReminder(busy, uniqueKey())).toMatchObject({ ok: true, attempts: 2 });
    expect(await resendDelivered(busy.to)).toHaveLength(1);

    const changed = message();
    await programResend(changed.to, [
      conflict("invalid_idempotent_request", "Same idempotency key used with a different request payload."),
    ]);
    expect(await env.MAILER.sendReminder(changed, uniqueKey())).toMatchObject({
      ok: true,
      id: null,
      replayed: true,
      attempts: 1,
    });
    expect(await resendRequests(changed.to)).toHaveLength(1);
  });

  it("an unknown template is refused without calling the provider", async () => {
    const m = message({ template: "no-such-template" as ReminderMessage["template"] });
    const result = await env.MAILER.sendReminder(m, uniqueKey());
    expect(result).toMatchObject({ ok: false, retryable: false });
    expect(await resendRequests(m.to)).toEqual([]);
  });
});

describe("MailWorker.renderReminderPreview", () => {
  it("renders the reminder's subject, HTML and text, as sendReminder would, and sends nothing", async () => {
    const m = message({ statement: [statementLine({ number: "INV-7" })] });
    const preview = await env.MAILER.renderReminderPreview(m);
    expect(preview.subject).toBe("Friendly reminder: invoice INV-7 for €50.00");
    expect(preview.html).toMatch(/^<!DOCTYPE html PUBLIC/);
    expect(preview.html).toContain("Hi Pat Payer,");
    expect(preview.text).toContain("€50.00");
    expect(preview.text).toContain(`I've paid <${PAID_URL}>`);
    expect(await resendRequests(m.to)).toEqual([]);

    await env.MAILER.sendReminder(m, uniqueKey());
    const [sent] = await resendRequests(m.to);
    expect(sent!.body).toMatchObject({ subject: preview.subject, html: preview.html, text: preview.text });
  });
});
