import { env } from "cloudflare:workers";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { readConfig } from "~/platform/config.server";
import { STANDIN_AUTH_TOKEN, sendText, textFatesOf, twilioSignature } from "~/texts/index.server";
import {
  deliveriesOfOwner,
  eventsOf,
  insertDelivery,
  makeDebtor,
  makeSchedule,
  makeSignedInUser,
  makeUser,
  scheduleRow,
} from "./fixtures";
import { ORIGIN, postForm, request, sessionCookieName } from "./helpers";

/**
 * Text messages through the Twilio client's local stand-in (decisions/068): one text per
 * idempotency key, Twilio's signed status callbacks and inbound texts (good, bad and query-string
 * signatures), STOP and START at once across the accounts that texted a number, any other text
 * stored as a reply that holds the reminders, and the dev outbox's buttons firing the same signed
 * requests.
 */

const config = () => readConfig(env);

let seq = 0;
/** A fresh UK mobile number in E.164 (test files share the database). */
const freshNumber = () =>
  `+4477${String(Date.now() % 1_000_000).padStart(6, "0")}${String(++seq % 100).padStart(2, "0")}`;
const freshKey = () => `test-text:${crypto.randomUUID()}`;

async function textRow(key: string) {
  return await env.DB.prepare("SELECT * FROM text_messages WHERE idempotency_key = ?")
    .bind(key)
    .first<Record<string, string | number | null>>();
}
async function optOutsOf(number: string) {
  const { results } = await env.DB.prepare("SELECT owner_id, source FROM text_opt_outs WHERE number = ?")
    .bind(number)
    .all<{ owner_id: string; source: string }>();
  return results;
}

/** A POST as Twilio makes it: a form, no cookie, no Origin, signed (or not) over `signedUrl`. */
async function twilioPost(
  path: string,
  params: [string, string][],
  options: { signedUrl?: string; signature?: string | null; token?: string } = {},
) {
  const signedUrl = options.signedUrl ?? `${ORIGIN}${path}`;
  const signature =
    options.signature === undefined
      ? await twilioSignature(options.token ?? STANDIN_AUTH_TOKEN, signedUrl, params)
      : options.signature;
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  if (signature !== null) headers.set("X-Twilio-Signature", signature);
  return request(path, { method: "POST", headers, body: new URLSearchParams(params).toString() });
}

const statusParams = (sid: string, status: string, errorCode?: string): [string, string][] => [
  ["MessageSid", sid],
  ["MessageStatus", status],
  ["AccountSid", "AC00000000000000000000000000000000"],
  ...(errorCode ? [["ErrorCode", errorCode] as [string, string]] : []),
];
const inboundParams = (from: string, body: string): [string, string][] => [
  ["MessageSid", `SMin${crypto.randomUUID().replaceAll("-", "")}`],
  ["From", from],
  ["To", "MG00000000000000000000000000000000"],
  ["Body", body],
];

async function sentText(ownerId: string, debtorId: number | null, to: string, deliveryId?: number) {
  const key = freshKey();
  const result = await sendText(env, config(), {
    ownerId,
    debtorId,
    deliveryId,
    to,
    body: "You owe $1,234.50, 12 days overdue. Pay: https://example.test/d/abc",
    idempotencyKey: key,
  });
  if (!result.ok) throw new Error(`sendText failed: ${result.error}`);
  return { key, sid: result.sid };
}

