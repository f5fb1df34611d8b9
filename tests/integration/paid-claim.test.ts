import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { paidClaimLink } from "~/links/debtor-pages.server";
import { optOutLink } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { getStatement } from "~/reminders/statement.server";
import { CONFIRMED_PAYMENT_NOTE } from "~/schemas/messages";
import { formAction, replyErrors } from "./data-helpers";
import { alarmAt, HOUR, stubOf } from "./engine-helpers";
import {
  db,
  debtorRow,
  eventsOf,
  makeDebtor,
  makeInvoice,
  makeSchedule,
  payInvoice,
  paymentsOf,
  scheduleRow,
  setSchedule,
} from "./fixtures";
import { get, pageText, postForm, request, sayPaid, signIn, uniqueEmail, uniqueIp, visibleText } from "./helpers";
import { loaderData } from "./schedule-helpers";

/**
 * "I've paid": the signed /p/ link, its page (GET shows the form, POST records what the debtor says
 * they paid and holds those invoices), the dashboard's notice, and confirming or rejecting from it.
 */

const config = () => readConfig(env);
const ASK = "you have paid";
const THANKS = "has been told that you paid";
const CLAIMED_DETAIL = expect.stringMatching(/^paid on \d{4}-\d{2}-\d{2}$/);
const INVALID = "This link is no longer valid.";

async function armed(ownerId: string, debtorId: number) {
  const id = await makeSchedule(ownerId, debtorId);
  await stubOf(id).arm(id, Date.now() + HOUR, { force: true });
  return id;
}

/** A signed-in user with a debtor, two armed schedules and one the user paused, and the debtor's links. */
async function setUp() {
  const user = await signIn(uniqueEmail("claim-owner"));
  await env.DB.prepare("UPDATE users SET full_name = 'Sally Sender' WHERE id = ?").bind(user.userId).run();
  const debtor = await makeDebtor(user.userId, { debtCents: 50000, paidCents: 0 });
  const live = [await armed(user.userId, debtor.id), await armed(user.userId, debtor.id)];
  const userPaused = await makeSchedule(user.userId, debtor.id);
  await setSchedule(userPaused, { state: "DISABLED", next_run_at: null });
  // The setup's own 'schedule_created' events: the tests look at what the claim records.
  await env.DB.prepare("DELETE FROM debtor_events WHERE debtor_id = ?").bind(debtor.id).run();
  const keyless = { id: debtor.id, ownerId: user.userId, optOutKey: null };
  const paidUrl = await paidClaimLink(db(), config(), keyless);
  const optOutUrl = await optOutLink(db(), config(), keyless);
  return {
    user,
    debtor,
    live,
    userPaused,
    path: new URL(paidUrl).pathname,
    optOutPath: new URL(optOutUrl).pathname,
  };
}

async function state(debtorId: number, scheduleIds: string[]) {
  const d = await debtorRow(debtorId);
  return {
    debtor: { paidClaimedAt: d?.paid_claimed_at, status: d?.status, paidCents: d?.paid_cents },
    schedules: await Promise.all(
      scheduleIds.map(async (id) => {
        const s = await scheduleRow(id);
        return { state: s?.state, reason: s?.stopped_reason, next: s?.next_run_at, alarm: await alarmAt(id) };
      }),
    ),
    events: await eventsOf(debtorId),
  };
}

/** The page's own form, every open invoice ticked, paid today: a same-origin form POST without a session. */
const press = (path: string) => sayPaid(path);

