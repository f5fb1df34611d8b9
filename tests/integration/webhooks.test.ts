import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alarmAt, HOUR, stubOf } from "./engine-helpers";
import {
  debtorRow,
  deliveryRow,
  makeDebtor,
  makeSchedule,
  makeUser,
  optOutRows,
  schedulesOfDebtor,
  setSchedule,
} from "./fixtures";
import { get, location, pageText, request, signIn, uniqueEmail } from "./helpers";
import { act } from "./schedule-helpers";

/**
 * POST /webhooks/resend: Resend's events, signed with the Svix scheme. Only a
 * good signature within five minutes is handled, an event id once; a hard bounce pauses the
 * debtor's schedules, a complaint opts the address out, a delivery records its time.
 */

/** The signing secret vitest.config.ts binds as RESEND_WEBHOOK_SECRET. */
const SECRET = "whsec_dGVzdC13ZWJob29rLXNlY3JldC1mb3ItZHVubHk=";
const PATH = "/webhooks/resend";
const MINUTE = 60_000;

let counter = 0;
const newEventId = () => `msg_test_${Date.now().toString(36)}_${++counter}_${Math.random().toString(36).slice(2)}`;

/**
 * Signs as Svix (and Standard Webhooks) specify, written here with WebCrypto rather than with the
 * library the app verifies with: "v1," and the base64 HMAC-SHA256, keyed with the base64 secret
 * after "whsec_", of "{id}.{timestamp in seconds}.{body}".
 */
async function sign(secret: string, id: string, at: Date, body: string) {
  const raw = Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const toSign = new TextEncoder().encode(`${id}.${Math.floor(at.getTime() / 1000)}.${body}`);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, toSign));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

interface SendOptions {
  id?: string;
  /** When the request claims it was signed (default now). */
  at?: Date;
  /** The signature header as sent (default: the real one). */
  signature?: string;
  /** Leave these headers out. */
  omit?: ("id" | "timestamp" | "signature")[];
  /** Sign with another secret. */
  secret?: string;
  /** The raw body instead of JSON.stringify(event). */
  raw?: string;
  /** The svix-timestamp header as sent (default: `at` in seconds). */
  timestamp?: string;
}

/** Sends an event as Resend does: svix-id, svix-timestamp and svix-signature over the raw body. */
async function send(event: unknown, o: SendOptions = {}) {
  const id = o.id ?? newEventId();
  const at = o.at ?? new Date();
  const body = o.raw ?? JSON.stringify(event);
  const signature = o.signature ?? (await sign(o.secret ?? SECRET, id, at, body));
  const headers = new Headers({ "Content-Type": "application/json" });
  if (!o.omit?.includes("id")) headers.set("svix-id", id);
  if (!o.omit?.includes("timestamp")) {
    headers.set("svix-timestamp", o.timestamp ?? String(Math.floor(at.getTime() / 1000)));
  }
  if (!o.omit?.includes("signature")) headers.set("svix-signature", signature);
  const res = await request(PATH, { method: "POST", headers, body });
  const text = await res.text();
  let json: { ok?: boolean; duplicate?: boolean; error?: string } | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON: the assertion on the status shows the text.
  }
  return { status: res.status, json, text, id };
}

function bounced(emailId: string, type = "Permanent", message = "550 5.1.1 The email account does not exist.") {
  return {
    type: "email.bounced",
    created_at: new Date().toISOString(),
    data: {
      email_id: emailId,
      to: ["someone@example.com"],
      subject: "A reminder",
      bounce: { type, subType: type === "Permanent" ? "General" : "MailboxFull", message },
    },
  };
}

const event = (type: string, emailId: string, extra: Record<string, unknown> = {}) => ({
  type,
  created_at: new Date().toISOString(),
  data: { email_id: emailId, to: ["someone@example.com"], ...extra },
});

async function eventRecorded(id: string) {
  return Boolean(await env.DB.prepare("SELECT id FROM webhook_events WHERE id = ?").bind(id).first());
}
/**
 * An owner with a debtor, two ENABLED schedules of theirs (alarms armed), one COMPLETED one, a
 * second debtor with an ENABLED schedule, and a 'sent' delivery to the first debtor with a
 * provider id, as the engine records it.
 */