describe("the text client (the stand-in)", () => {
  it("sends once per idempotency key: the same key answers the same SID", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const to = freshNumber();
    const { key, sid } = await sentText(user.id, debtor.id, to);
    expect(sid).toMatch(/^SMdev[0-9a-f]{28}$/);
    const again = await sendText(env, config(), { ownerId: user.id, to, body: "anything", idempotencyKey: key });
    expect(again).toEqual({ ok: true, sid, duplicate: true });
    const row = await textRow(key);
    expect(row).toMatchObject({ sid, status: "queued", provider: "standin", to, attempts: 1 });
  });

  it("refuses a number not in E.164, an empty or over-long text, and writes nothing", async () => {
    const user = await makeUser();
    for (const [to, body] of [
      ["07700900123", "Hello"],
      ["+4477009001234567", "Hello"],
      [freshNumber(), ""],
      [freshNumber(), "x".repeat(321)],
    ] as const) {
      const key = freshKey();
      const result = await sendText(env, config(), { ownerId: user.id, to, body, idempotencyKey: key });
      expect(result).toMatchObject({ ok: false, retryable: false, reason: "invalid" });
      expect(await textRow(key)).toBeNull();
    }
    const ok = await sendText(env, config(), {
      ownerId: user.id,
      to: freshNumber(),
      body: "é".repeat(320),
      idempotencyKey: freshKey(),
    });
    expect(ok.ok).toBe(true);
  });
});

describe("POST /webhooks/twilio/status", () => {
  it("records a signed callback only forward, and on the reminder's delivery", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    await insertDelivery(user.id, debtor.id, "sent");
    const delivery = (await deliveriesOfOwner(user.id))[0]!;
    const { key, sid } = await sentText(user.id, debtor.id, freshNumber(), delivery.id);

    expect((await twilioPost("/webhooks/twilio/status", statusParams(sid, "sent"))).status).toBe(200);
    expect((await textRow(key))?.status).toBe("sent");
    expect((await twilioPost("/webhooks/twilio/status", statusParams(sid, "delivered"))).status).toBe(200);
    // A late 'sent' after 'delivered' changes nothing.
    expect((await twilioPost("/webhooks/twilio/status", statusParams(sid, "sent"))).status).toBe(200);
    expect((await textRow(key))?.status).toBe("delivered");
    const after = (await deliveriesOfOwner(user.id)).find((d) => d.id === delivery.id)!;
    expect(after.delivered_at).toBeGreaterThan(0);
    expect(after.status).toBe("sent");
  });

  it("marks the delivery failed when the text was undelivered, with Twilio's code", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    await insertDelivery(user.id, debtor.id, "sent");
    const delivery = (await deliveriesOfOwner(user.id))[0]!;
    const { key, sid } = await sentText(user.id, debtor.id, freshNumber(), delivery.id);
    expect((await twilioPost("/webhooks/twilio/status", statusParams(sid, "undelivered", "30003"))).status).toBe(200);
    expect(await textRow(key)).toMatchObject({ status: "undelivered", error_code: "30003" });
    const after = (await deliveriesOfOwner(user.id)).find((d) => d.id === delivery.id)!;
    expect(after).toMatchObject({ status: "failed", error: "The text was undelivered (Twilio error 30003)" });
  });

  it("textFatesOf tells the engine what became of its texts by key, a callback before the send recorded included", async () => {
    const user = await makeUser();
    const a = await sentText(user.id, null, freshNumber());
    const b = await sentText(user.id, null, freshNumber());
    await twilioPost("/webhooks/twilio/status", statusParams(b.sid, "failed", "30008"));
    const fates = await textFatesOf(getDb(env.DB), [a.key, b.key, a.key, "never-asked"]);
    expect(fates.get(a.key)).toEqual({ sid: a.sid, status: "queued", errorCode: null, error: null });
    expect(fates.get(b.key)).toMatchObject({ sid: b.sid, status: "failed", errorCode: "30008" });
    expect(fates.has("never-asked")).toBe(false);
  });

  it("refuses a bad, missing or other token's signature (403) and changes nothing", async () => {
    const user = await makeUser();
    const { key, sid } = await sentText(user.id, null, freshNumber());
    const params = statusParams(sid, "delivered");
    expect((await twilioPost("/webhooks/twilio/status", params, { signature: "AAAA" })).status).toBe(403);
    expect((await twilioPost("/webhooks/twilio/status", params, { signature: null })).status).toBe(403);
    expect((await twilioPost("/webhooks/twilio/status", params, { token: "0".repeat(32) })).status).toBe(403);
    // Signed for another endpoint's URL.
    const other = `${ORIGIN}/webhooks/twilio/inbound`;
    expect((await twilioPost("/webhooks/twilio/status", params, { signedUrl: other })).status).toBe(403);
    expect((await textRow(key))?.status).toBe("queued");
  });

  it("signs the URL with its query string: kept it passes, dropped it fails", async () => {
    const user = await makeUser();
    const { key, sid } = await sentText(user.id, null, freshNumber());
    const path = "/webhooks/twilio/status?attempt=2&from=dunly";
    const withoutQuery = `${ORIGIN}/webhooks/twilio/status`;
    expect((await twilioPost(path, statusParams(sid, "delivered"), { signedUrl: withoutQuery })).status).toBe(403);
    expect((await textRow(key))?.status).toBe("queued");
    expect((await twilioPost(path, statusParams(sid, "delivered"))).status).toBe(200);
    expect((await textRow(key))?.status).toBe("delivered");
  });
});

