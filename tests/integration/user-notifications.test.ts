import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { NOTICE_GIVE_UP_MS, NOTICE_STALE_MS, sendDailyDigests } from "~/activity/notices.server";
import { paidClaimLink, portalLink } from "~/links/debtor-pages.server";
import { invoiceRefs, optOutLink } from "~/links/signed-links.server";
import { retryRecordedEmails } from "~/mail/index.server";
import { readConfig } from "~/platform/config.server";
import { runNotices } from "~/watchdog/index.server";
import { programResend, type ResendAttempt, resendRequests } from "./engine-helpers";
import { db, debtorRow, makeDebtor, makeSchedule, makeUser } from "./fixtures";
import { postForm, request, sayPaid } from "./helpers";

/**
 * The user is told: one e-mail to the user's own
 * address for each debtor action ("I've paid", a promise, a dispute, an opt-out) and each hard
 * bounce and complaint; a repeat tells nothing more; a switched-off kind tells nothing; nothing goes
 * to the debtor; the watchdog sends a notice its request left pending.
 */

const config = () => readConfig(env);

/** A user (Sally Sender) with a debtor (Ana Ruiz) who owes one open invoice, and the debtor's links. */
async function setUp() {
  const user = await makeUser("Sally Sender");
  const debtor = await makeDebtor(user.id, { fullName: "Ana Ruiz", debtCents: 30000 });
  await makeSchedule(user.id, debtor.id);
  const keyless = { id: debtor.id, ownerId: user.id, optOutKey: null };
  const path = async (url: Promise<string>) => new URL(await url).pathname;
  return {
    user,
    debtor,
    portal: await path(portalLink(db(), config(), keyless)),
    paid: await path(paidClaimLink(db(), config(), keyless)),
    optOut: await path(optOutLink(db(), config(), keyless)),
  };
}
type Setup = Awaited<ReturnType<typeof setUp>>;

/** The notices the provider got for the user (sent after the response: waited for). */
async function noticesTo(email: string, count: number): Promise<ResendAttempt[]> {
  return vi.waitFor(
    async () => {
      const got = await resendRequests(email);
      if (got.length < count) throw new Error(`${got.length} of ${count} notices so far`);
      return got;
    },
    { timeout: 5000, interval: 50 },
  );
}

/** Gives a send after the response its time, then reads what the provider got. */
async function settledRequests(email: string) {
  await new Promise((r) => setTimeout(r, 300));
  return resendRequests(email);
}

const notificationRows = (ownerId: string) =>
  env.DB.prepare("SELECT kind, status, event_key FROM user_notifications WHERE owner_id = ? ORDER BY id")
    .bind(ownerId)
    .all<{ kind: string; status: string; event_key: string }>()
    .then((r) => r.results);

async function refOf(s: Setup) {
  const key = (await debtorRow(s.debtor.id))?.opt_out_key ?? "";
  return (await invoiceRefs(config(), key))(s.debtor.invoiceId);
}

function expectNotice(a: ResendAttempt | undefined, subject: string, s: Setup, replyToDebtor: boolean) {
  expect(a?.status).toBe(200);
  expect(((a?.body.to ?? []) as string[]).map((t) => t.toLowerCase())).toEqual([s.user.email.toLowerCase()]);
  expect(a?.body.subject).toBe(subject);
  expect(String(a?.body.html)).toContain(`/debtors/${s.debtor.id}`);
  expect(a?.body.reply_to).toBe(replyToDebtor ? s.debtor.email : undefined);
  expect(String(a?.body.subject)).not.toContain("[Test]");
  expect(a?.idempotencyKey).toMatch(/^[a-z_]+:\d+$/);
}