async function scenario(ownerId?: string) {
  const owner = ownerId ?? (await makeUser()).id;
  const debtor = await makeDebtor(owner, { fullName: "Bea Bounce" });
  const other = await makeDebtor(owner, { fullName: "Otto Other" });
  const live = [await makeSchedule(owner, debtor.id), await makeSchedule(owner, debtor.id, { frequency: "weekly" })];
  const completed = await makeSchedule(owner, debtor.id);
  await setSchedule(completed, { state: "COMPLETED", next_run_at: null });
  const otherSchedule = await makeSchedule(owner, other.id);
  for (const id of [...live, otherSchedule]) await stubOf(id).arm(id, Date.now() + HOUR, { force: true });
  const providerId = `re_${crypto.randomUUID()}`;
  const row = await env.DB.prepare(
    "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient, provider_id, sent_at) VALUES (?, ?, ?, ?, 'initial', 1, 'sent', ?, ?, ?) RETURNING id",
  )
    .bind(owner, live[0], debtor.id, `${live[0]}:${Date.now()}`, debtor.email.toLowerCase(), providerId, Date.now())
    .first<{ id: number }>();
  return { owner, debtor, other, live, completed, otherSchedule, providerId, deliveryId: row!.id };
}

type Scenario = Awaited<ReturnType<typeof scenario>>;

/** Everything the webhook could touch in a scenario, to compare before and after. */
async function state(s: Scenario) {
  return {
    delivery: await deliveryRow(s.deliveryId),
    debtor: await debtorRow(s.debtor.id),
    other: await debtorRow(s.other.id),
    schedules: await schedulesOfDebtor(s.debtor.id),
    otherSchedules: await schedulesOfDebtor(s.other.id),
    alarms: await Promise.all([...s.live, s.otherSchedule].map((id) => alarmAt(id))),
    optOuts: await optOutRows(s.owner),
  };
}

describe("the signature and timestamp are checked (Svix / Standard Webhooks)", () => {
  it("a bad signature gets 400 and changes nothing", async () => {
    const s = await scenario();
    const before = await state(s);
    const forged = await send(bounced(s.providerId), { signature: "v1,bm90IHRoZSByaWdodCBzaWduYXR1cmU=" });
    expect(forged.status, forged.text).toBe(400);
    expect(forged.json?.ok).toBe(false);
    const otherSecret = await send(bounced(s.providerId), { secret: "whsec_c29tZW9uZS1lbHNlcy1zZWNyZXQtMTIzNDU2Nzg=" });
    expect(otherSecret.status, otherSecret.text).toBe(400);
    // The signature covers the body: a changed body with the old signature is refused.
    const signed = await sign(SECRET, "msg_fixed", new Date(), JSON.stringify(event("email.delivered", "x")));
    const tampered = await send(bounced(s.providerId), { id: "msg_fixed", signature: signed });
    expect(tampered.status, tampered.text).toBe(400);
    expect(await state(s)).toEqual(before);
    for (const id of [forged.id, otherSecret.id, tampered.id]) expect(await eventRecorded(id)).toBe(false);
  });

  it("a timestamp six minutes old (or ahead) gets 400 and changes nothing", async () => {
    const s = await scenario();
    const before = await state(s);
    const stale = await send(bounced(s.providerId), { at: new Date(Date.now() - 6 * MINUTE) });
    expect(stale.status, stale.text).toBe(400);
    expect(stale.json?.error).toContain("too old");
    const ahead = await send(bounced(s.providerId), { at: new Date(Date.now() + 6 * MINUTE) });
    expect(ahead.status, ahead.text).toBe(400);
    expect(await state(s)).toEqual(before);
    expect(await eventRecorded(stale.id)).toBe(false);
    expect(await eventRecorded(ahead.id)).toBe(false);
  });

  it.each(["id", "timestamp", "signature"] as const)("a request without the svix-%s header gets 400", async (name) => {
    const s = await scenario();
    const before = await state(s);
    const res = await send(bounced(s.providerId), { omit: [name] });
    expect(res.status, res.text).toBe(400);
    expect(await state(s)).toEqual(before);
  });

  it("the unbranded webhook-* headers of Standard Webhooks are accepted too", async () => {
    const id = newEventId();
    const at = new Date();
    const body = JSON.stringify(event("email.opened", `re_${crypto.randomUUID()}`));
    const res = await request(PATH, {
      method: "POST",
      headers: {
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
        "webhook-signature": await sign(SECRET, id, at, body),
      },
      body,
    });
    expect(res.status, await res.text()).toBe(200);
    expect(await eventRecorded(id)).toBe(true);
  });

  it("a body over 64 KiB gets 413; a signed body that is not JSON gets 400; other methods and paths 404", async () => {
    const big = await send(null, { raw: `{"type":"email.delivered","pad":"${"x".repeat(70 * 1024)}"}` });
    expect(big.status).toBe(413);
    expect(await eventRecorded(big.id)).toBe(false);
    const notJson = await send(null, { raw: "not json" });
    expect(notJson.status, notJson.text).toBe(400);
    expect(await eventRecorded(notJson.id)).toBe(false);
    expect((await get(PATH)).status).toBe(404);
    expect((await request("/webhooks/other", { method: "POST", body: "{}" })).status).toBe(404);
  });
});