describe("POST /webhooks/twilio/inbound", () => {
  it("STOP opts the number out at once for every account that texted it, tells each user; START ends it", async () => {
    const a = await makeUser();
    const b = await makeUser();
    const bystander = await makeUser();
    const number = freshNumber();
    const debtorA = await makeDebtor(a.id);
    const debtorB = await makeDebtor(b.id);
    await sentText(a.id, debtorA.id, number);
    await sentText(b.id, debtorB.id, number);

    const stop = await twilioPost("/webhooks/twilio/inbound", inboundParams(number, " Stop "));
    expect(stop.status).toBe(200);
    expect(stop.headers.get("Content-Type")).toContain("text/xml");
    expect(await stop.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');
    expect((await optOutsOf(number)).map((r) => r.owner_id).sort()).toEqual([a.id, b.id].sort());
    expect((await eventsOf(debtorA.id)).some((e) => e.type === "text_opted_out")).toBe(true);
    expect((await eventsOf(debtorB.id)).some((e) => e.type === "text_opted_out")).toBe(true);
    const { results: notices } = await env.DB.prepare(
      "SELECT owner_id FROM user_notifications WHERE kind = 'text_opted_out' AND debtor_id IN (?, ?)",
    )
      .bind(debtorA.id, debtorB.id)
      .all<{ owner_id: string }>();
    expect(notices.map((n) => n.owner_id).sort()).toEqual([a.id, b.id].sort());

    // The next text to the number is refused where it would leave; the account that never texted it is free.
    const refused = await sendText(env, config(), {
      ownerId: a.id,
      debtorId: debtorA.id,
      to: number,
      body: "Another reminder",
      idempotencyKey: freshKey(),
    });
    expect(refused).toMatchObject({ ok: false, retryable: false, reason: "opted-out" });
    const free = await sendText(env, config(), {
      ownerId: bystander.id,
      to: number,
      body: "Hello",
      idempotencyKey: freshKey(),
    });
    expect(free.ok).toBe(true);

    expect((await twilioPost("/webhooks/twilio/inbound", inboundParams(number, "START"))).status).toBe(200);
    expect(await optOutsOf(number)).toEqual([]);
    expect((await eventsOf(debtorA.id)).some((e) => e.type === "text_opted_in")).toBe(true);
    const again = await sendText(env, config(), {
      ownerId: a.id,
      to: number,
      body: "Another reminder",
      idempotencyKey: freshKey(),
    });
    expect(again.ok).toBe(true);
  });

  it("STOP also reaches an account whose debtor carries the number but was never texted, and ends its consent", async () => {
    const texter = await makeUser();
    const quiet = await makeUser();
    const number = freshNumber();
    const texted = await makeDebtor(texter.id);
    const carrier = await makeDebtor(quiet.id);
    await env.DB.prepare("UPDATE debtors SET phone = ?, text_consent_at = ?, text_consent_by = 'me' WHERE id IN (?, ?)")
      .bind(number, Date.now(), texted.id, carrier.id)
      .run();
    await sentText(texter.id, texted.id, number);

    expect((await twilioPost("/webhooks/twilio/inbound", inboundParams(number, "STOP"))).status).toBe(200);
    expect((await optOutsOf(number)).map((r) => r.owner_id).sort()).toEqual([texter.id, quiet.id].sort());
    const consentOf = async (id: number) =>
      await env.DB.prepare("SELECT text_consent_at, text_consent_by FROM debtors WHERE id = ?")
        .bind(id)
        .first<{ text_consent_at: number | null; text_consent_by: string | null }>();
    expect(await consentOf(carrier.id)).toEqual({ text_consent_at: null, text_consent_by: null });
    expect(await consentOf(texted.id)).toEqual({ text_consent_at: null, text_consent_by: null });
    expect((await eventsOf(carrier.id)).some((e) => e.type === "text_opted_out")).toBe(true);

    expect((await twilioPost("/webhooks/twilio/inbound", inboundParams(number, "start"))).status).toBe(200);
    expect(await optOutsOf(number)).toEqual([]);
    expect((await consentOf(carrier.id))?.text_consent_by).toBe(`START from ${number}`);
  });

  it("a repeated STOP tells nobody twice; one number texted by 25 accounts opts out of all of them in one go", async () => {
    const number = freshNumber();
    const accounts = await Promise.all(
      Array.from({ length: 25 }, async (_, i) => {
        const user = await makeUser(`Account ${i}`);
        const debtor = await makeDebtor(user.id);
        await sentText(user.id, debtor.id, number);
        return { user, debtor };
      }),
    );
    expect((await twilioPost("/webhooks/twilio/inbound", inboundParams(number, "UNSUBSCRIBE"))).status).toBe(200);
    expect((await twilioPost("/webhooks/twilio/inbound", inboundParams(number, "STOP"))).status).toBe(200);
    expect((await optOutsOf(number)).map((r) => r.owner_id).sort()).toEqual(accounts.map((a) => a.user.id).sort());
    const first = accounts[0]!;
    expect((await eventsOf(first.debtor.id)).filter((e) => e.type === "text_opted_out")).toHaveLength(1);
    const { results: notices } = await env.DB.prepare(
      "SELECT count(*) AS n FROM user_notifications WHERE kind = 'text_opted_out' AND owner_id = ?",
    )
      .bind(first.user.id)
      .all<{ n: number }>();
    expect(notices[0]?.n).toBe(1);
  });

  it("stores any other text as a reply that holds the debtor's reminders, once per message", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const scheduleId = await makeSchedule(user.id, debtor.id);
    const number = freshNumber();
    await sentText(user.id, debtor.id, number);
    const params = inboundParams(number, "I will pay on Friday, sorry for the delay");
    expect((await twilioPost("/webhooks/twilio/inbound", params)).status).toBe(200);
    // Twilio's retry of the same message is a repeat.
    expect((await twilioPost("/webhooks/twilio/inbound", params)).status).toBe(200);
    const { results: replies } = await env.DB.prepare(
      "SELECT from_address, subject, text FROM debtor_replies WHERE debtor_id = ?",
    )
      .bind(debtor.id)
      .all();
    expect(replies).toEqual([
      { from_address: number, subject: "Text message", text: "I will pay on Friday, sorry for the delay" },
    ]);
    expect((await scheduleRow(scheduleId))?.stopped_reason).toBe("replied");
    expect((await eventsOf(debtor.id)).some((e) => e.type === "replied" && e.detail === "Text message")).toBe(true);
    expect(await optOutsOf(number)).toEqual([]);
  });

  it("HELP and a number nobody texted store nothing; a forged text is refused", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const number = freshNumber();
    await sentText(user.id, debtor.id, number);
    expect((await twilioPost("/webhooks/twilio/inbound", inboundParams(number, "help"))).status).toBe(200);
    expect((await twilioPost("/webhooks/twilio/inbound", inboundParams(freshNumber(), "hello"))).status).toBe(200);
    expect(
      (await twilioPost("/webhooks/twilio/inbound", inboundParams(number, "STOP"), { signature: "forged" })).status,
    ).toBe(403);
    expect(await optOutsOf(number)).toEqual([]);
    const { results } = await env.DB.prepare("SELECT id FROM debtor_replies WHERE debtor_id = ?").bind(debtor.id).all();
    expect(results).toEqual([]);
  });
});