describe("GET /p/:token", () => {
  it("asks 'Tell <sender> you have paid?' without changing anything; strict-origin referrer, no-store, noindex", async () => {
    const s = await setUp();
    const before = await state(s.debtor.id, [...s.live, s.userPaused]);
    const res = await get(s.path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
    const text = await visibleText(res.clone());
    expect(text).toContain(`Tell Sally Sender ${ASK}`);
    expect(text).toContain("Yes, I have paid");
    const raw = await pageText(res);
    expect(raw).not.toContain(s.debtor.email);
    // What is still owed: the debtor's open invoice.
    expect(text).toContain("$500.00");
    expect(await state(s.debtor.id, [...s.live, s.userPaused])).toEqual(before);
  });
});

describe("POST /p/:token (the page's button)", () => {
  it("records the claim of every open invoice: nothing else to chase, so the enabled schedules hold and are disarmed; records 'paid_claimed'; a repeat changes nothing", async () => {
    const s = await setUp();
    const res = await press(s.path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await visibleText(res)).toContain(`Thank you. Sally Sender ${THANKS}`);
    const after = await state(s.debtor.id, [...s.live, s.userPaused]);
    expect(after.debtor.paidClaimedAt).toEqual(expect.any(Number));
    expect(after.debtor.status).toBe("active");
    for (const sched of after.schedules.slice(0, 2)) {
      expect(sched).toEqual({ state: "DISABLED", reason: "paid_claimed", next: null, alarm: null });
    }
    // The schedule the user paused stays as it was.
    expect(after.schedules[2]).toMatchObject({ state: "DISABLED", reason: null });
    expect(after.events).toMatchObject([{ type: "paid_claimed", detail: CLAIMED_DETAIL }]);

    const again = await press(s.path);
    expect(again.status).toBe(200);
    expect(await visibleText(again)).toContain(THANKS);
    expect(await state(s.debtor.id, [...s.live, s.userPaused])).toEqual(after);
    // The page now says it is done instead of asking.
    expect(await visibleText(await get(s.path))).toContain(THANKS);
  });

  it("needs a same-origin Origin (the page's own form): a cross-site POST is refused and changes nothing", async () => {
    const s = await setUp();
    const before = await state(s.debtor.id, s.live);
    const res = await request(s.path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": uniqueIp() },
      body: "",
    });
    expect(res.status).toBe(403);
    const cross = await postForm(s.path, { paid_on: "2026-01-01" }, { originHeader: "https://evil.example" });
    expect(cross.status).toBe(403);
    expect(await state(s.debtor.id, s.live)).toEqual(before);
  });
});

describe("refused tokens: 404 'This link is no longer valid.' and nothing changes", () => {
  async function expectRefused(path: string, victim: Awaited<ReturnType<typeof setUp>>) {
    const before = await state(victim.debtor.id, victim.live);
    const page = await get(path);
    expect(page.status, path).toBe(404);
    expect(await visibleText(page)).toContain(INVALID);
    const post = await press(path);
    expect(post.status, path).toBe(404);
    expect(await state(victim.debtor.id, victim.live)).toEqual(before);
  }

  it('an "I\'ve paid" token for another debtor (the key of one with the signature of another)', async () => {
    const a = await setUp();
    const b = await setUp();
    const [keyA, sigA] = a.path.slice(3).split(".") as [string, string];
    const [keyB, sigB] = b.path.slice(3).split(".") as [string, string];
    await expectRefused(`/p/${keyA}.${sigB}`, a);
    await expectRefused(`/p/${keyB}.${sigA}`, b);
    // Another debtor of the same user.
    const other = await makeDebtor(a.user.userId);
    const otherUrl = await paidClaimLink(db(), config(), { id: other.id, ownerId: a.user.userId, optOutKey: null });
    const [, sigOther] = new URL(otherUrl).pathname.slice(3).split(".") as [string, string];
    await expectRefused(`/p/${keyA}.${sigOther}`, a);
  });

  it('an opt-out token used as an "I\'ve paid" token, and an "I\'ve paid" token used as an opt-out token', async () => {
    const s = await setUp();
    const optOutToken = s.optOutPath.slice(3);
    const paidToken = s.path.slice(3);
    expect(optOutToken.split(".")[0]).toBe(paidToken.split(".")[0]);
    expect(optOutToken).not.toBe(paidToken);
    await expectRefused(`/p/${optOutToken}`, s);
    // The paid token on the opt-out page: refused, and the address is not opted out.
    const page = await get(`/u/${paidToken}`);
    expect(page.status).toBe(404);
    const post = await postForm(`/u/${paidToken}`, {});
    expect(post.status).toBe(404);
    const optOuts = await env.DB.prepare("SELECT count(*) AS n FROM opt_outs WHERE owner_id = ?")
      .bind(s.user.userId)
      .first<{ n: number }>();
    expect(optOuts?.n).toBe(0);
    expect((await debtorRow(s.debtor.id))?.status).toBe("active");
  });

  it("forged, altered, garbage", async () => {
    const s = await setUp();
    const [key, sig] = s.path.slice(3).split(".") as [string, string];
    const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === "a" ? "b" : "a") + t.slice(i + 1);
    for (const path of [
      `/p/${key}.${flip(sig, 0)}`,
      `/p/${key}.${flip(sig, sig.length - 1)}`,
      `/p/${flip(key, 0)}.${sig}`,
      `/p/${key}`,
      `/p/${key}.`,
      "/p/x",
      `/p/${"z".repeat(5000)}`,
      `/p/${encodeURIComponent("<script>")}`,
    ]) {
      await expectRefused(path, s);
    }
  });
});

