import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { STANDIN_WEBHOOK_KEY, xeroSignature } from "~/accounting/index.server";
import { getDb } from "~/db/client.server";
import { replyAddress } from "~/links/signed-links.server";
import { accountCaps, readConfig } from "~/platform/config.server";
import { receiveReply } from "~/responses/replies.server";
import { STANDIN_AUTH_TOKEN, sendText, textsAvailable, twilioSignature } from "~/texts/index.server";
import { fireAt, MINUTE } from "../integration/engine-helpers";
import { deliveriesOf, makeDebtor, makeSchedule, makeSignedInUser, makeUser } from "../integration/fixtures";
import {
  get,
  location,
  ORIGIN,
  pageText,
  postForm,
  request,
  sessionCookieName,
  uniqueEmail,
} from "../integration/helpers";
import { PAID_URL, reminderMessage, statementLine, UNSUBSCRIBE_URL } from "../support/email-fixtures";

/**
 * The built Workers with the committed configuration, the one `wrangler deploy` reads (vitest.config.ts,
 * project "production"): only the secrets a deployment sets are added, and RESEND_API_KEY is not.
 * Production fails closed (docs/decisions/006): no dev mailbox, no dev outbox, visible failures.
 */

const NO_KEY = "RESEND_API_KEY is not set: e-mail cannot be sent in production";
const SIGN_IN_FAILED = "We could not send the sign-in e-mail. Please try again.";

async function outboxCount() {
  return (await env.DB.prepare("SELECT count(*) AS n FROM dev_outbox").first<{ n: number }>())!.n;
}

/** A reminder with this site's links (the committed APP_ORIGIN's host). */
const reminder = () =>
  reminderMessage(uniqueEmail("payer"), {
    statement: [statementLine({ currency: "USD" })],
    unsubscribeUrl: UNSUBSCRIBE_URL.replace("dunly.test", "dunly.app"),
    paidUrl: PAID_URL.replace("dunly.test", "dunly.app"),
  });