describe("/dev/texts, the dev outbox", () => {
  it("lists texts; its buttons fire the signed callbacks: deliver, reply, STOP", async () => {
    const user = await makeSignedInUser();
    const debtor = await makeDebtor(user.id);
    const number = freshNumber();
    const { key } = await sentText(user.id, debtor.id, number);
    const id = (await textRow(key))!.id;

    const page = await request("/dev/texts");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`To ${number}`);
    expect(html).toContain(`action="/dev/texts/${id}/status/delivered"`);
    const json = (await (await request("/dev/texts.json")).json()) as { key: string; status: string }[];
    expect(json.find((t) => t.key === key)?.status).toBe("queued");

    const delivered = await postForm(`/dev/texts/${id}/status/delivered`, {});
    expect(delivered.status).toBe(303);
    expect((await textRow(key))?.status).toBe("delivered");

    expect((await postForm(`/dev/texts/${id}/reply`, { body: "Can I pay half now?" })).status).toBe(303);
    expect(await replyText(debtor.id)).toBe("Can I pay half now?");

    expect((await postForm(`/dev/texts/${id}/reply`, { body: "STOP" })).status).toBe(303);
    expect((await optOutsOf(number)).map((r) => r.owner_id)).toEqual([user.id]);

    expect((await postForm(`/dev/texts/${id}/status/nonsense`, {})).status).toBe(404);
    expect((await postForm("/dev/texts/999999999/status/delivered", {})).status).toBe(404);
  });
});