describe("hostile input", () => {
  /** A header value a client can send: printable ASCII, no line breaks. */
  const headerText = fc.string({ unit: "grapheme-ascii", maxLength: 80 }).map((t) => t.replace(/[^\x20-\x7e]/g, ""));

  it("random headers and bodies, signed or not, never answer 500", async () => {
    const s = await scenario();
    const eventLike = fc.record({
      type: fc.oneof(
        fc.constantFrom("email.bounced", "email.complained", "email.delivered", "email.sent", ""),
        fc.anything(),
      ),
      created_at: fc.oneof(
        fc.string(),
        fc.anything(),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
      data: fc.oneof(
        fc.anything(),
        fc.record({
          email_id: fc.oneof(fc.constant(s.providerId), fc.string(), fc.anything()),
          to: fc.oneof(fc.array(fc.string()), fc.anything()),
          bounce: fc.oneof(
            fc.record({
              type: fc.oneof(fc.constantFrom("Permanent", "Transient"), fc.anything()),
              message: fc.anything(),
            }),
            fc.anything(),
          ),
        }),
      ),
    });
    const body = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.json(),
      eventLike.map((e) => JSON.stringify(e)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record({ body, id: headerText, timestamp: headerText, signature: headerText, signIt: fc.boolean() }),
        async ({ body: raw, id, timestamp, signature, signIt }) => {
          const res = signIt
            ? await send(null, { raw, id: `${newEventId()}${id}` })
            : await send(null, { raw, id, signature, timestamp });
          expect([200, 400, 413], `${res.status} ${res.text.slice(0, 200)} for ${raw.slice(0, 200)}`).toContain(
            res.status,
          );
          if (!signIt) expect(res.status).toBe(400);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("a hard bounce", () => {
  it("marks the delivery 'bounced' with the message, the debtor 'bouncing', and pauses their schedules", async () => {
    const s = await scenario();
    const before = await state(s);
    const t0 = Date.now();
    const res = await send(bounced(s.providerId));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ ok: true });
    expect(await eventRecorded(res.id)).toBe(true);

    expect(await deliveryRow(s.deliveryId)).toMatchObject({
      status: "bounced",
      error: "550 5.1.1 The email account does not exist.",
    });
    expect(await debtorRow(s.debtor.id)).toMatchObject({ status: "bouncing" });
    const rows = await schedulesOfDebtor(s.debtor.id);
    for (const id of s.live) {
      const row = rows.find((r) => r.id === id);
      // Paused, not deleted: a user can resume it once the address is fixed.
      expect(row).toMatchObject({ state: "DISABLED", stopped_reason: "bounced", next_run_at: null });
      expect(row!.updated_at).toBeGreaterThanOrEqual(t0);
      expect(await alarmAt(id)).toBeNull();
    }
    expect(rows.find((r) => r.id === s.completed)).toEqual(before.schedules.find((r) => r.id === s.completed));
    // The owner's other debtor is untouched.
    expect(await debtorRow(s.other.id)).toEqual(before.other);
    expect(await schedulesOfDebtor(s.other.id)).toEqual(before.otherSchedules);
    expect(await alarmAt(s.otherSchedule)).not.toBeNull();
  });

  it("a paused schedule's alarm, should it still fire, sends nothing", async () => {
    const s = await scenario();
    expect((await send(bounced(s.providerId))).status).toBe(200);
    const [first] = s.live;
    await stubOf(first!).arm(first!, Date.now() + HOUR, { force: true });
    await runDurableObjectAlarm(stubOf(first!));
    const count = await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE schedule_id = ?")
      .bind(first)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
    expect(await alarmAt(first!)).toBeNull();
  });

  it("leaves an opted-out debtor opted out", async () => {
    const s = await scenario();
    await env.DB.prepare("UPDATE debtors SET status = 'opted_out' WHERE id = ?").bind(s.debtor.id).run();
    expect((await send(bounced(s.providerId))).status).toBe(200);
    expect(await debtorRow(s.debtor.id)).toMatchObject({ status: "opted_out" });
    expect(await deliveryRow(s.deliveryId)).toMatchObject({ status: "bounced" });
  });

  it("a repeated event id changes nothing the second time", async () => {
    const s = await scenario();
    const first = await send(bounced(s.providerId));
    expect(first.status, first.text).toBe(200);
    // The user fixes things meanwhile: the debtor active again, a schedule resumed, the delivery as it was.
    await env.DB.prepare("UPDATE debtors SET status = 'active' WHERE id = ?").bind(s.debtor.id).run();
    await setSchedule(s.live[0]!, { state: "ENABLED", stopped_reason: null, next_run_at: Date.now() + HOUR });
    await stubOf(s.live[0]!).arm(s.live[0]!, Date.now() + HOUR, { force: true });
    await env.DB.prepare("UPDATE deliveries SET status = 'sent', error = NULL WHERE id = ?").bind(s.deliveryId).run();
    const between = await state(s);

    // Resend retries the same event (same svix-id), freshly signed.
    const again = await send(bounced(s.providerId), { id: first.id });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toEqual({ ok: true, duplicate: true });
    expect(await state(s)).toEqual(between);
  });
});

describe("other events", () => {
  it("a soft (transient) bounce changes nothing but is recorded as seen", async () => {
    const s = await scenario();
    const before = await state(s);
    const res = await send(bounced(s.providerId, "Transient", "Mailbox full"));
    expect(res.status, res.text).toBe(200);
    expect(await state(s)).toEqual(before);
    expect(await eventRecorded(res.id)).toBe(true);
  });

  it("a complaint marks the delivery 'complained' and opts the address out of the owner's reminders", async () => {
    const s = await scenario();
    const res = await send(event("email.complained", s.providerId));
    expect(res.status, res.text).toBe(200);
    expect(await deliveryRow(s.deliveryId)).toMatchObject({ status: "complained" });
    expect(await debtorRow(s.debtor.id)).toMatchObject({ status: "opted_out" });
    expect(await optOutRows(s.owner)).toMatchObject([{ email: s.debtor.email.toLowerCase() }]);
    for (const id of s.live) {
      expect((await schedulesOfDebtor(s.debtor.id)).find((r) => r.id === id)).toMatchObject({
        state: "COMPLETED",
        stopped_reason: "opted_out",
        next_run_at: null,
      });
      expect(await alarmAt(id)).toBeNull();
    }
    expect(await alarmAt(s.otherSchedule)).not.toBeNull();
    expect(await debtorRow(s.other.id)).toMatchObject({ status: "active" });
  });

  it("a delivered event records the delivery time, once", async () => {
    const s = await scenario();
    const at = Date.parse("2030-01-02T03:04:05.678Z");
    const res = await send({ ...event("email.delivered", s.providerId), created_at: new Date(at).toISOString() });
    expect(res.status, res.text).toBe(200);
    expect(await deliveryRow(s.deliveryId)).toMatchObject({ status: "sent", delivered_at: at });
    const later = await send({
      ...event("email.delivered", s.providerId),
      created_at: new Date(at + HOUR).toISOString(),
    });
    expect(later.status).toBe(200);
    expect(await deliveryRow(s.deliveryId)).toMatchObject({ delivered_at: at });
  });

  it("an e-mail id Dunly does not know, or an unknown type, answers 200 and changes nothing", async () => {
    const s = await scenario();
    const before = await state(s);
    const unknownId = await send(bounced(`re_${crypto.randomUUID()}`));
    expect(unknownId.status, unknownId.text).toBe(200);
    const unknownType = await send(event("email.clicked", s.providerId));
    expect(unknownType.status, unknownType.text).toBe(200);
    const noData = await send({ type: "contact.created", created_at: new Date().toISOString(), data: {} });
    expect(noData.status, noData.text).toBe(200);
    expect(await state(s)).toEqual(before);
    for (const id of [unknownId.id, unknownType.id, noData.id]) expect(await eventRecorded(id)).toBe(true);
  });
});

describe("the user sees it", () => {
  it("the report labels the bounce and shows its message; a complaint reads 'Marked as spam'", async () => {
    const user = await signIn(uniqueEmail("webhook-report"));
    const s = await scenario(user.userId);
    const complainedId = `re_${crypto.randomUUID()}`;
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient, provider_id, sent_at) VALUES (?, ?, ?, ?, 'initial', 1, 'sent', ?, ?, ?)",
    )
      .bind(user.userId, s.otherSchedule, s.other.id, `${s.otherSchedule}:1`, s.other.email, complainedId, Date.now())
      .run();
    expect((await send(bounced(s.providerId, "Permanent", "Mailbox does not exist"))).status).toBe(200);
    expect((await send(event("email.complained", complainedId))).status).toBe(200);

    const html = await pageText(await get("/report", { cookie: user.cookie }));
    expect(html).toContain("Bounced");
    expect(html).toContain("Mailbox does not exist");
    expect(html).toContain("Marked as spam");
  });

  it("the dashboard says how many debtors' addresses bounce, with a link to the debtors", async () => {
    const user = await signIn(uniqueEmail("webhook-dashboard"));
    const page = async () => {
      let res = await get("/dashboard", { cookie: user.cookie });
      const to = location(res);
      // No debtor chosen: the dashboard redirects to its first one.
      if (res.status === 302 && to) res = await get(to.pathname + to.search, { cookie: user.cookie });
      expect(res.status).toBe(200);
      return pageText(res);
    };
    expect(await page()).not.toContain("is bouncing");

    const s = await scenario(user.userId);
    expect((await send(bounced(s.providerId))).status).toBe(200);
    const html = await page();
    expect(html).toContain("1 debtor's address is bouncing: reminders to them are paused.");
    expect(html).toMatch(/href="\/debtors-list"[^>]*>Review debtors</);

    await env.DB.prepare("UPDATE debtors SET status = 'bouncing' WHERE id = ?").bind(s.other.id).run();
    expect(await page()).toContain("2 debtors' addresses are bouncing: reminders to them are paused.");
  });

  it("the paused schedules resume only once the debtor's address is changed", async () => {
    const user = await signIn(uniqueEmail("webhook-resume"));
    const s = await scenario(user.userId);
    expect((await send(bounced(s.providerId))).status).toBe(200);
    const refused = await act({ intent: "schedule-resume", ids: s.live[0] }, { cookie: user.cookie });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.message).toContain("Bea Bounce's e-mail address bounced");

    await env.DB.prepare("UPDATE debtors SET email = ? WHERE id = ?").bind(uniqueEmail("fixed"), s.debtor.id).run();
    const resumed = await act({ intent: "schedule-resume", ids: s.live }, { cookie: user.cookie });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body).toMatchObject({ ok: true, count: 2 });
    for (const id of s.live) expect(await alarmAt(id)).not.toBeNull();
    expect(await debtorRow(s.debtor.id)).toMatchObject({ status: "active" });
  });

  it("another user's dashboard does not count them", async () => {
    const owner = await signIn(uniqueEmail("webhook-owner"));
    const stranger = await signIn(uniqueEmail("webhook-stranger"));
    const s = await scenario(owner.userId);
    expect((await send(bounced(s.providerId))).status).toBe(200);
    const res = await get("/dashboard", { cookie: stranger.cookie });
    expect(res.status).toBe(200);
    expect(await pageText(res)).not.toContain("is bouncing");
  });
});