describe("each debtor action tells the user once", () => {
  it("I've paid via /p POST: one e-mail to the user, Reply-To the debtor; a second press sends none", async () => {
    const s = await setUp();
    expect((await sayPaid(s.paid)).status).toBe(200);
    const [notice] = await noticesTo(s.user.email, 1);
    expectNotice(notice, "Ana Ruiz says they have paid", s, true);
    expect((await sayPaid(s.paid)).status).toBe(200);
    expect(await settledRequests(s.user.email)).toHaveLength(1);
    expect(await notificationRows(s.user.id)).toEqual([
      { kind: "paid_claimed", status: "sent", event_key: expect.stringMatching(/^paid_claimed:\d+$/) },
    ]);
    expect(await resendRequests(s.debtor.email)).toEqual([]);
  });

  it("a promise via the portal: one e-mail with the date; the same promise again sends none", async () => {
    const s = await setUp();
    const today = new Date().toISOString().slice(0, 10);
    expect((await postForm(s.portal, { intent: "portal-promise", promised_on: today })).status).toBe(302);
    const [notice] = await noticesTo(s.user.email, 1);
    expectNotice(notice, "Ana Ruiz promised to pay", s, true);
    expect(String(notice?.body.text)).toContain("Promised to pay by");
    // Refused (already promised): nothing recorded, nothing sent.
    expect((await postForm(s.portal, { intent: "portal-promise", promised_on: today })).status).toBe(409);
    expect(await settledRequests(s.user.email)).toHaveLength(1);
    expect(await resendRequests(s.debtor.email)).toEqual([]);
  });

  it("a dispute via the portal: one e-mail with the reason; the same dispute again sends none", async () => {
    const s = await setUp();
    const invoice = await refOf(s);
    const fields = { intent: "portal-dispute", invoice, reason: "Never ordered this" };
    expect((await postForm(s.portal, fields)).status).toBe(302);
    const [notice] = await noticesTo(s.user.email, 1);
    expectNotice(notice, "Ana Ruiz disputed an invoice", s, true);
    expect(String(notice?.body.text)).toContain("Never ordered this");
    // The invoice is disputed now, no longer one of the open ones: refused, nothing sent.
    expect((await postForm(s.portal, fields)).status).toBe(400);
    expect(await settledRequests(s.user.email)).toHaveLength(1);
    expect(await resendRequests(s.debtor.email)).toEqual([]);
  });

  it("an opt-out via /u POST (the page's button or a one-click POST): one e-mail; a repeat sends none", async () => {
    const s = await setUp();
    expect((await postForm(s.optOut, {})).status).toBe(200);
    const [notice] = await noticesTo(s.user.email, 1);
    expectNotice(notice, "Ana Ruiz opted out of your reminders", s, true);
    // The mail client's one-click POST (RFC 8058), without an Origin: already opted out.
    const oneClick = await request(s.optOut, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await settledRequests(s.user.email)).toHaveLength(1);
    expect(await resendRequests(s.debtor.email)).toEqual([]);
  });
});

/** The signing secret vitest.config.ts binds as RESEND_WEBHOOK_SECRET. */
const SECRET = "whsec_dGVzdC13ZWJob29rLXNlY3JldC1mb3ItZHVubHk=";