async function replyText(debtorId: number) {
  const row = await env.DB.prepare("SELECT text FROM debtor_replies WHERE debtor_id = ?")
    .bind(debtorId)
    .first<{ text: string }>();
  return row?.text;
}

describe("/dev/texts: a test text from the signed-in user", () => {
  it("sends through the client as the user; a refusal keeps what was typed; another's debtor is 404", async () => {
    const user = await makeSignedInUser();
    const other = await makeUser();
    const debtor = await makeDebtor(user.id, { fullName: "Tess Texter" });
    const othersDebtor = await makeDebtor(other.id);
    const cookie = `${sessionCookieName()}=${user.token}`;

    const page = await request("/dev/texts", { headers: { Cookie: cookie } });
    expect(await page.text()).toContain(`<option value="${debtor.id}">Tess Texter</option>`);

    const number = freshNumber();
    const sent = await postForm(
      "/dev/texts/send",
      { to: number, body: "A test text", debtorId: String(debtor.id) },
      { cookie },
    );
    expect(sent.status).toBe(303);
    const { results } = await env.DB.prepare('SELECT owner_id, debtor_id, status FROM text_messages WHERE "to" = ?')
      .bind(number)
      .all();
    expect(results).toEqual([{ owner_id: user.id, debtor_id: debtor.id, status: "queued" }]);

    const refused = await postForm(
      "/dev/texts/send",
      { to: "07700 900123", body: "Kept <b>", debtorId: "" },
      { cookie },
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Not a number in E.164: 07700 900123");
    expect(html).toContain('value="07700 900123"');
    expect(html).toContain("Kept &lt;b&gt;</textarea>");

    const foreign = { to: freshNumber(), body: "Hi", debtorId: String(othersDebtor.id) };
    expect((await postForm("/dev/texts/send", foreign, { cookie })).status).toBe(404);
    expect((await postForm("/dev/texts/send", foreign)).status).toBe(401);
  });
});

describe("the text client (Twilio's API, its answers played by a stubbed fetch)", () => {
  const twilioConfig = () => ({
    ...config(),
    TWILIO_ACCOUNT_SID: `AC${"a1".repeat(16)}`,
    TWILIO_AUTH_TOKEN: "f0".repeat(16),
    TWILIO_MESSAGING_SERVICE_SID: `MG${"b2".repeat(16)}`,
  });
  type Call = { url: string; method: string; body: string; auth: string | null };

  function stubTwilio(answers: ((call: Call) => Response | Promise<Response>)[]) {
    const calls: Call[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const call = {
        url: request.url,
        method: request.method,
        body: await request.text(),
        auth: request.headers.get("Authorization"),
      };
      calls.push(call);
      const answer = answers.shift();
      if (!answer) throw new Error(`Unexpected request ${call.method} ${call.url}`);
      return await answer(call);
    });
    return calls;
  }
  afterEach(() => vi.unstubAllGlobals());

  const created = (sid: string) => () => Response.json({ sid, status: "accepted" }, { status: 201 });

  it("posts the text through the Messaging Service with its status callback, once per key", async () => {
    const user = await makeUser();
    const to = freshNumber();
    const key = freshKey();
    const calls = stubTwilio([created("SM0123456789abcdef0123456789abcdef")]);
    const req = { ownerId: user.id, to, body: "You owe $10.00", idempotencyKey: key };
    expect(await sendText(env, twilioConfig(), req)).toEqual({ ok: true, sid: "SM0123456789abcdef0123456789abcdef" });
    expect(await sendText(env, twilioConfig(), req)).toMatchObject({ ok: true, duplicate: true });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe("POST");
    expect(calls[0]!.url).toBe(`https://api.twilio.com/2010-04-01/Accounts/AC${"a1".repeat(16)}/Messages.json`);
    expect(calls[0]!.auth).toBe(`Basic ${btoa(`AC${"a1".repeat(16)}:${"f0".repeat(16)}`)}`);
    const form = new URLSearchParams(calls[0]!.body);
    expect(Object.fromEntries(form)).toEqual({
      To: to,
      MessagingServiceSid: `MG${"b2".repeat(16)}`,
      Body: "You owe $10.00",
      StatusCallback: "http://localhost:5173/webhooks/twilio/status",
    });
    expect(await textRow(key)).toMatchObject({ provider: "twilio", status: "accepted", attempts: 1 });
  });

  it("a refusal is final under its key; Twilio's 'unsubscribed recipient' opts the number out", async () => {
    const user = await makeUser();
    const to = freshNumber();
    const key = freshKey();
    const calls = stubTwilio([
      () =>
        Response.json(
          { code: 21610, message: "Attempt to send to unsubscribed recipient", status: 400 },
          { status: 400 },
        ),
    ]);
    const req = { ownerId: user.id, to, body: "Hello", idempotencyKey: key };
    const first = await sendText(env, twilioConfig(), req);
    expect(first).toMatchObject({ ok: false, retryable: false, reason: "refused" });
    expect(first.ok ? "" : first.error).toBe(
      "Twilio refused the text (21610): Attempt to send to unsubscribed recipient",
    );
    expect(await textRow(key)).toMatchObject({ status: "refused", error_code: "21610" });
    expect(await optOutsOf(to)).toEqual([{ owner_id: user.id, source: "carrier" }]);
    // Asked again: refused without a request (the number is opted out now).
    expect(await sendText(env, twilioConfig(), { ...req, idempotencyKey: freshKey() })).toMatchObject({
      reason: "opted-out",
    });
    expect(calls).toHaveLength(1);
  });

  it("a 429 is retried under the same key; a 5xx or no answer is looked up before any retry, never sent twice", async () => {
    const user = await makeUser();
    const to = freshNumber();
    const key = freshKey();
    const req = { ownerId: user.id, to, body: "Pay now please", idempotencyKey: key };
    const t0 = Date.now();

    stubTwilio([() => new Response('{"code":20429,"message":"Too many requests"}', { status: 429 })]);
    expect(await sendText(env, twilioConfig(), req, t0)).toMatchObject({ ok: false, retryable: true });
    expect((await textRow(key))?.status).toBe("retry");

    // The retry gets no answer at all: the row stays 'pending'; meanwhile the key waits.
    stubTwilio([
      () => {
        throw new TypeError("Network connection lost");
      },
    ]);
    expect(await sendText(env, twilioConfig(), req, t0 + 1000)).toMatchObject({
      retryable: true,
      reason: "unanswered",
    });
    expect(await textRow(key)).toMatchObject({ status: "pending", attempts: 2 });
    const waiting = stubTwilio([]);
    expect(await sendText(env, twilioConfig(), req, t0 + 60_000)).toMatchObject({
      retryable: true,
      reason: "unanswered",
    });
    expect(waiting).toHaveLength(0);

    // Ten minutes on, Twilio is asked first but cannot say: nothing is sent, the key waits again.
    const unsure = stubTwilio([() => new Response("Service unavailable", { status: 503 })]);
    expect(await sendText(env, twilioConfig(), req, t0 + 11 * 60_000)).toMatchObject({
      retryable: true,
      reason: "unanswered",
    });
    expect(unsure.map((c) => c.method)).toEqual(["GET"]);

    // Ten more minutes: asked again from the first attempt on, it had sent it: not sent again.
    const calls = stubTwilio([
      () =>
        Response.json({
          messages: [
            { sid: "SMother", body: "Something else", status: "delivered", date_created: new Date(t0).toUTCString() },
            {
              sid: "SMfound000",
              body: "Pay now please",
              status: "sent",
              date_created: new Date(t0 + 1000).toUTCString(),
            },
          ],
        }),
    ]);
    expect(await sendText(env, twilioConfig(), req, t0 + 22 * 60_000)).toEqual({ ok: true, sid: "SMfound000" });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe("GET");
    expect(calls[0]!.url).toContain(`To=${encodeURIComponent(to)}`);
    expect(await textRow(key)).toMatchObject({ sid: "SMfound000", status: "sent", attempts: 4 });
  });

  it("an unanswered attempt Twilio has no trace of is sent after the wait", async () => {
    const user = await makeUser();
    const req = { ownerId: user.id, to: freshNumber(), body: "Second try", idempotencyKey: freshKey() };
    const t0 = Date.now();
    stubTwilio([() => new Response("Service unavailable", { status: 503 })]);
    expect(await sendText(env, twilioConfig(), req, t0)).toMatchObject({ retryable: true, reason: "unanswered" });
    const calls = stubTwilio([() => Response.json({ messages: [] }), created("SMsecond0")]);
    expect(await sendText(env, twilioConfig(), req, t0 + 11 * 60_000)).toEqual({ ok: true, sid: "SMsecond0" });
    expect(calls.map((c) => c.method)).toEqual(["GET", "POST"]);
  });
});