describe("the committed configuration is production", () => {
  it("sets APP_ENV production and an APP_ORIGIN", () => {
    expect(env.APP_ENV).toBe("production");
    expect(env.APP_ORIGIN).toMatch(/^https:\/\//);
  });

  it("sets the per-account caps, and the app reads them: 2,000 debtors, 50 organizations, 2,000 live schedules", () => {
    const vars = [env.ACCOUNT_MAX_DEBTORS, env.ACCOUNT_MAX_ORGANIZATIONS, env.ACCOUNT_MAX_SCHEDULES];
    expect(vars).toEqual(["2000", "50", "2000"]);
    expect(accountCaps(readConfig(env))).toEqual({ debtors: 2000, organizations: 50, schedules: 2000 });
  });

  it("has no Resend webhook without RESEND_WEBHOOK_SECRET: POST /webhooks/resend answers 404", async () => {
    expect(Reflect.get(env, "RESEND_WEBHOOK_SECRET") ?? "").toBe("");
    const res = await postForm("/webhooks/resend", {}, { originHeader: null });
    expect(res.status).toBe(404);
  });

  it("has no Xero webhook without XERO_WEBHOOK_KEY: POST /webhooks/xero answers 404, the stand-in's key included", async () => {
    expect(Reflect.get(env, "XERO_WEBHOOK_KEY") ?? "").toBe("");
    const body = '{"events":[],"lastEventSequence":0,"firstEventSequence":0,"entropy":"S0m3r4Nd0mt3xt"}';
    const res = await request("/webhooks/xero", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "x-xero-signature": await xeroSignature(body, STANDIN_WEBHOOK_KEY),
      },
      body,
    });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("");
  });

  it("texts fail closed without Twilio (decisions/068): the channel off, no send, no webhooks, no dev outbox", async () => {
    const config = readConfig(env);
    expect(config.TWILIO_ACCOUNT_SID).toBeUndefined();
    expect(textsAvailable(config)).toBe(false);
    const user = await makeUser();
    const key = `prod-text:${crypto.randomUUID()}`;
    const result = await sendText(env, config, {
      ownerId: user.id,
      to: "+447700900123",
      body: "Hello",
      idempotencyKey: key,
    });
    expect(result).toMatchObject({ ok: false, retryable: false, reason: "off" });
    expect(result.ok ? "" : result.error).toContain("TWILIO_ACCOUNT_SID");
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM text_messages WHERE idempotency_key = ?")
      .bind(key)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
    for (const endpoint of ["status", "inbound"]) {
      const params: [string, string][] = [
        ["MessageSid", "SM00000000000000000000000000000000"],
        ["From", "+447700900123"],
        ["Body", "STOP"],
      ];
      const signature = await twilioSignature(
        STANDIN_AUTH_TOKEN,
        `https://dunly.app/webhooks/twilio/${endpoint}`,
        params,
      );
      const res = await request(`/webhooks/twilio/${endpoint}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
        body: new URLSearchParams(params).toString(),
      });
      expect(res.status).toBe(404);
    }
    expect((await get("/dev/texts")).status).toBe(404);
  });

  it("Settings offers no text messages without Twilio: /iam/texts says so, saves nothing, the cadence has no channel", async () => {
    const user = await makeSignedInUser();
    const cookie = `${sessionCookieName()}=${user.token}`;
    const page = await get("/iam/texts", { cookie });
    expect(page.status).toBe(200);
    const html = await pageText(page);
    expect(html).toContain("Text messages are not available yet: every reminder goes by e-mail.");
    expect(html).not.toContain("Send text messages");
    expect(html).not.toContain("Your text message");
    for (const fields of [
      { intent: "texts-save", enabled: "on", countries: "GB" } as Record<string, string>,
      { intent: "text-template-save", body: "{amount} {status} {link}" },
    ]) {
      expect((await postForm("/iam/texts", fields, { cookie })).status).toBe(503);
    }
    const settings = await env.DB.prepare("SELECT count(*) AS n FROM text_settings WHERE owner_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(settings?.n).toBe(0);

    const cadence = await pageText(await get("/iam/cadence", { cookie }));
    expect(cadence).toContain("The e-mail at each step");
    expect(cadence).not.toContain("voice_channel_");
    expect(cadence).not.toContain("text messages are off");
    // A channel posted anyway is not kept: every step is the e-mail.
    const saved = await postForm(
      "/iam/cadence",
      { intent: "cadence-save", cadence_steps: "0, 7", send_hour: "10", after_last: "end", voice_channel_7: "text" },
      { cookie },
    );
    expect(saved.status).toBe(200);
    const stored = await env.DB.prepare("SELECT cadence_voices FROM account_cadences WHERE owner_id = ?")
      .bind(user.id)
      .first<{ cadence_voices: string | null }>();
    expect(stored?.cadence_voices ?? null).toBeNull();
  });

  it("QuickBooks fails closed without its client id: no webhook, no stand-in, no connect (decisions/061)", async () => {
    expect(Reflect.get(env, "QUICKBOOKS_CLIENT_ID") ?? "").toBe("");
    const hook = await request("/webhooks/quickbooks", {
      method: "POST",
      headers: { "Content-Type": "application/json", "intuit-signature": "x" },
      body: "{}",
    });
    expect(hook.status).toBe(404);
    expect((await get("/dev/quickbooks")).status).toBe(404);
    expect((await get("/dev/quickbooks/authorize")).status).toBe(404);
    const user = await makeSignedInUser();
    const cookie = `${sessionCookieName()}=${user.token}`;
    expect((await postForm("/iam/accounting/quickbooks/connect", {}, { cookie })).status).toBe(404);
    expect((await get("/iam/accounting/quickbooks/callback?code=c&state=s&realmId=1", { cookie })).status).toBe(404);
    expect(await pageText(await get("/iam/accounting", { cookie }))).toContain("QuickBooks is not available");
  });

  it.each(["/dev/mailbox", "/dev/mailbox.json"])("answers 404 at %s", async (path) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("Dev mailbox");
  });

  it("answers 404 at POST /dev/inbound, and without INBOUND_DOMAIN refuses every reply (decisions/020)", async () => {
    const res = await request("/dev/inbound", {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "message/rfc822" },
      body: "From: a@example.com\r\nTo: r-x@inbound.example\r\nSubject: hi\r\n\r\nhello\r\n",
    });
    expect(res.status).toBe(404);
    const config = readConfig(env);
    expect(config.INBOUND_DOMAIN).toBeUndefined();
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    // Reminders keep the user's own address as Reply-To.
    expect(await replyAddress(getDb(env.DB), config, { id: debtor.id, ownerId: user.id, optOutKey: null })).toBeNull();
    // The email() handler's receiver refuses, whatever the address.
    const raw = "From: a@example.com\r\nSubject: hi\r\n\r\nhello\r\n";
    expect(
      await receiveReply(env, config, { to: "r-00@inbound.example", from: "a@example.com", raw, size: raw.length }),
    ).toEqual({ ok: false, reason: "not-configured" });
  });

  it("answers 404 at POST /dev/schedules/advance (the end-to-end tests' skipped wait)", async () => {
    const res = await request("/dev/schedules/advance", {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
      body: JSON.stringify({ ms: 60_000 }),
    });
    expect(res.status).toBe(404);
  });
});

describe("a send without RESEND_API_KEY fails visibly", () => {
  it("the mail Worker returns a failed, non-retryable result with the reason and writes no dev outbox row", async () => {
    const before = await outboxCount();
    const result = await env.MAILER.sendReminder(reminder(), `production-test-${Date.now()}`);
    expect(result).toEqual({ ok: false, retryable: false, status: null, error: NO_KEY, attempts: 0 });
    expect(await outboxCount()).toBe(before);
  });

  it("a sign-in link request says the e-mail could not be sent", async () => {
    const before = await outboxCount();
    const res = await postForm("/?index", { email: uniqueEmail("signin") });
    expect(res.status).toBe(502);
    expect(await pageText(res)).toContain(SIGN_IN_FAILED);
    expect(await outboxCount()).toBe(before);
  });

  it("a reminder is recorded as a failed delivery with the reason", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const id = await makeSchedule(user.id, debtor.id);
    await fireAt(id, Math.floor((Date.now() - MINUTE) / 1000) * 1000);
    const [delivery, ...more] = await deliveriesOf(id);
    expect(more).toEqual([]);
    expect(delivery).toMatchObject({ status: "failed", error: NO_KEY });
  });
});

describe("absolute URLs come from APP_ORIGIN, not the Host header", () => {
  it("Google's redirect URI is on APP_ORIGIN whatever host the request names", async () => {
    const res = await get("/auth/google", { origin: "http://attacker.example" });
    expect(res.status).toBe(302);
    const redirectUri = location(res)!.searchParams.get("redirect_uri");
    expect(redirectUri).toBe(`${env.APP_ORIGIN}/auth/google/callback`);
  });
});

describe("plans without STRIPE_SECRET_KEY fail closed (docs/decisions/019)", () => {
  it("/pricing says plans cannot be bought yet, Subscribe sells nothing, the stand-in answers 404", async () => {
    const user = await makeSignedInUser();
    const cookie = `${sessionCookieName()}=${user.token}`;
    const page = await pageText(await get("/pricing", { cookie }));
    expect(page).toContain("Plans cannot be bought yet.");
    const subscribe = await postForm("/pricing", { plan: "aggressive" }, { cookie });
    expect(subscribe.status).toBe(503);
    expect(location(subscribe)).toBeNull();
    expect(await pageText(subscribe)).toContain("Plans cannot be bought yet.");
    expect((await get("/dev/checkout/checkout/cs_test_sub_anything")).status).toBe(404);
    expect(await pageText(await get("/iam/subscription", { cookie }))).toContain("Plans cannot be bought yet.");
  });
});

describe("sending domains without RESEND_API_KEY fail closed (docs/decisions/059)", () => {
  it("the stand-in's page answers 404; adding a domain says the key is missing and stores nothing", async () => {
    expect((await get("/dev/resend/domains")).status).toBe(404);
    expect((await postForm("/dev/resend/domains/any/verify", {})).status).toBe(404);
    const user = await makeSignedInUser();
    const cookie = `${sessionCookieName()}=${user.token}`;
    const res = await postForm(
      "/iam/domain",
      { intent: "domain-add", domain: "example-production.com", local_part: "billing" },
      { cookie },
    );
    expect(res.status).toBe(502);
    expect(await pageText(res)).toContain(NO_KEY);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM sending_domains WHERE owner_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(stored?.n).toBe(0);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM dev_resend_domains").first<{ n: number }>())?.n).toBe(0);
  });
});

describe("a page's failure in production (app/components/route-error.tsx)", () => {
  it("renders the page's error boundary in the shell, with neither the error's words nor a stack", async () => {
    const user = await makeSignedInUser();
    const cookie = `${sessionCookieName()}=${user.token}`;
    const debtor = await makeDebtor(user.id);
    // The debtor page's query reads delivery_rollups; the root loader does not.
    await env.DB.exec("ALTER TABLE delivery_rollups RENAME TO delivery_rollups_away");
    let res: Response;
    try {
      res = await get(`/debtors/${debtor.id}`, { cookie });
    } finally {
      await env.DB.exec("ALTER TABLE delivery_rollups_away RENAME TO delivery_rollups");
    }
    expect(res.status).toBe(500);
    const html = await pageText(res);
    expect(html).toContain('<nav aria-label="Main"');
    expect(html).toContain("Something went wrong");
    expect(html).toContain("We couldn't load this debtor.");
    expect(html).not.toContain("<pre");
    expect(html).not.toMatch(/delivery_rollups|no such table|D1_ERROR|SQLITE/i);
    expect(html).not.toMatch(/\bat [\w.<>]+ \(|\.js:\d+:\d+/);
  });
});
