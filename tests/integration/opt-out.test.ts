import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OPT_OUT_SECRET_MISSING, optOutLink } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { isOptedOut, optOutAddress, renewConsent } from "~/responses/opt-outs.server";
import { reminderMessage } from "../support/email-fixtures";
import { formAction } from "./data-helpers";
import { alarmAt, HOUR, resendRequests, stubOf } from "./engine-helpers";
import { db, debtorRow, makeDebtor, makeSchedule, makeUser, optOutRows, scheduleRow, setSchedule } from "./fixtures";
import { get, pageText, postForm, request, signIn, uniqueEmail, uniqueIp, visibleText } from "./helpers";

/**
 * Opt-out: the signed link of every reminder (app/links/signed-links.server.ts), its
 * page and RFC 8058 one-click POST (app/routes/unsubscribe.tsx), what opting out stops
 * (app/responses/opt-outs.server.ts), and recording renewed consent (app/actions/consent-action.server.ts).
 */

const config = () => readConfig(env);

const CONFIRM_TEXT = "Stop payment reminders from";
const DONE_TEXT = "You will not get any more reminders from";
const INVALID_TEXT = "This link is no longer valid.";
const UNCONFIRMED = "Please confirm that the debtor agreed to receive reminders again.";

/** A debtor (no opt-out key yet, as raw SQL leaves it) with an armed schedule, and its opt-out link's path. */
async function setUp(ownerName = "Sally Sender", email = uniqueEmail("debtor")) {
  const user = await makeUser(ownerName);
  const debtor = await makeDebtor(user.id, { email });
  const scheduleId = await armedSchedule(user.id, debtor.id);
  const url = await optOutLink(db(), config(), { id: debtor.id, ownerId: user.id, optOutKey: null });
  return { user, debtor, scheduleId, url, path: new URL(url).pathname };
}

async function armedSchedule(ownerId: string, debtorId: number) {
  const id = await makeSchedule(ownerId, debtorId);
  // An hour ahead: armed, but the runtime does not fire it during the test.
  await stubOf(id).arm(id, Date.now() + HOUR, { force: true });
  return id;
}

/** What a mail client sends for List-Unsubscribe-Post (RFC 8058): no cookie, no Origin, no Referer. */
function oneClick(path: string) {
  return request(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": uniqueIp(),
    },
    body: "List-Unsubscribe=One-Click",
  });
}

/** Everything opting out may change for one user's debtor and schedule. */
async function state(ownerId: string, debtorId: number, scheduleId: string) {
  const debtor = await debtorRow(debtorId);
  const schedule = await scheduleRow(scheduleId);
  return {
    optOuts: await optOutRows(ownerId),
    debtor: { status: debtor?.status, updatedAt: debtor?.updated_at },
    schedule: {
      state: schedule?.state,
      stoppedReason: schedule?.stopped_reason,
      nextRunAt: schedule?.next_run_at,
      updatedAt: schedule?.updated_at,
    },
    alarm: await alarmAt(scheduleId),
  };
}

/** One character of `text` at `index` replaced by another of the base64url alphabet. */
function changeChar(text: string, index: number, to?: string) {
  const i = index < 0 ? text.length + index : index;
  const c = text[i]!;
  const replacement = to ?? (c === "a" ? "b" : "a");
  return text.slice(0, i) + replacement + text.slice(i + 1);
}