describe("hostile requests to Twilio's webhooks", () => {
  it("any signed form answers 200 or 400 (413 when too large), never a 500; unsigned ones 403", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const number = freshNumber();
    const { sid } = await sentText(user.id, debtor.id, number);
    const name = fc.oneof(
      fc.constantFrom("MessageSid", "SmsSid", "MessageStatus", "ErrorCode", "From", "Body", "OptOutType", "To"),
      fc.string({ maxLength: 20 }),
    );
    const value = fc.oneof(
      fc.constantFrom(sid, number, "STOP", "start", "delivered", "failed", "", "SM", "+1", "\u0000", "x".repeat(5000)),
      fc.string({ maxLength: 200 }),
      fc.string({ maxLength: 50, unit: "grapheme" }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("status", "inbound"),
        fc.array(fc.tuple(name, value), { maxLength: 8 }),
        fc.boolean(),
        async (endpoint, params, signed) => {
          const res = await twilioPost(`/webhooks/twilio/${endpoint}`, params, signed ? {} : { signature: "bad" });
          // 413: a form over 32 KiB (several 5,000-character values), refused before its signature is read.
          expect(signed ? [200, 400, 413] : [403, 413]).toContain(res.status);
        },
      ),
      { numRuns: 40 },
    );
  });
});