describe("the dashboard's notice", () => {
  it("lists '<name> says they have paid' for the owner only", async () => {
    const s = await setUp();
    await press(s.path);
    const data = await loaderData(`/dashboard?debtor=${s.debtor.id}`, "routes/dashboard", s.user.cookie);
    expect(data.paidClaims).toEqual([
      {
        id: s.debtor.id,
        fullName: s.debtor.fullName,
        paidClaimedAt: expect.any(Number),
        owedCents: 50000,
        currency: s.debtor.currency ?? "USD",
        said: expect.stringMatching(/ on \w{3} \d{1,2}, \d{4}$/),
        prefillCents: 50000,
        paidOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        invoiceId: s.debtor.invoiceId,
        reference: null,
      },
    ]);
    const page = await visibleText(await get(`/dashboard?debtor=${s.debtor.id}`, { cookie: s.user.cookie }));
    expect(page).toContain(`${s.debtor.fullName} says they paid `);
    expect(page).toContain("Confirm payment");
    expect(page).toContain("Not received");
    const stranger = await signIn(uniqueEmail("claim-stranger"));
    const theirs = await get("/dashboard", { cookie: stranger.cookie });
    expect(await visibleText(theirs)).not.toContain("says they have paid");
  });

  it("Confirm payment records the payment the user entered (what is still owed, today), completes the schedules, clears the notice, records 'paid_claim_confirmed' in the same batch", async () => {
    const s = await setUp();
    await payInvoice(s.user.userId, s.debtor.id, s.debtor.invoiceId, 10000, "USD", { paidOn: "2026-01-02" });
    await press(s.path);
    const today = new Date().toISOString().slice(0, 10);
    const fields = {
      intent: "paid-claim-confirm",
      debtor_id: String(s.debtor.id),
      amount: "400",
      paid_on: today,
      note: CONFIRMED_PAYMENT_NOTE,
    };
    const { status, data } = await formAction("/dashboard", fields, `${s.user.cookie}; tz=UTC`);
    expect(status).toBe(200);
    expect(data).toMatchObject({
      intent: "paid-claim-confirm",
      ok: true,
      message: "Payment of $400.00 recorded. The debt is paid in full: reminders to this debtor have stopped.",
    });
    expect(await paymentsOf(s.debtor.id)).toMatchObject([
      { amount_cents: 10000, paid_on: "2026-01-02", note: "" },
      { amount_cents: 40000, paid_on: today, note: CONFIRMED_PAYMENT_NOTE },
    ]);
    const after = await state(s.debtor.id, [...s.live, s.userPaused]);
    expect(after.debtor).toEqual({ paidClaimedAt: null, status: "paid", paidCents: 50000 });
    for (const sched of after.schedules)
      expect(sched).toMatchObject({ state: "COMPLETED", reason: "paid", alarm: null });
    expect(after.events).toMatchObject([
      { type: "paid_claimed", detail: CLAIMED_DETAIL },
      { type: "paid_claim_confirmed", detail: "$400.00" },
    ]);
    const dash = await loaderData(`/dashboard?debtor=${s.debtor.id}`, "routes/dashboard", s.user.cookie);
    expect(dash.paidClaims).toEqual([]);
    // Answered already: a second submit changes nothing.
    const again = await formAction("/dashboard", fields, s.user.cookie);
    expect(again.status).toBe(409);
    expect((await paymentsOf(s.debtor.id)).length).toBe(2);
  });

  it("Confirm payment without an amount and date, or with too much, a future date or another's invoice, is refused 400 with field errors and what was typed; nothing is recorded", async () => {
    const s = await setUp();
    await press(s.path);
    const before = await state(s.debtor.id, [...s.live, s.userPaused]);
    const base = { intent: "paid-claim-confirm", debtor_id: String(s.debtor.id) };
    const missing = await formAction("/dashboard", base, `${s.user.cookie}; tz=UTC`);
    expect(missing.status).toBe(400);
    expect(missing.data).toMatchObject({ intent: "paid-claim-confirm", ok: false });
    expect(Object.keys(replyErrors(missing.data)).sort()).toEqual(["amount", "paid_on"]);

    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const late = await formAction(
      "/dashboard",
      { ...base, amount: "12.5", paid_on: future, note: "kept" },
      `${s.user.cookie}; tz=UTC`,
    );
    expect(late.status).toBe(400);
    expect(replyErrors(late.data)).toEqual({ paid_on: ["The payment date cannot be in the future"] });
    // What the user typed comes back.
    expect(late.data?.result?.initialValue).toMatchObject({ amount: "12.5", paid_on: future, note: "kept" });

    const today = new Date().toISOString().slice(0, 10);
    const over = await formAction(
      "/dashboard",
      { ...base, amount: "500.01", paid_on: today },
      `${s.user.cookie}; tz=UTC`,
    );
    expect(over.status).toBe(400);
    expect(replyErrors(over.data)).toEqual({
      amount: ["The payment can be at most $500.00, the amount still owed."],
    });

    const stranger = await signIn(uniqueEmail("claim-invoice-owner"));
    const theirs = await makeDebtor(stranger.userId);
    const wrongInvoice = await formAction(
      "/dashboard",
      { ...base, amount: "10", paid_on: today, invoice_id: String(theirs.invoiceId) },
      `${s.user.cookie}; tz=UTC`,
    );
    expect(wrongInvoice.status).toBe(400);
    expect(Object.keys(replyErrors(wrongInvoice.data))).toEqual(["invoice_id"]);

    expect(await paymentsOf(s.debtor.id)).toEqual([]);
    expect(await state(s.debtor.id, [...s.live, s.userPaused])).toEqual(before);
  });

  it("Confirm payment of part of the debt clears the claim, records the payment and 'paid_claim_confirmed', and resumes the schedules the claim paused (not the one the user paused)", async () => {
    const s = await setUp();
    await press(s.path);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const { status, data } = await formAction(
      "/dashboard",
      { intent: "paid-claim-confirm", debtor_id: String(s.debtor.id), amount: "100", paid_on: yesterday, note: "" },
      `${s.user.cookie}; tz=UTC`,
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({
      ok: true,
      message: "Payment of $100.00 recorded. $400.00 is still owed: reminders resumed, 2 schedules run again.",
    });
    expect(await paymentsOf(s.debtor.id)).toMatchObject([{ amount_cents: 10000, paid_on: yesterday, note: "" }]);
    const after = await state(s.debtor.id, [...s.live, s.userPaused]);
    expect(after.debtor).toEqual({ paidClaimedAt: null, status: "active", paidCents: 10000 });
    for (const sched of after.schedules.slice(0, 2)) {
      expect(sched).toMatchObject({ state: "ENABLED", reason: null });
      expect(sched.alarm).toBe(sched.next);
    }
    expect(after.schedules[2]).toMatchObject({ state: "DISABLED", reason: null });
    const types = after.events.map((e) => e.type).filter((t) => !t.startsWith("schedule_"));
    expect(types).toEqual(["paid_claimed", "paid_claim_confirmed"]);
    expect(after.events.find((e) => e.type === "paid_claim_confirmed")).toMatchObject({ detail: "$100.00" });
  });

  it("Not received runs the schedules the claim held again (not the one the user paused), clears the notice, records 'paid_claim_rejected' and tells the debtor once, politely", async () => {
    const s = await setUp();
    await press(s.path);
    const { status, data } = await formAction(
      "/dashboard",
      { intent: "paid-claim-resume", debtor_id: String(s.debtor.id) },
      s.user.cookie,
    );
    expect(status).toBe(200);
    expect(data).toMatchObject({
      ok: true,
      message: "Marked as not received. The debtor was told by e-mail. Reminders resumed: 2 schedules run again.",
      count: 2,
    });
    const after = await state(s.debtor.id, [...s.live, s.userPaused]);
    expect(after.debtor).toEqual({ paidClaimedAt: null, status: "active", paidCents: 0 });
    for (const sched of after.schedules.slice(0, 2)) {
      expect(sched.state).toBe("ENABLED");
      expect(sched.reason).toBeNull();
      expect(sched.next).toEqual(expect.any(Number));
      expect(sched.alarm).toBe(sched.next);
    }
    expect(after.schedules[2]).toMatchObject({ state: "DISABLED", reason: null });
    // (Resuming may also record each schedule's own event for the timeline.)
    const types = after.events.map((e) => e.type).filter((t) => !t.startsWith("schedule_"));
    expect(types).toEqual(["paid_claimed", "paid_claim_rejected"]);
    expect(after.events.find((e) => e.type === "paid_claim_rejected")).toMatchObject({ detail: CLAIMED_DETAIL });
    expect(await paymentsOf(s.debtor.id)).toEqual([]);
    // The invoice is chased again.
    const held = await env.DB.prepare(
      "SELECT count(*) AS n FROM invoices WHERE debtor_id = ? AND claimed_at IS NOT NULL",
    )
      .bind(s.debtor.id)
      .first<{ n: number }>();
    expect(held?.n).toBe(0);
    // The debtor's answer: recorded and sent once, to the debtor, naming what they said.
    const answers = await env.DB.prepare(
      "SELECT recipient, status, payload FROM emails WHERE debtor_id = ? AND kind = 'claim-answer'",
    )
      .bind(s.debtor.id)
      .all<{ recipient: string; status: string; payload: string }>();
    expect(answers.results).toHaveLength(1);
    expect(answers.results[0]).toMatchObject({ recipient: s.debtor.email.toLowerCase(), status: "sent" });
    expect(JSON.parse(answers.results[0]?.payload ?? "{}")).toMatchObject({
      kind: "claim-answer",
      message: { senderName: "Sally Sender", claimed: expect.stringMatching(/^your payment on \w{3} \d{1,2}, \d{4}$/) },
    });
    // The debtor may say so again later.
    await press(s.path);
    expect((await debtorRow(s.debtor.id))?.paid_claimed_at).toEqual(expect.any(Number));
  });

  it("another user's debtor answers 404 and nothing changes; a debtor without a claim 409", async () => {
    const s = await setUp();
    await press(s.path);
    const before = await state(s.debtor.id, s.live);
    const stranger = await signIn(uniqueEmail("claim-thief"));
    for (const intent of ["paid-claim-confirm", "paid-claim-resume"]) {
      const { status, data } = await formAction(
        "/dashboard",
        { intent, debtor_id: String(s.debtor.id) },
        stranger.cookie,
      );
      expect(status, intent).toBe(404);
      expect(data).toMatchObject({ ok: false, message: "Something went wrong" });
      for (const bad of ["", "abc", "-1", "1e3"]) {
        expect((await formAction("/dashboard", { intent, debtor_id: bad }, s.user.cookie)).status).toBe(404);
      }
    }
    expect(await state(s.debtor.id, s.live)).toEqual(before);
    const plain = await makeDebtor(stranger.userId);
    const none = await formAction(
      "/dashboard",
      { intent: "paid-claim-resume", debtor_id: String(plain.id) },
      stranger.cookie,
    );
    expect(none.status).toBe(409);
  });

  it("works without JavaScript: 'Confirm payment' links to the form in the notice, prefilled; a document post answers the dashboard page", async () => {
    const s = await setUp();
    await press(s.path);
    const page = await pageText(await get(`/dashboard?debtor=${s.debtor.id}`, { cookie: s.user.cookie }));
    expect(page).toContain(`href="/dashboard?debtor=${s.debtor.id}&confirm=${s.debtor.id}"`);
    const form = await pageText(
      await get(`/dashboard?debtor=${s.debtor.id}&confirm=${s.debtor.id}`, { cookie: `${s.user.cookie}; tz=UTC` }),
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(form).toMatch(/name="amount"[^>]*value="500.00"|value="500.00"[^>]*name="amount"/);
    expect(form).toMatch(new RegExp(`name="paid_on"[^>]*value="${today}"|value="${today}"[^>]*name="paid_on"`));
    const refused = await postForm(
      `/dashboard?debtor=${s.debtor.id}&confirm=${s.debtor.id}`,
      { intent: "paid-claim-confirm", debtor_id: String(s.debtor.id), amount: "9999", paid_on: today },
      { cookie: `${s.user.cookie}; tz=UTC` },
    );
    expect(refused.status).toBe(400);
    const refusedText = await visibleText(refused);
    expect(refusedText).toContain("The payment can be at most $500.00, the amount still owed.");
    expect(await paymentsOf(s.debtor.id)).toEqual([]);
    const res = await postForm(
      `/dashboard?debtor=${s.debtor.id}`,
      { intent: "paid-claim-resume", debtor_id: String(s.debtor.id) },
      { cookie: s.user.cookie },
    );
    expect(res.status).toBe(200);
    expect((await debtorRow(s.debtor.id))?.paid_claimed_at).toBeNull();
  });
});

describe("what was paid: the invoices, an amount, the day and the reference", () => {
  /** A debtor with two open invoices (the older one due first) and one armed schedule. */
  async function twoInvoices() {
    const s = await setUp();
    const newer = await makeInvoice(s.user.userId, s.debtor.id, {
      number: `NEW-${s.debtor.id}`,
      amountCents: 20000,
      currency: "USD",
      dueOn: "2099-01-01",
    });
    return { ...s, newer };
  }
  const claimedIds = async (debtorId: number) =>
    (
      await env.DB.prepare("SELECT id FROM invoices WHERE debtor_id = ? AND claimed_at IS NOT NULL ORDER BY id")
        .bind(debtorId)
        .all<{ id: number }>()
    ).results.map((r) => r.id);

  it("one invoice of two: only it leaves the reminders, the schedules keep running, the statement names it apart", async () => {
    const s = await twoInvoices();
    const html = await (await get(s.path)).text();
    const refs = [...html.matchAll(/name="invoices" value="([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs).toHaveLength(2);
    // The page lists the older invoice first; tick only the newer one.
    const res = await sayPaid(s.path, [
      ["invoices", refs[1] as string],
      ["reference", "  RF18 5390  0041 "],
    ]);
    expect(res.status).toBe(200);
    expect(await visibleText(res)).toContain(`that you paid NEW-${s.debtor.id} on `);
    expect(await claimedIds(s.debtor.id)).toEqual([s.newer]);
    const after = await state(s.debtor.id, s.live);
    for (const sched of after.schedules) expect(sched).toMatchObject({ state: "ENABLED", reason: null });
    expect(after.events.at(-1)).toMatchObject({
      type: "paid_claimed",
      detail: expect.stringMatching(/^paid on \d{4}-\d{2}-\d{2}, reference RF18 5390 0041$/),
    });
    const statement = await getStatement(db(), s.user.userId, s.debtor.id);
    expect(statement.lines.map((l) => l.balanceCents)).toEqual([50000]);
    expect(statement.claimed?.map((l) => l.number)).toEqual([`NEW-${s.debtor.id}`]);
    // The dashboard's form starts with what they said.
    const data = await loaderData(`/dashboard?debtor=${s.debtor.id}`, "routes/dashboard", s.user.cookie);
    expect(data.paidClaims[0]).toMatchObject({ prefillCents: 20000, invoiceId: s.newer, reference: "RF18 5390 0041" });
  });

  it("an amount alone holds the invoices it covers, oldest due first", async () => {
    const s = await twoInvoices();
    const res = await sayPaid(s.path, [["amount", "120.50"]], { tick: "none" });
    expect(res.status).toBe(200);
    expect(await claimedIds(s.debtor.id)).toEqual([s.debtor.invoiceId]);
    expect(await debtorRow(s.debtor.id)).toMatchObject({ paid_claim_cents: 12050, paid_claim_currency: "USD" });
  });

  it("bad input is refused with a message naming the field, what was typed kept, nothing written", async () => {
    const s = await twoInvoices();
    const before = await state(s.debtor.id, s.live);
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const cases: [readonly (readonly [string, string])[], { tick?: "none" }, string][] = [
      [[], { tick: "none" }, "Please tick the invoices you paid, or enter the amount."],
      [[["invoices", "not-a-ref"]], { tick: "none" }, "Please choose among your open invoices."],
      [[["amount", "1,234"]], { tick: "none" }, "1,234"],
      [[["amount", "-5"]], { tick: "none" }, "Please enter the amount you paid"],
      [[["amount", "99999"]], { tick: "none" }, "That is more than is open in USD ($700.00)"],
      [[["paid_on", future]], {}, "The date you paid cannot be in the future."],
      [[["paid_on", "2026-02-30"]], {}, "Please enter the date you paid."],
      [[["reference", "x".repeat(141)]], {}, "Please keep the reference to 140 characters"],
    ];
    for (const [fields, options, message] of cases) {
      const res = await sayPaid(s.path, fields, options);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      const text = await pageText(res);
      expect(text, JSON.stringify(fields)).toContain(message);
      // What was typed comes back (a ticked box is one of the page's own invoices).
      for (const [name, value] of fields)
        if (name !== "invoices" && value.length < 50) expect(text).toContain(`value="${value}"`);
    }
    expect(await claimedIds(s.debtor.id)).toEqual([]);
    expect(await state(s.debtor.id, s.live)).toEqual(before);
  });
});