describe("the opt-out link", () => {
  it("is <origin>/u/<random key>.<signature>: nothing in it names the debtor or the user", async () => {
    const { user, debtor, url } = await setUp();
    const parsed = new URL(url);
    // Tests set no APP_ORIGIN: links point at the dev server.
    expect(parsed.origin).toBe("http://localhost:5173");
    expect(parsed.pathname).toMatch(/^\/u\/[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/);
    expect(url).not.toContain(user.id);
    expect(url).not.toContain(debtor.email);
    expect(url).not.toMatch(/[\r\n]/);
  });

  it("gives a debtor without a key one, once: the next link is the same", async () => {
    const { user, debtor, url } = await setUp();
    const key = (await debtorRow(debtor.id))?.opt_out_key;
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(url).toContain(`/u/${key}.`);
    const again = await optOutLink(db(), config(), { id: debtor.id, ownerId: user.id, optOutKey: null });
    expect(again).toBe(url);
    expect(await optOutLink(db(), config(), { id: debtor.id, ownerId: user.id, optOutKey: key! })).toBe(url);
  });

  it("cannot be made without OPT_OUT_SECRET", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    await expect(
      optOutLink(
        db(),
        { ...config(), OPT_OUT_SECRET: undefined },
        { id: debtor.id, ownerId: user.id, optOutKey: null },
      ),
    ).rejects.toThrow(OPT_OUT_SECRET_MISSING);
    expect(OPT_OUT_SECRET_MISSING).toBe("OPT_OUT_SECRET is not set: opt-out links cannot be signed");
    // Nothing was written either.
    expect((await debtorRow(debtor.id))?.opt_out_key).toBeNull();
  });

  it("is in the reminder: List-Unsubscribe, one-click List-Unsubscribe-Post, and 'Stop them here' that opens the page", async () => {
    const { debtor, url, path } = await setUp("Sally Sender");
    const message = reminderMessage(debtor.email, {
      receiverName: debtor.fullName,
      statement: [{ number: null, dueOn: "2027-03-05", balanceCents: debtor.debtCents, currency: debtor.currency }],
      unsubscribeUrl: url,
      paidUrl: url.replace("/u/", "/p/"),
    });
    const result = await env.MAILER.sendReminder(message, `opt-out-${Date.now()}-${Math.random()}`);
    expect(result).toMatchObject({ ok: true, via: "resend" });
    const [sent] = await resendRequests(debtor.email);
    expect(sent!.body.headers).toEqual({
      "List-Unsubscribe": `<${url}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    const html = String(sent!.body.html);
    const href = /<a [^>]*href="([^"]+)"[^>]*>Stop them here<\/a>/.exec(html)?.[1];
    expect(href).toBe(url);
    expect(String(sent!.body.text)).toContain(`Stop them here <${url}>`);
    // The link from the e-mail opens the confirmation page.
    const page = await get(new URL(href!).pathname);
    expect(page.status).toBe(200);
    expect(await visibleText(page)).toContain(`${CONFIRM_TEXT} Sally Sender`);
    expect(new URL(href!).pathname).toBe(path);
  });
});

describe("GET /u/:token", () => {
  it("asks, naming the sender and the masked address, never the full address, and changes nothing", async () => {
    const { user, debtor, scheduleId, path } = await setUp("Sally Sender");
    const before = await state(user.id, debtor.id, scheduleId);
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
    // Not in the markup, not in the hydration data either.
    const raw = await pageText(res.clone());
    expect(raw).not.toContain(debtor.email);
    expect(raw).not.toContain(user.id);
    const text = await visibleText(res);
    const [local, domain] = debtor.email.split("@");
    expect(text).toContain(`${CONFIRM_TEXT} Sally Sender to`);
    expect(text).toContain(`${local![0]}•••${local!.at(-1)}@${domain}`);
    expect(text).toContain("Stop reminders");
    expect(text).not.toContain(debtor.email);
    // What is still owed: the debtor's open invoice.
    expect(text).toContain("$1,234.50");
    expect(text).not.toContain(debtor.fullName);
    expect(await state(user.id, debtor.id, scheduleId)).toEqual(before);
    expect(before.optOuts).toEqual([]);
    expect(before.alarm).toEqual(expect.any(Number));
  });

  it("needs no session: a signed-in user of another account sees the same page", async () => {
    const { path } = await setUp("Sally Sender");
    const stranger = await signIn();
    const res = await get(path, { cookie: stranger.cookie });
    expect(res.status).toBe(200);
    expect(await visibleText(res)).toContain(`${CONFIRM_TEXT} Sally Sender`);
  });
});

describe("tokens that are refused: 404 'This link is no longer valid.', and nothing changes", () => {
  async function expectRefused(path: string, victim: Awaited<ReturnType<typeof setUp>>) {
    const before = await state(victim.user.id, victim.debtor.id, victim.scheduleId);
    const page = await get(path);
    expect(page.status, path).toBe(404);
    expect(await visibleText(page), path).toContain(INVALID_TEXT);
    const post = await oneClick(path);
    expect(post.status, path).toBe(404);
    expect(await visibleText(post), path).toContain(INVALID_TEXT);
    const form = await postForm(path, {});
    expect(form.status, path).toBe(404);
    expect(await state(victim.user.id, victim.debtor.id, victim.scheduleId)).toEqual(before);
    expect(before.optOuts).toEqual([]);
  }

  it("forged: a random key and signature", async () => {
    const victim = await setUp();
    const hex = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
    const sig = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    await expectRefused(`/u/${hex}.${sig}`, victim);
  });

  it("forged: the real key with a signature made with another secret", async () => {
    const victim = await setUp();
    const key = victim.path.slice(3).split(".")[0]!;
    const other = await optOutLink(
      db(),
      { ...config(), OPT_OUT_SECRET: "not-the-secret" },
      { id: victim.debtor.id, ownerId: victim.user.id, optOutKey: key },
    );
    expect(new URL(other).pathname).not.toBe(victim.path);
    await expectRefused(new URL(other).pathname, victim);
  });

  it("altered: one character of the key, or of the signature (first, middle, last)", async () => {
    const victim = await setUp();
    const [key, sig] = victim.path.slice(3).split(".") as [string, string];
    for (const path of [
      `/u/${changeChar(key, 0)}.${sig}`,
      `/u/${changeChar(key, -1)}.${sig}`,
      `/u/${key}.${changeChar(sig, 0)}`,
      `/u/${key}.${changeChar(sig, 20)}`,
      `/u/${key}.${changeChar(sig, -1)}`,
      `/u/${key.toUpperCase()}.${sig}`,
      `/u/${key}.${sig}A`,
      `/u/${key}.${sig.slice(0, -1)}`,
      `/u/${key}${sig}`,
      `/u/${key}..${sig}`,
    ]) {
      await expectRefused(path, victim);
    }
  });

  it("altered: the signature's last character with only its spare bits changed (same bytes when decoded)", async () => {
    const victim = await setUp();
    const [key, sig] = victim.path.slice(3).split(".") as [string, string];
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(sig.at(-1)!);
    // 43 characters carry 258 bits for 256: the last character's two low bits are padding.
    const twin = alphabet[last ^ 1]!;
    await expectRefused(`/u/${key}.${changeChar(sig, -1, twin)}`, victim);
  });

  it("for another debtor: debtor A's key with debtor B's signature, and B's key with A's", async () => {
    const a = await setUp();
    const b = await setUp();
    const [keyA, sigA] = a.path.slice(3).split(".") as [string, string];
    const [keyB, sigB] = b.path.slice(3).split(".") as [string, string];
    await expectRefused(`/u/${keyA}.${sigB}`, a);
    await expectRefused(`/u/${keyB}.${sigA}`, b);
  });

  it("for another debtor of the same user: the key of one with the other's signature", async () => {
    const a = await setUp();
    const other = await makeDebtor(a.user.id);
    const url = await optOutLink(db(), config(), { id: other.id, ownerId: a.user.id, optOutKey: null });
    const [keyA] = a.path.slice(3).split(".") as [string, string];
    const [, sigOther] = new URL(url).pathname.slice(3).split(".") as [string, string];
    await expectRefused(`/u/${keyA}.${sigOther}`, a);
  });

  it("garbage and very long tokens", async () => {
    const victim = await setUp();
    const key = victim.path.slice(3).split(".")[0]!;
    for (const token of [
      "x",
      "a.b",
      key,
      `${key}.`,
      "%00",
      "%E2%80%A2",
      encodeURIComponent("<script>alert(1)</script>"),
      encodeURIComponent(`${key}.' OR 1=1 --`),
      `${key}.${"A".repeat(5000)}`,
      "z".repeat(20_000),
    ]) {
      await expectRefused(`/u/${token}`, victim);
    }
  });

  it("hostile tokens, methods and bodies never answer 500 and never opt anyone out", async () => {
    const victim = await setUp();
    const [key, sig] = victim.path.slice(3).split(".") as [string, string];
    const before = await state(victim.user.id, victim.debtor.id, victim.scheduleId);
    const token = fc.oneof(
      fc.string({ unit: "binary", maxLength: 80 }),
      fc.string({ unit: "grapheme", maxLength: 80 }),
      fc.stringMatching(/^[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/),
      // The real token with one character replaced, inserted or removed.
      fc
        .record({ at: fc.nat({ max: key.length + sig.length }), c: fc.string({ minLength: 0, maxLength: 1 }) })
        .map(({ at, c }) => {
          const real = `${key}.${sig}`;
          const out = real.slice(0, at) + c + real.slice(at + 1);
          return out === real ? `${out}x` : out;
        }),
    );
    const body = fc.oneof(
      fc.constant("List-Unsubscribe=One-Click"),
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.constant(""),
    );
    const contentType = fc.constantFrom(
      "application/x-www-form-urlencoded",
      "multipart/form-data",
      "multipart/form-data; boundary=x",
      "text/plain",
      "application/json",
    );
    await fc.assert(
      fc.asyncProperty(
        token,
        fc.constantFrom("GET", "POST", "HEAD"),
        body,
        contentType,
        fc.boolean(),
        async (t, method, b, type, data) => {
          const path = `/u/${encodeURIComponent(t)}${data ? ".data" : ""}`;
          const res = await request(path, {
            method,
            headers: { "Content-Type": type, "CF-Connecting-IP": uniqueIp() },
            body: method === "POST" ? b : undefined,
          });
          await res.arrayBuffer();
          expect(res.status, `${method} ${path.slice(0, 200)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 80 },
    );
    expect(await state(victim.user.id, victim.debtor.id, victim.scheduleId)).toEqual(before);
  });

  it("an empty token is no opt-out page: 404", async () => {
    const victim = await setUp();
    // ("/u/." is "/u/" once the URL is parsed.)
    for (const path of ["/u/", "/u", "/u/."]) expect((await get(path)).status).toBe(404);
    expect((await oneClick("/u/")).status).toBe(404);
    // "/u" is not under /u/: the Origin check refuses the POST before anything else.
    expect((await oneClick("/u")).status).toBe(403);
    expect(await optOutRows(victim.user.id)).toEqual([]);
  });
});

describe("POST /u/:token", () => {
  it("one-click (RFC 8058) without cookie or Origin: 200, the address is opted out, its schedules complete and their alarms go", async () => {
    const { user, debtor, scheduleId, path } = await setUp("Sally Sender");
    const disabled = await armedSchedule(user.id, debtor.id);
    await setSchedule(disabled, { state: "DISABLED" });
    const completed = await makeSchedule(user.id, debtor.id);
    await setSchedule(completed, { state: "COMPLETED", next_run_at: null });
    const completedBefore = await scheduleRow(completed);

    const res = await oneClick(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(res.headers.get("Set-Cookie")).toBeNull();
    const text = await visibleText(res);
    expect(text).toContain(`${DONE_TEXT} Sally Sender at this address.`);
    expect(text).not.toContain(debtor.email);

    expect((await optOutRows(user.id)).map((r) => r.email)).toEqual([debtor.email.toLowerCase()]);
    expect(await isOptedOut(db(), user.id, debtor.email.toUpperCase())).toBe(true);
    expect((await debtorRow(debtor.id))?.status).toBe("opted_out");
    for (const id of [scheduleId, disabled]) {
      const row = await scheduleRow(id);
      expect({ state: row?.state, reason: row?.stopped_reason, next: row?.next_run_at }).toEqual({
        state: "COMPLETED",
        reason: "opted_out",
        next: null,
      });
      expect(await alarmAt(id)).toBeNull();
    }
    // A schedule that had already finished is left as it was.
    expect(await scheduleRow(completed)).toEqual(completedBefore);
  });

  it("is idempotent: a second one-click answers the same 200 and changes nothing more", async () => {
    const { user, debtor, scheduleId, path } = await setUp("Sally Sender");
    const first = await oneClick(path);
    expect(first.status).toBe(200);
    const after = await state(user.id, debtor.id, scheduleId);
    const second = await oneClick(path);
    expect(second.status).toBe(200);
    expect(await visibleText(second)).toContain(`${DONE_TEXT} Sally Sender at this address.`);
    expect(await state(user.id, debtor.id, scheduleId)).toEqual(after);
    expect(after.optOuts).toHaveLength(1);
    // And the model says so too: nothing touched.
    expect(await optOutAddress({ env, db: db() }, user.id, debtor.email)).toEqual({ debtorIds: [], scheduleIds: [] });
    expect(await state(user.id, debtor.id, scheduleId)).toEqual(after);
  });

  it("the page's button (a same-origin form post) does the same, and the page then says it is done", async () => {
    const { user, debtor, scheduleId, path } = await setUp("Sally Sender");
    const res = await postForm(path, {});
    expect(res.status).toBe(200);
    expect(await visibleText(res)).toContain(`${DONE_TEXT} Sally Sender at this address.`);
    expect((await state(user.id, debtor.id, scheduleId)).schedule.stoppedReason).toBe("opted_out");
    const again = await get(path);
    expect(again.status).toBe(200);
    const text = await visibleText(again);
    expect(text).toContain(`${DONE_TEXT} Sally Sender at this address.`);
    expect(text).not.toContain(CONFIRM_TEXT);
  });

  it("stops every debtor of the same user with that address (any case), but not the same address at another user", async () => {
    const email = uniqueEmail("shared");
    const { user, debtor, path } = await setUp("Sally Sender", email);
    const twin = await makeDebtor(user.id, { email: email.toUpperCase() });
    const twinSchedule = await armedSchedule(user.id, twin.id);
    const unrelated = await makeDebtor(user.id);
    const unrelatedSchedule = await armedSchedule(user.id, unrelated.id);
    const otherUser = await makeUser("Olga Other");
    const elsewhere = await makeDebtor(otherUser.id, { email });
    const elsewhereSchedule = await armedSchedule(otherUser.id, elsewhere.id);
    const elsewhereBefore = await state(otherUser.id, elsewhere.id, elsewhereSchedule);
    const unrelatedBefore = await state(user.id, unrelated.id, unrelatedSchedule);

    expect((await oneClick(path)).status).toBe(200);

    expect((await debtorRow(debtor.id))?.status).toBe("opted_out");
    expect((await debtorRow(twin.id))?.status).toBe("opted_out");
    expect((await scheduleRow(twinSchedule))?.stopped_reason).toBe("opted_out");
    expect(await alarmAt(twinSchedule)).toBeNull();

    const unrelatedAfter = await state(user.id, unrelated.id, unrelatedSchedule);
    expect({ ...unrelatedAfter, optOuts: [] }).toEqual({ ...unrelatedBefore, optOuts: [] });
    expect(await state(otherUser.id, elsewhere.id, elsewhereSchedule)).toEqual(elsewhereBefore);
    expect(await isOptedOut(db(), otherUser.id, email)).toBe(false);
  });
});

describe("recording renewed consent (intent debtor-consent)", () => {
  async function optedOutDebtorOf(cookieUser: { userId: string }, fields: { paidCents?: number } = {}) {
    const debtor = await makeDebtor(cookieUser.userId, fields);
    const scheduleId = await armedSchedule(cookieUser.userId, debtor.id);
    await optOutAddress({ env, db: db() }, cookieUser.userId, debtor.email);
    return { debtor, scheduleId };
  }

  it("without the confirmation: 400 with the message, and nothing changes", async () => {
    const owner = await signIn();
    const { debtor } = await optedOutDebtorOf(owner);
    const attempts: Record<string, string>[] = [{}, { confirm: "" }, { confirm: "yes" }, { confirm: "on" }];
    for (const fields of attempts) {
      const { status, data } = await formAction(
        "/debtors-list",
        { intent: "debtor-consent", id: String(debtor.id), ...fields },
        owner.cookie,
      );
      expect(status).toBe(400);
      expect(data).toMatchObject({ intent: "debtor-consent", ok: false, message: UNCONFIRMED });
    }
    expect(await isOptedOut(db(), owner.userId, debtor.email)).toBe(true);
    expect((await debtorRow(debtor.id))?.status).toBe("opted_out");
  });

  it("confirmed: the opt-out is deleted and every debtor with that address is active again ('paid' when paid); schedules stay stopped", async () => {
    const owner = await signIn();
    const email = uniqueEmail("again");
    const debtor = await makeDebtor(owner.userId, { email });
    const paidTwin = await makeDebtor(owner.userId, { email, debtCents: 1000, paidCents: 1000 });
    const scheduleId = await armedSchedule(owner.userId, debtor.id);
    await optOutAddress({ env, db: db() }, owner.userId, email);
    expect((await debtorRow(paidTwin.id))?.status).toBe("opted_out");

    const { status, data } = await formAction(
      "/dashboard",
      { intent: "debtor-consent", id: String(debtor.id), confirm: "renewed-consent" },
      owner.cookie,
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({ intent: "debtor-consent", ok: true });
    expect(await optOutRows(owner.userId)).toEqual([]);
    expect((await debtorRow(debtor.id))?.status).toBe("active");
    expect((await debtorRow(paidTwin.id))?.status).toBe("paid");
    expect(await scheduleRow(scheduleId)).toMatchObject({ state: "COMPLETED", stopped_reason: "opted_out" });
  });

  it("another user's debtor id: 404, and nothing of theirs changes", async () => {
    const victim = await signIn();
    const { debtor, scheduleId } = await optedOutDebtorOf(victim);
    const before = await state(victim.userId, debtor.id, scheduleId);
    const attacker = await signIn();
    for (const id of [String(debtor.id), "999999999", "abc", "-1", ""]) {
      const { status, data } = await formAction(
        "/debtors-list",
        { intent: "debtor-consent", id, confirm: "renewed-consent" },
        attacker.cookie,
      );
      expect(status, id).toBe(404);
      expect(data).toMatchObject({ intent: "debtor-consent", ok: false });
    }
    expect(await state(victim.userId, debtor.id, scheduleId)).toEqual(before);
  });

  it("needs a session: a visitor is sent to sign in and nothing changes", async () => {
    const owner = await signIn();
    const { debtor } = await optedOutDebtorOf(owner);
    const res = await postForm("/debtors-list", {
      intent: "debtor-consent",
      id: String(debtor.id),
      confirm: "renewed-consent",
    });
    expect(res.status).toBeGreaterThanOrEqual(300);
    expect(res.status).toBeLessThan(500);
    expect(await isOptedOut(db(), owner.userId, debtor.email)).toBe(true);
  });

  it("after renewed consent the link asks again, and a new one-click opts out again", async () => {
    const { user, debtor, path } = await setUp("Sally Sender");
    expect((await oneClick(path)).status).toBe(200);
    expect(await renewConsent(db(), user.id, debtor.id)).toBe(true);
    expect(await isOptedOut(db(), user.id, debtor.email)).toBe(false);
    expect(await visibleText(await get(path))).toContain(CONFIRM_TEXT);
    expect((await oneClick(path)).status).toBe(200);
    expect(await isOptedOut(db(), user.id, debtor.email)).toBe(true);
    // Another owner's id changes nothing and says so.
    const stranger = await makeUser();
    expect(await renewConsent(db(), stranger.id, debtor.id)).toBe(false);
    expect(await isOptedOut(db(), user.id, debtor.email)).toBe(true);
  });
});