/** Posts a Resend event signed as Svix does (as tests/integration/webhooks.test.ts). */
async function webhook(event: unknown, id = `msg_notice_${crypto.randomUUID()}`) {
  const at = Math.floor(Date.now() / 1000);
  const body = JSON.stringify(event);
  const raw = Uint8Array.from(atob(SECRET.replace(/^whsec_/, "")), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${at}.${body}`)));
  const headers = new Headers({
    "Content-Type": "application/json",
    "svix-id": id,
    "svix-timestamp": String(at),
    "svix-signature": `v1,${btoa(String.fromCharCode(...mac))}`,
  });
  return request("/webhooks/resend", { method: "POST", headers, body });
}

/** A 'sent' delivery to the debtor with a provider id, as the engine records it. */
async function sentDelivery(s: Setup) {
  const providerId = `re_${crypto.randomUUID()}`;
  await env.DB.prepare(
    "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient, provider_id, sent_at) VALUES (?, 'notice-schedule', ?, ?, 'initial', 1, 'sent', ?, ?, ?)",
  )
    .bind(s.user.id, s.debtor.id, `notice:${providerId}`, s.debtor.email.toLowerCase(), providerId, Date.now())
    .run();
  return providerId;
}

const bounce = (emailId: string) => ({
  type: "email.bounced",
  created_at: new Date().toISOString(),
  data: {
    email_id: emailId,
    to: ["someone@example.com"],
    bounce: { type: "Permanent", subType: "General", message: "550 5.1.1 The email account does not exist." },
  },
});

describe("delivery problems tell the user once", () => {
  it("a hard bounce: one e-mail to the user with the provider's message, no Reply-To; the replayed event sends none", async () => {
    const s = await setUp();
    const id = `msg_notice_${crypto.randomUUID()}`;
    expect((await webhook(bounce(await sentDelivery(s)), id)).status).toBe(200);
    const [notice] = await noticesTo(s.user.email, 1);
    expectNotice(notice, "A reminder to Ana Ruiz bounced", s, false);
    expect(String(notice?.body.text)).toContain("The email account does not exist");
    expect((await webhook(bounce("ignored"), id)).status).toBe(200);
    expect(await settledRequests(s.user.email)).toHaveLength(1);
    expect(await resendRequests(s.debtor.email)).toEqual([]);
  });

  it("a complaint: one e-mail (not a second one for the opt-out it causes)", async () => {
    const s = await setUp();
    const event = {
      type: "email.complained",
      created_at: new Date().toISOString(),
      data: { email_id: await sentDelivery(s), to: [s.debtor.email] },
    };
    expect((await webhook(event)).status).toBe(200);
    const [notice] = await noticesTo(s.user.email, 1);
    expectNotice(notice, "Ana Ruiz marked your reminder as spam", s, false);
    expect(await settledRequests(s.user.email)).toHaveLength(1);
    expect((await debtorRow(s.debtor.id))?.status).toBe("opted_out");
    expect(await resendRequests(s.debtor.email)).toEqual([]);
  });

  it("delivery problems switched off: a bounce is recorded and tells nothing", async () => {
    const s = await setUp();
    await env.DB.prepare("UPDATE users SET notify_delivery_problems = 0 WHERE id = ?").bind(s.user.id).run();
    expect((await webhook(bounce(await sentDelivery(s)))).status).toBe(200);
    expect((await debtorRow(s.debtor.id))?.status).toBe("bouncing");
    expect(await notificationRows(s.user.id)).toEqual([]);
    expect(await settledRequests(s.user.email)).toEqual([]);
  });
});

/** A page's markup without its scripts: the debtor's pages carry their messages in the page's data. */
const shownText = (html: string) => html.replace(/<script[\s\S]*?<\/script>/g, "");

describe("the switches in Settings", () => {
  it("debtor actions switched off: the claim is recorded, no notice written or sent, and the page does not claim an e-mail", async () => {
    const s = await setUp();
    await env.DB.prepare("UPDATE users SET notify_debtor_actions = 0 WHERE id = ?").bind(s.user.id).run();
    const res = await sayPaid(s.paid);
    // What the page shows (its messages in the debtor's language travel with it, unshown).
    const page = shownText(await res.text());
    expect(page).not.toContain("has been told");
    expect(page).toContain("sees in Dunly that you paid");
    expect((await debtorRow(s.debtor.id))?.paid_claimed_at).not.toBeNull();
    expect(await notificationRows(s.user.id)).toEqual([]);
    expect(await settledRequests(s.user.email)).toEqual([]);
  });

  it("debtor actions switched off: the debtor's page does not claim an e-mail either", async () => {
    const s = await setUp();
    await env.DB.prepare("UPDATE users SET notify_debtor_actions = 0 WHERE id = ?").bind(s.user.id).run();
    const res = await sayPaid(s.portal, [], { intent: "portal-paid" });
    expect(res.status).toBe(302);
    const page = shownText(await (await request(res.headers.get("Location") ?? "")).text());
    expect(page).toContain("Sally Sender sees your answer in Dunly and checks your payment");
    expect(page).not.toContain("has been told");
    expect(await settledRequests(s.user.email)).toEqual([]);
  });

  it("saved from Settings → Info: unchecked boxes switch both kinds off, checked ones on again", async () => {
    const { makeSignedInUser } = await import("./fixtures");
    const { SESSION_COOKIE } = await import("./helpers");
    const user = await makeSignedInUser("Sally Sender");
    const cookie = `${SESSION_COOKIE}=${user.token}`;
    const read = () =>
      env.DB.prepare(
        "SELECT notify_debtor_actions AS a, notify_delivery_problems AS d, notify_digest AS g FROM users WHERE id = ?",
      )
        .bind(user.id)
        .first<{ a: number; d: number; g: number }>();
    expect(await read()).toEqual({ a: 1, d: 1, g: 0 });
    expect((await postForm("/iam/info", { intent: "notices" }, { cookie })).status).toBe(200);
    expect(await read()).toEqual({ a: 0, d: 0, g: 0 });
    const on = { intent: "notices", notify_debtor_actions: "on", notify_delivery_problems: "on", notify_digest: "on" };
    expect((await postForm("/iam/info", on, { cookie })).status).toBe(200);
    expect(await read()).toEqual({ a: 1, d: 1, g: 1 });
  });
});

describe("the watchdog's net", () => {
  it("sends a notice left pending more than a few minutes, once", async () => {
    const s = await setUp();
    // Recorded as the batch does, but never sent (the request ended first).
    const event = await env.DB.prepare(
      "INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at) VALUES (?, ?, 'promised', 'Promised to pay by Jan 1, 2027', ?) RETURNING id",
    )
      .bind(s.user.id, s.debtor.id, Date.now() - NOTICE_STALE_MS - 60_000)
      .first<{ id: number }>();
    await env.DB.prepare(
      "INSERT INTO user_notifications (owner_id, kind, debtor_id, event_id, event_key, status, created_at) VALUES (?, 'promised', ?, ?, ?, 'pending', ?)",
    )
      .bind(s.user.id, s.debtor.id, event!.id, `promised:${event!.id}`, Date.now() - NOTICE_STALE_MS - 60_000)
      .run();
    expect(await runNotices(env)).toBeGreaterThanOrEqual(1);
    const got = await resendRequests(s.user.email);
    expect(got).toHaveLength(1);
    expect(got[0]?.idempotencyKey).toBe(`promised:${event!.id}`);
    expect((await notificationRows(s.user.id))[0]?.status).toBe("sent");
    await runNotices(env);
    expect(await resendRequests(s.user.email)).toHaveLength(1);
  });
});

describe("a notice that could not be sent", () => {
  /** A pending notice of `s`, written `ageMs` ago as an event's batch writes it. */
  async function pendingNotice(s: Awaited<ReturnType<typeof setUp>>, ageMs: number) {
    const at = Date.now() - ageMs;
    const event = await env.DB.prepare(
      "INSERT INTO debtor_events (owner_id, debtor_id, type, detail, created_at) VALUES (?, ?, 'promised', 'Promised to pay by Jan 1, 2027', ?) RETURNING id",
    )
      .bind(s.user.id, s.debtor.id, at)
      .first<{ id: number }>();
    await env.DB.prepare(
      "INSERT INTO user_notifications (owner_id, kind, debtor_id, event_id, event_key, status, created_at) VALUES (?, 'promised', ?, ?, ?, 'pending', ?)",
    )
      .bind(s.user.id, s.debtor.id, event!.id, `promised:${event!.id}`, at)
      .run();
  }
  const row = async (ownerId: string) =>
    env.DB.prepare("SELECT status, error FROM user_notifications WHERE owner_id = ?")
      .bind(ownerId)
      .first<{ status: string; error: string | null }>();

  it("keeps the provider's error while it waits for the watchdog's retry, and clears it once sent", async () => {
    const s = await setUp();
    await pendingNotice(s, NOTICE_STALE_MS + 60_000);
    // Three 500s: the send's own two retries fail too.
    await programResend(s.user.email, [500, 500, 500]);
    await runNotices(env);
    expect(await row(s.user.id)).toEqual({ status: "pending", error: "Resend 500: Programmed 500" });
    await runNotices(env);
    expect(await row(s.user.id)).toEqual({ status: "sent", error: null });
  });

  it("given up after 23 hours, it is 'failed' and says why, with the last error", async () => {
    const s = await setUp();
    await pendingNotice(s, NOTICE_GIVE_UP_MS + 60_000);
    await env.DB.prepare("UPDATE user_notifications SET error = 'Resend 500: Programmed 500' WHERE owner_id = ?")
      .bind(s.user.id)
      .run();
    await runNotices(env);
    expect(await row(s.user.id)).toEqual({
      status: "failed",
      error: "Gave up after 23 hours of retries: Resend 500: Programmed 500",
    });
    expect(await resendRequests(s.user.email)).toEqual([]);
  });
});

describe("the daily digest", () => {
  /** A moment after now, no earlier than 08:00 UTC today (when the day's digests start). */
  const digestTime = () => {
    const d = new Date();
    return Math.max(Date.now() + 1000, Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 8));
  };

  it("switched on: one e-mail a day listing the last 24 hours' events, once; off (the default): none", async () => {
    const s = await setUp();
    const other = await setUp();
    await env.DB.prepare("UPDATE users SET notify_digest = 1, notify_debtor_actions = 0 WHERE id = ?")
      .bind(s.user.id)
      .run();
    const today = new Date().toISOString().slice(0, 10);
    for (const x of [s, other]) {
      expect((await postForm(x.portal, { intent: "portal-promise", promised_on: today })).status).toBe(302);
      expect((await postForm(x.optOut, {})).status).toBe(200);
    }
    const at = digestTime();
    await sendDailyDigests(env, db(), config(), at);
    const got = await resendRequests(s.user.email);
    expect(got).toHaveLength(1);
    const day = new Date(at).toISOString().slice(0, 10);
    expect(got[0]?.idempotencyKey).toBe(`digest:${s.user.id}:${day}`);
    expect(got[0]?.body.subject).toBe("Dunly: 2 updates about your debtors today");
    const text = String(got[0]?.body.text);
    expect(text).toContain("Ana Ruiz promised to pay");
    expect(text).toContain("Ana Ruiz opted out of your reminders");
    expect(String(got[0]?.body.html)).toContain(`/debtors/${s.debtor.id}`);
    // Once a day.
    await sendDailyDigests(env, db(), config(), at + 60_000);
    expect(await resendRequests(s.user.email)).toHaveLength(1);
    // The other user has it off: their two immediate notices only, no digest.
    expect((await noticesTo(other.user.email, 2)).map((r) => r.idempotencyKey)).not.toContainEqual(
      expect.stringMatching(/^digest:/),
    );
    expect(await resendRequests(s.debtor.email)).toEqual([]);
  });

  it("a digest the provider could not take is recorded with its error and sent once by the watchdog's retry", async () => {
    const s = await setUp();
    await env.DB.prepare("UPDATE users SET notify_digest = 1, notify_debtor_actions = 0 WHERE id = ?")
      .bind(s.user.id)
      .run();
    expect((await postForm(s.optOut, {})).status).toBe(200);
    await programResend(s.user.email, [500, 500, 500]);
    const at = digestTime();
    await sendDailyDigests(env, db(), config(), at);
    const day = new Date(at).toISOString().slice(0, 10);
    const row = () =>
      env.DB.prepare("SELECT status, error, attempts FROM emails WHERE idem_key = ?")
        .bind(`digest:${s.user.id}:${day}`)
        .first<{ status: string; error: string | null; attempts: number }>();
    expect(await row()).toMatchObject({ status: "pending", attempts: 1 });
    expect((await row())?.error).toMatch(/500/);
    // The day's digest is the record's now: the next run does not build another.
    await sendDailyDigests(env, db(), config(), at + 60_000);
    expect(await resendRequests(s.user.email)).toHaveLength(3);
    await retryRecordedEmails(env, db(), at + 6 * 60_000);
    expect(await row()).toMatchObject({ status: "sent", error: null, attempts: 2 });
    const got = await resendRequests(s.user.email);
    expect(got.map((r) => [r.idempotencyKey, r.status])).toEqual([
      [`digest:${s.user.id}:${day}`, 500],
      [`digest:${s.user.id}:${day}`, 500],
      [`digest:${s.user.id}:${day}`, 500],
      [`digest:${s.user.id}:${day}`, 200],
    ]);
  });

  it("a day with nothing to tell sends nothing (and is marked done)", async () => {
    const s = await setUp();
    await env.DB.prepare("UPDATE users SET notify_digest = 1 WHERE id = ?").bind(s.user.id).run();
    const at = digestTime();
    await sendDailyDigests(env, db(), config(), at);
    expect(await resendRequests(s.user.email)).toEqual([]);
    const row = await env.DB.prepare("SELECT digest_sent_on AS d FROM users WHERE id = ?")
      .bind(s.user.id)
      .first<{ d: string | null }>();
    expect(row?.d).toBe(new Date(at).toISOString().slice(0, 10));
  });
});
