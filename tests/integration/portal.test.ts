import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nextRunForFrequency } from "~/domain/schedule-time";
import { paidClaimLink, portalLink } from "~/links/debtor-pages.server";
import { invoiceRefs, optOutLink } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { releaseDisputeHolds } from "~/reminders/holds.server";
import { debtorResponsesQuery } from "~/responses/portal.server";
import { runPromiseEnds, runWatchdog } from "~/watchdog/index.server";
import { formAction } from "./data-helpers";
import { alarmAt, fireAndSend, HOUR, resendRequests, stubOf } from "./engine-helpers";
import {
  db,
  debtorRow,
  eventsOf,
  makeDebtor,
  makeOrg,
  makeSchedule,
  makeSignedInUser,
  makeUser,
  optOutRows,
  scheduleRow,
  setSchedule,
} from "./fixtures";
import { DAY, get, location, markup, pageText, postForm, SESSION_COOKIE, sayPaid, visibleText } from "./helpers";

/**
 * The debtor's page: /d/<signed token>, linked from
 * every reminder. Its tokens; what it shows, without JavaScript; and the debtor's answers: a promise
 * to pay (held, then resumed by the watchdog when its day has passed in the debtor's zone, or
 * broken), disputes (held while nothing undisputed is left, until the user resolves one), "I've
 * paid" and opt-out; the user's answers on the timeline; /p and /u naming the sender alike.
 */

const config = () => readConfig(env);
const INVALID = "This link is no longer valid.";

interface InvoiceFields {
  number?: string | null;
  amountCents?: number;
  paidCents?: number;
  currency?: string;
  issuedOn?: string;
  dueOn?: string;
  status?: "open" | "paid" | "void" | "disputed";
}

/** An invoice row of the owner's debtor, straight in D1 (the debtors here are made without one). */
async function makeInvoice(ownerId: string, debtorId: number, f: InvoiceFields = {}) {
  const row = await env.DB.prepare(
    "INSERT INTO invoices (owner_id, debtor_id, number, amount_cents, currency, issued_on, due_on, status, paid_cents) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  )
    .bind(
      ownerId,
      debtorId,
      f.number === undefined ? null : f.number,
      f.amountCents ?? 30000,
      f.currency ?? "USD",
      f.issuedOn ?? "2026-10-01",
      f.dueOn ?? "2026-11-01",
      f.status ?? "open",
      f.paidCents ?? 0,
    )
    .first<{ id: number }>();
  return row!.id;
}

const invoiceRow = (id: number) =>
  env.DB.prepare("SELECT status, dispute_reason, disputed_at, paid_cents FROM invoices WHERE id = ?")
    .bind(id)
    .first<{ status: string; dispute_reason: string | null; disputed_at: number | null; paid_cents: number }>();

async function armed(ownerId: string, debtorId: number, organizationId?: number) {
  const id = await makeSchedule(ownerId, debtorId, { organizationId });
  await stubOf(id).arm(id, Date.now() + HOUR, { force: true });
  return id;
}

/**
 * A signed-in user (Sally Sender) with a debtor in `zone` who owes two invoices (INV-7 $300 partly
 * paid by $50, INV-8 $200) and has one paid invoice, two armed schedules (the newest sent as
 * `org` when given), a payment, and the debtor's page path.
 */
async function setUp({ zone = "Pacific/Kiritimati", org }: { zone?: string; org?: string } = {}) {
  const user = await makeSignedInUser("Sally Sender");
  const cookie = `${SESSION_COOKIE}=${user.token}`;
  const debtor = await makeDebtor(user.id, {
    invoice: false,
    debtCents: 60000,
    paidCents: 15000,
    timeZone: zone,
    fullName: "Ana Ruiz",
  });
  const inv7 = await makeInvoice(user.id, debtor.id, {
    number: `INV-7-${debtor.id}`,
    amountCents: 30000,
    paidCents: 5000,
    dueOn: "2026-11-01",
  });
  const inv8 = await makeInvoice(user.id, debtor.id, {
    number: `INV-8-${debtor.id}`,
    amountCents: 20000,
    dueOn: "2026-12-15",
  });
  const paid = await makeInvoice(user.id, debtor.id, {
    number: `INV-6-${debtor.id}`,
    amountCents: 10000,
    paidCents: 10000,
    status: "paid",
  });
  await env.DB.prepare(
    "INSERT INTO payments (owner_id, debtor_id, amount_cents, currency, paid_on, note) VALUES (?, ?, 15000, 'USD', '2026-10-20', '')",
  )
    .bind(user.id, debtor.id)
    .run();
  const orgId = org ? await makeOrg(user.id, org, "1 Main Street") : undefined;
  const schedules = [await armed(user.id, debtor.id), await armed(user.id, debtor.id, orgId)];
  // The setup's own 'schedule_created' events: the tests look at what the debtor's answers record.
  await env.DB.prepare("DELETE FROM debtor_events WHERE debtor_id = ?").bind(debtor.id).run();
  const keyless = { id: debtor.id, ownerId: user.id, optOutKey: null };
  const url = await portalLink(db(), config(), keyless);
  return {
    user,
    cookie,
    debtor,
    invoices: { inv7, inv8, paid },
    schedules,
    url,
    path: new URL(url).pathname,
    paidPath: new URL(await paidClaimLink(db(), config(), keyless)).pathname,
    optOutPath: new URL(await optOutLink(db(), config(), keyless)).pathname,
  };
}
type Setup = Awaited<ReturnType<typeof setUp>>;

/** Everything the debtor's answers may change. */
async function state(s: Setup) {
  const d = await debtorRow(s.debtor.id);
  return {
    debtor: {
      status: d?.status,
      promisedOn: d?.promised_on,
      promiseEndsAt: d?.promise_ends_at,
      promiseBrokenAt: d?.promise_broken_at,
      paidClaimedAt: d?.paid_claimed_at,
    },
    invoices: await Promise.all(Object.values(s.invoices).map(invoiceRow)),
    schedules: await Promise.all(
      s.schedules.map(async (id) => {
        const row = await scheduleRow(id);
        return { state: row?.state, reason: row?.stopped_reason, next: row?.next_run_at, alarm: await alarmAt(id) };
      }),
    ),
    events: (await eventsOf(s.debtor.id)).map((e) => ({ type: e.type, detail: e.detail })),
    optOuts: await optOutRows(s.user.id),
  };
}

/** The page's own forms: a same-origin POST without a session, as a browser without JavaScript sends it. */
const post = (path: string, fields: Record<string, string>) => postForm(path, fields);

/** The references the page gives the debtor's invoices (as the page computes them). */
async function refOf(s: Setup, invoiceId: number) {
  const key = (await debtorRow(s.debtor.id))?.opt_out_key ?? "";
  return (await invoiceRefs(config(), key))(invoiceId);
}

/** The UTC instant a calendar date starts in a zone `offsetHours` from UTC (no DST in these zones). */
const dayStart = (date: string, offsetHours: number) => Date.parse(`${date}T00:00:00Z`) - offsetHours * HOUR;
const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY).toISOString().slice(0, 10);

describe("the link", () => {
  it("is in every reminder ('View your statement / respond') and opens the debtor's page", async () => {
    const user = await makeUser("Sally Sender");
    const debtor = await makeDebtor(user.id, { invoice: false, timeZone: "America/New_York" });
    await makeInvoice(user.id, debtor.id, { number: `INV-1-${debtor.id}`, amountCents: 123450 });
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    // 17:00 UTC on a past day: daytime in New York.
    const at = Date.UTC(2026, 9, 14, 17, 0);
    await setSchedule(id, { next_run_at: at });
    expect(await fireAndSend(id, at)).toMatchObject({ kind: "done", status: "sent" });
    const [sent] = await resendRequests(debtor.email);
    const html = String(sent?.body.html);
    const href = /<a [^>]*href="([^"]+)"[^>]*>View your statement \/ respond<\/a>/.exec(html)?.[1];
    expect(href).toBe(await portalLink(db(), config(), { id: debtor.id, ownerId: user.id, optOutKey: null }));
    expect(String(sent?.body.text)).toContain(`View your statement / respond <${href}>`);
    const path = new URL(href!).pathname;
    expect(path).toMatch(/^\/d\/[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/);
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(await visibleText(page)).toContain("Your statement from Sally Sender");
  });
});

describe("tokens: forged, altered, truncated and other-purpose ones are refused (404, nothing changes)", () => {
  async function expectRefused(path: string, victim: Setup) {
    const before = await state(victim);
    const page = await get(path);
    expect(page.status, path).toBe(404);
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    const text = await visibleText(page);
    expect(text).toContain(INVALID);
    expect(text).not.toContain("Sally Sender");
    const attempts: Record<string, string>[] = [
      { intent: "portal-promise", promised_on: new Date().toISOString().slice(0, 10) },
      { intent: "portal-paid" },
      { intent: "portal-opt-out" },
      { intent: "portal-dispute", invoice: await refOf(victim, victim.invoices.inv7), reason: "Wrong" },
    ];
    for (const fields of attempts) {
      const res = await post(path, fields);
      expect(res.status, `${path} ${fields.intent}`).toBe(404);
    }
    expect(await state(victim)).toEqual(before);
  }

  it("forged, altered and truncated tokens", async () => {
    const s = await setUp();
    const [key, sig] = s.path.slice(3).split(".") as [string, string];
    const flip = (t: string, i: number) => t.slice(0, i) + (t[i] === "a" ? "b" : "a") + t.slice(i + 1);
    for (const path of [
      `/d/${key}.${flip(sig, 0)}`,
      `/d/${key}.${flip(sig, sig.length - 1)}`,
      `/d/${flip(key, 3)}.${sig}`,
      `/d/${key}.${sig.slice(0, -1)}`,
      `/d/${key.slice(0, -1)}.${sig}`,
      `/d/${key}`,
      `/d/${key}.`,
      "/d/x",
      `/d/${"z".repeat(5000)}`,
      `/d/${encodeURIComponent("<script>")}`,
      "/d/test-send",
    ]) {
      await expectRefused(path, s);
    }
  });

  it("an opt-out or 'I've paid' token is no portal token, and a portal token opens neither of their pages", async () => {
    const s = await setUp();
    const portal = s.path.slice(3);
    expect(s.optOutPath.slice(3).split(".")[0]).toBe(portal.split(".")[0]);
    await expectRefused(`/d/${s.optOutPath.slice(3)}`, s);
    await expectRefused(`/d/${s.paidPath.slice(3)}`, s);
    for (const path of [`/u/${portal}`, `/p/${portal}`]) {
      expect((await get(path)).status, path).toBe(404);
      expect((await post(path, {})).status, path).toBe(404);
    }
    expect((await state(s)).optOuts).toEqual([]);
    expect((await debtorRow(s.debtor.id))?.paid_claimed_at).toBeNull();
  });

  it("one debtor's token cannot act on another debtor: moved signatures, and another debtor's invoices", async () => {
    const a = await setUp();
    const b = await setUp();
    const [keyA, sigA] = a.path.slice(3).split(".") as [string, string];
    const [keyB, sigB] = b.path.slice(3).split(".") as [string, string];
    await expectRefused(`/d/${keyA}.${sigB}`, a);
    await expectRefused(`/d/${keyB}.${sigA}`, b);
    // Another debtor of the same user.
    const other = await makeDebtor(a.user.id, { invoice: false });
    const otherPath = new URL(await portalLink(db(), config(), { id: other.id, ownerId: a.user.id, optOutKey: null }))
      .pathname;
    await expectRefused(`/d/${keyA}.${otherPath.slice(3).split(".")[1]}`, a);

    // A's page naming B's invoice: by B's own reference, by its id, by A's reference scheme for B's id.
    const beforeB = await state(b);
    const beforeA = await state(a);
    const keyOfA = (await debtorRow(a.debtor.id))?.opt_out_key ?? "";
    for (const invoice of [
      await refOf(b, b.invoices.inv7),
      String(b.invoices.inv7),
      await (await invoiceRefs(config(), keyOfA))(b.invoices.inv7),
    ]) {
      const res = await post(a.path, { intent: "portal-dispute", invoice, reason: "Not mine" });
      expect(res.status).toBe(400);
      expect(await visibleText(res)).toContain("Please choose one of your open invoices.");
    }
    expect(await state(b)).toEqual(beforeB);
    expect(await state(a)).toEqual(beforeA);
    // A's promise, "I've paid" and opt-out change nothing of B's.
    expect((await sayPaid(a.path, [], { intent: "portal-paid" })).status).toBe(302);
    expect((await post(a.path, { intent: "portal-opt-out" })).status).toBe(302);
    expect(await state(b)).toEqual(beforeB);
  });
});

describe("GET /d/:token, without JavaScript", () => {
  it("names the organization the reminders came from, lists the open invoices, the totals and the payments; no other debtor's data, no ids", async () => {
    const s = await setUp({ org: "Acme Ltd" });
    const stranger = await setUp({ org: "Other Corp" });
    const res = await get(s.path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("X-Robots-Tag")).toBe("noindex");
    const html = await markup(res.clone());
    const text = await visibleText(res.clone());
    expect(text).toContain("Your statement from Acme Ltd");
    expect(text).not.toContain("Sally Sender");
    expect(text).toContain(`Invoice INV-7-${s.debtor.id}`);
    expect(text).toContain(`Invoice INV-8-${s.debtor.id}`);
    // Paid invoices are not open.
    expect(text).not.toContain(`INV-6-${s.debtor.id}`);
    expect(text).toContain("$250.00");
    expect(text).toContain("DueNov 1, 2026");
    expect(text).toContain("DueDec 15, 2026");
    expect(text).toContain("Total still owed: $450.00");
    expect(text).toContain("Payments received");
    expect(text).toContain("Oct 20, 2026$150.00");
    // The actions, as plain forms with labels.
    for (const label of [
      "Tell Acme Ltd I've paid",
      "Which invoices did you pay?",
      "Date you paid",
      "Payment reference (optional)",
      "Promise to pay",
      "I will pay by",
      "Dispute invoice",
      "What is wrong with it?",
      "Stop reminders",
    ]) {
      expect(text).toContain(label);
    }
    // The four answers, the request for a payment plan (decisions/066), and the theme switch (the
    // debtor's pages have no Dunly menu: docs/decisions/058).
    expect(html.match(/<form [^>]*method="post"/g)).toHaveLength(6);
    expect(text).toContain("Ask for a payment plan");
    expect(html).toContain('name="promised_on"');
    expect(html).toMatch(/<label[^>]*for="[^"]+"[^>]*>I will pay by<\/label>/);
    // Nothing of the other debtor, the owner or any id.
    const raw = await pageText(res);
    for (const secret of [
      stranger.debtor.email,
      stranger.debtor.fullName === s.debtor.fullName ? "Other Corp" : stranger.debtor.fullName,
      "Other Corp",
      `INV-7-${stranger.debtor.id}`,
      s.user.id,
      s.user.email,
      s.debtor.email,
      "debtor_id",
      "invoice_id",
    ]) {
      expect(raw, secret).not.toContain(secret);
    }
    // The invoices are named by references, never by their ids.
    const values = [...html.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
    expect(values).toEqual(["", await refOf(s, s.invoices.inv7), await refOf(s, s.invoices.inv8)]);
    for (const id of Object.values(s.invoices)) expect(values).not.toContain(String(id));
  });

  it("names the user when the newest schedule is sent as the person, and says when nothing is open", async () => {
    const s = await setUp();
    await env.DB.prepare("UPDATE invoices SET status = 'paid', paid_cents = amount_cents WHERE debtor_id = ?")
      .bind(s.debtor.id)
      .run();
    const text = await visibleText(await get(s.path));
    expect(text).toContain("Your statement from Sally Sender");
    expect(text).toContain("Nothing is open. Thank you.");
    expect(text).not.toContain("Promise to pay");
    expect(text).not.toContain("Dispute invoice");
  });
});

describe("a promise to pay", () => {
  it("across the date boundary (Pacific/Kiritimati, UTC+14): holds until the next day starts there, then resumes by itself", async () => {
    const s = await setUp({ zone: "Pacific/Kiritimati" });
    // The debtor's today: already tomorrow in UTC for part of each day.
    const today = new Date(Date.now() + 14 * HOUR).toISOString().slice(0, 10);
    const res = await post(s.path, { intent: "portal-promise", promised_on: today });
    expect(res.status).toBe(302);
    expect(location(res)?.pathname).toBe(s.path);
    expect(location(res)?.search).toBe("?done=promised");
    const endsAt = dayStart(nextDate(today), 14);
    const held = await state(s);
    expect(held.debtor).toMatchObject({ promisedOn: today, promiseEndsAt: endsAt, promiseBrokenAt: null });
    for (const sched of held.schedules)
      expect(sched).toEqual({ state: "DISABLED", reason: "promised", next: null, alarm: null });
    expect(held.events).toEqual([
      { type: "promised", detail: expect.stringMatching(/^Promised to pay by \w{3} \d{1,2}, \d{4}$/) },
    ]);
    // The page says so, after the redirect.
    const page = await visibleText(await get(`${s.path}?done=promised`));
    expect(page).toContain("Sally Sender has been told you will pay by");
    expect(page).toContain("You promised to pay by");

    // A moment before the next day starts in Kiritimati: still held.
    await runPromiseEnds(env, endsAt - 1);
    expect(await state(s)).toEqual(held);
    // When it starts (the watchdog, with a fake clock): broken, and the reminders run again.
    const ended = await runPromiseEnds(env, endsAt);
    expect(ended.broken).toBeGreaterThanOrEqual(1);
    expect(ended.resumed).toBeGreaterThanOrEqual(2);
    const after = await state(s);
    expect(after.debtor).toEqual({
      status: "active",
      promisedOn: null,
      promiseEndsAt: null,
      promiseBrokenAt: endsAt,
      paidClaimedAt: null,
    });
    const next = nextRunForFrequency("daily", endsAt, "UTC");
    for (const sched of after.schedules) expect(sched).toEqual({ state: "ENABLED", reason: null, next, alarm: next });
    expect(after.events.map((e) => e.type)).toEqual([
      "promised",
      "promise_broken",
      "schedule_resumed",
      "schedule_resumed",
    ]);
    expect(after.events[1]?.detail).toBe(held.events[0]?.detail);
    // A second run changes nothing.
    await runPromiseEnds(env, endsAt + HOUR);
    expect(await state(s)).toEqual(after);
  });

  it("in Pacific/Pago_Pago (UTC-11): ends when the next day starts there, through the cron's watchdog", async () => {
    const s = await setUp({ zone: "Pacific/Pago_Pago" });
    const today = new Date(Date.now() - 11 * HOUR).toISOString().slice(0, 10);
    const promisedOn = nextDate(today);
    expect((await post(s.path, { intent: "portal-promise", promised_on: promisedOn })).status).toBe(302);
    const endsAt = dayStart(nextDate(promisedOn), -11);
    expect((await debtorRow(s.debtor.id))?.promise_ends_at).toBe(endsAt);
    await runWatchdog(env, endsAt - 1);
    expect((await scheduleRow(s.schedules[0]!))?.stopped_reason).toBe("promised");
    await runWatchdog(env, endsAt);
    expect((await scheduleRow(s.schedules[0]!))?.state).toBe("ENABLED");
    expect((await debtorRow(s.debtor.id))?.promise_broken_at).toBe(endsAt);
  });

  it("that is kept simply ends: nothing open when its day has passed, nothing broken, nothing resumed", async () => {
    const s = await setUp({ zone: "UTC" });
    const today = new Date().toISOString().slice(0, 10);
    expect((await post(s.path, { intent: "portal-promise", promised_on: today })).status).toBe(302);
    // Paid in full meanwhile: the payment completed the schedules (the lifecycle in app/reminders/ completeWhenPaidStatement).
    await env.DB.prepare("UPDATE invoices SET status = 'paid', paid_cents = amount_cents WHERE debtor_id = ?")
      .bind(s.debtor.id)
      .run();
    await env.DB.prepare("UPDATE debtors SET status = 'paid', paid_cents = debt_cents WHERE id = ?")
      .bind(s.debtor.id)
      .run();
    await env.DB.prepare("UPDATE schedules SET state = 'COMPLETED', stopped_reason = 'paid' WHERE debtor_id = ?")
      .bind(s.debtor.id)
      .run();
    const endsAt = dayStart(nextDate(today), 0);
    await runPromiseEnds(env, endsAt);
    const after = await state(s);
    expect(after.debtor).toMatchObject({ promisedOn: null, promiseEndsAt: null, promiseBrokenAt: null });
    expect(after.events.map((e) => e.type)).toEqual(["promised"]);
    for (const sched of after.schedules) expect(sched).toMatchObject({ state: "COMPLETED", reason: "paid" });
  });

  it("is at most 60 days out and not in the past: field errors, status 400, what was typed kept, nothing changes", async () => {
    const s = await setUp({ zone: "UTC" });
    const before = await state(s);
    const today = new Date().toISOString().slice(0, 10);
    const tooFar = new Date(Date.parse(`${today}T00:00:00Z`) + 61 * DAY).toISOString().slice(0, 10);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - DAY).toISOString().slice(0, 10);
    for (const promised_on of [tooFar, yesterday, "2026-02-30", ""]) {
      const res = await post(s.path, { intent: "portal-promise", promised_on });
      expect(res.status, promised_on).toBe(400);
      const html = await markup(res.clone());
      const text = await visibleText(res);
      expect(text).toMatch(
        promised_on === "" || promised_on === "2026-02-30"
          ? /Please enter the date you will pay by\./
          : /Please choose a date from .+ to .+\./,
      );
      if (promised_on) expect(html).toContain(`value="${promised_on}"`);
      expect(html).toContain('aria-invalid="true"');
    }
    const sixty = new Date(Date.parse(`${today}T00:00:00Z`) + 60 * DAY).toISOString().slice(0, 10);
    expect(await state(s)).toEqual(before);
    expect((await post(s.path, { intent: "portal-promise", promised_on: sixty })).status).toBe(302);
    // A second promise while one is pending is refused.
    const again = await post(s.path, { intent: "portal-promise", promised_on: today });
    expect(again.status).toBe(409);
    expect((await debtorRow(s.debtor.id))?.promised_on).toBe(sixty);
  });

  it("a broken promise: a new one is refused ('contact the sender') until the user allows it from the debtor's timeline", async () => {
    const s = await setUp({ zone: "UTC", org: "Acme Ltd" });
    const today = new Date().toISOString().slice(0, 10);
    expect((await post(s.path, { intent: "portal-promise", promised_on: today })).status).toBe(302);
    const endsAt = dayStart(nextDate(today), 0);
    await runPromiseEnds(env, endsAt);
    expect((await debtorRow(s.debtor.id))?.promise_broken_at).toBe(endsAt);

    const page = await visibleText(await get(s.path));
    expect(page).toContain("Please contact Acme Ltd directly to agree on a new date.");
    expect(page).not.toContain("I will pay by");
    const before = await state(s);
    const refused = await post(s.path, { intent: "portal-promise", promised_on: today });
    expect(refused.status).toBe(409);
    expect(await visibleText(refused)).toContain("Please contact Acme Ltd directly to agree on a new date.");
    expect(await state(s)).toEqual(before);

    // The user's side: the dashboard's list and the timeline show it.
    const responses = await debtorResponsesQuery(db(), s.user.id);
    expect(responses).toEqual([
      expect.objectContaining({ kind: "promise_broken", debtorId: s.debtor.id, fullName: "Ana Ruiz" }),
    ]);
    const timeline = await visibleText(await get(`/debtors/${s.debtor.id}`, { cookie: s.cookie }));
    expect(timeline).toContain("Promise not kept · Promised to pay by");
    expect(timeline).toContain("Allow a new promise");

    // Another user cannot answer it.
    const stranger = await makeSignedInUser();
    const foreign = await formAction(
      `/debtors/${s.debtor.id}`,
      { intent: "promise-consent", debtor_id: String(s.debtor.id) },
      `${SESSION_COOKIE}=${stranger.token}`,
    );
    expect(foreign.status).toBe(404);
    expect(await state(s)).toEqual(before);

    const allowed = await formAction(
      `/debtors/${s.debtor.id}`,
      { intent: "promise-consent", debtor_id: String(s.debtor.id) },
      s.cookie,
    );
    expect(allowed.status).toBe(200);
    expect(allowed.data).toMatchObject({ ok: true, intent: "promise-consent" });
    expect((await debtorRow(s.debtor.id))?.promise_broken_at).toBeNull();
    expect((await eventsOf(s.debtor.id)).at(-1)?.type).toBe("promise_consent");
    const twice = await formAction(
      `/debtors/${s.debtor.id}`,
      { intent: "promise-consent", debtor_id: String(s.debtor.id) },
      s.cookie,
    );
    expect(twice.status).toBe(409);
    // Now the debtor may promise again.
    expect((await post(s.path, { intent: "portal-promise", promised_on: today })).status).toBe(302);
    expect((await debtorRow(s.debtor.id))?.promised_on).toBe(today);
  });
});

describe("a dispute", () => {
  it("leaves the invoice out; holds the reminders once nothing undisputed is left; the user's 'Resolve dispute' resumes them", async () => {
    const s = await setUp({ zone: "UTC" });
    const inv7 = await refOf(s, s.invoices.inv7);
    const inv8 = await refOf(s, s.invoices.inv8);

    const first = await post(s.path, {
      intent: "portal-dispute",
      invoice: inv7,
      reason: "  Already paid by bank transfer  ",
    });
    expect(first.status).toBe(302);
    expect(location(first)?.search).toBe("?done=disputed");
    let now = await state(s);
    expect(now.invoices[0]).toMatchObject({ status: "disputed", dispute_reason: "Already paid by bank transfer" });
    expect(now.events).toEqual([{ type: "disputed", detail: `INV-7-${s.debtor.id}: Already paid by bank transfer` }]);
    // INV-8 is still open: reminders go on.
    for (const sched of now.schedules) expect(sched.state).toBe("ENABLED");
    const page = await visibleText(await get(`${s.path}?done=disputed`));
    expect(page).toContain("has been told what is wrong");
    expect(page).toContain("Disputed");
    expect(page).toContain("Total still owed: $200.00");
    // A disputed invoice cannot be disputed again.
    const again = await post(s.path, { intent: "portal-dispute", invoice: inv7, reason: "Again" });
    expect(again.status).toBe(400);

    expect((await post(s.path, { intent: "portal-dispute", invoice: inv8, reason: "Never ordered" })).status).toBe(302);
    now = await state(s);
    for (const sched of now.schedules)
      expect(sched).toEqual({ state: "DISABLED", reason: "disputed", next: null, alarm: null });
    const text = await visibleText(await get(s.path));
    expect(text).not.toContain("Total still owed");
    expect(text).not.toContain("I will pay by");

    // The user: the dashboard's list, the timeline with its actions and the schedules' status.
    const responses = await debtorResponsesQuery(db(), s.user.id);
    expect(responses.map((r) => [r.kind, r.invoiceId, r.reason])).toEqual(
      expect.arrayContaining([
        ["disputed", s.invoices.inv7, "Already paid by bank transfer"],
        ["disputed", s.invoices.inv8, "Never ordered"],
      ]),
    );
    const timeline = await visibleText(await get(`/debtors/${s.debtor.id}`, { cookie: s.cookie }));
    expect(timeline).toContain(`Disputed INV-8-${s.debtor.id}: Never ordered`);
    expect(timeline).toContain("Resolve dispute");

    // Another user's "Resolve dispute" is 404 and changes nothing.
    const stranger = await makeSignedInUser();
    const foreign = await formAction(
      `/debtors/${s.debtor.id}`,
      { intent: "dispute-resolve", invoice_id: String(s.invoices.inv8) },
      `${SESSION_COOKIE}=${stranger.token}`,
    );
    expect(foreign.status).toBe(404);
    expect(await state(s)).toEqual(now);

    const resolved = await formAction(
      "/dashboard",
      { intent: "dispute-resolve", invoice_id: String(s.invoices.inv8) },
      s.cookie,
    );
    expect(resolved.status).toBe(200);
    expect(resolved.data.message).toBe(
      `Dispute of INV-8-${s.debtor.id} resolved. Reminders resumed: 2 schedules run again.`,
    );
    const after = await state(s);
    expect(after.invoices[1]).toMatchObject({ status: "open", dispute_reason: null, disputed_at: null });
    for (const sched of after.schedules) {
      expect(sched.state).toBe("ENABLED");
      expect(sched.alarm).toBe(sched.next);
    }
    expect(after.events.map((e) => e.type).slice(2)).toEqual([
      "dispute_resolved",
      "schedule_resumed",
      "schedule_resumed",
    ]);
    expect(
      (await formAction("/dashboard", { intent: "dispute-resolve", invoice_id: String(s.invoices.inv8) }, s.cookie))
        .status,
    ).toBe(409);
  });

  it("field errors: no reason, a reason over 500 characters, no invoice; what was typed is kept", async () => {
    const s = await setUp({ zone: "UTC" });
    const before = await state(s);
    const inv7 = await refOf(s, s.invoices.inv7);
    const cases: [Record<string, string>, string][] = [
      [{ invoice: inv7, reason: "   " }, "Please say what is wrong with the invoice."],
      [{ invoice: inv7, reason: "x".repeat(501) }, "Please keep the reason to 500 characters."],
      [{ invoice: "", reason: "Wrong amount" }, "Please choose the invoice you dispute."],
    ];
    for (const [fields, message] of cases) {
      const res = await post(s.path, { intent: "portal-dispute", ...fields });
      expect(res.status, message).toBe(400);
      const html = await markup(res.clone());
      expect(await visibleText(res)).toContain(message);
      if (fields.reason?.trim()) expect(html).toContain(fields.reason.slice(0, 50));
    }
    expect(await state(s)).toEqual(before);
    // 500 characters, with line breaks as a form sends them, is fine.
    const long = `${"y".repeat(249)}\r\n${"z".repeat(250)}`;
    expect((await post(s.path, { intent: "portal-dispute", invoice: inv7, reason: long })).status).toBe(302);
  });

  it("a disputed invoice voided while another is open again releases the hold (releaseDisputeHolds)", async () => {
    const s = await setUp({ zone: "UTC" });
    for (const id of [s.invoices.inv7, s.invoices.inv8]) {
      expect((await post(s.path, { intent: "portal-dispute", invoice: await refOf(s, id), reason: "No" })).status).toBe(
        302,
      );
    }
    expect((await scheduleRow(s.schedules[0]!))?.stopped_reason).toBe("disputed");
    const scope = { env, db: db(), ownerId: s.user.id, now: Date.now() };
    // Voided, nothing open: the hold stays.
    await env.DB.prepare("UPDATE invoices SET status = 'void' WHERE id = ?").bind(s.invoices.inv7).run();
    expect((await releaseDisputeHolds(scope, s.debtor.id)).resumed).toEqual([]);
    expect((await scheduleRow(s.schedules[0]!))?.state).toBe("DISABLED");
    // A new open invoice: the reminders run again.
    await makeInvoice(s.user.id, s.debtor.id, { number: `INV-9-${s.debtor.id}` });
    expect((await releaseDisputeHolds(scope, s.debtor.id)).resumed).toHaveLength(2);
    for (const id of s.schedules) expect((await scheduleRow(id))?.state).toBe("ENABLED");
  });

  it("a promise that ends while every invoice left is disputed hands the hold to the dispute", async () => {
    const s = await setUp({ zone: "UTC" });
    const today = new Date().toISOString().slice(0, 10);
    expect((await post(s.path, { intent: "portal-promise", promised_on: today })).status).toBe(302);
    for (const id of [s.invoices.inv7, s.invoices.inv8]) {
      expect((await post(s.path, { intent: "portal-dispute", invoice: await refOf(s, id), reason: "No" })).status).toBe(
        302,
      );
    }
    expect((await scheduleRow(s.schedules[0]!))?.stopped_reason).toBe("promised");
    await runPromiseEnds(env, dayStart(nextDate(today), 0));
    expect((await eventsOf(s.debtor.id)).map((e) => e.type)).not.toContain("promise_broken");
    for (const id of s.schedules)
      expect(await scheduleRow(id)).toMatchObject({ state: "DISABLED", stopped_reason: "disputed" });
    expect((await debtorRow(s.debtor.id))?.promise_broken_at).toBeNull();
  });
});

describe("I've paid and opt-out from the debtor's page", () => {
  it("work as on /p and /u, then the page says so", async () => {
    const s = await setUp({ zone: "UTC" });
    const paid = await sayPaid(s.path, [], { intent: "portal-paid" });
    expect(paid.status).toBe(302);
    let now = await state(s);
    expect(now.debtor.paidClaimedAt).toEqual(expect.any(Number));
    // Every open invoice said paid: nothing is left to chase, so the schedules hold.
    for (const sched of now.schedules)
      expect(sched).toEqual({ state: "DISABLED", reason: "paid_claimed", next: null, alarm: null });
    expect(now.events).toEqual([
      { type: "paid_claimed", detail: expect.stringMatching(/^paid on \d{4}-\d{2}-\d{2}$/) },
    ]);
    const told = await visibleText(await get(`${s.path}?done=paid`));
    expect(told).toContain("Thank you. Sally Sender has been told and checks your payment");
    expect(told).toContain("Paid, being checked");

    const out = await post(s.path, { intent: "portal-opt-out" });
    expect(out.status).toBe(302);
    now = await state(s);
    expect(now.optOuts.map((o) => o.email)).toEqual([s.debtor.email.toLowerCase()]);
    expect(now.debtor.status).toBe("opted_out");
    for (const sched of now.schedules) expect(sched).toMatchObject({ state: "COMPLETED", reason: "opted_out" });
    const page = await visibleText(await get(`${s.path}?done=opted-out`));
    expect(page).toContain("You will not get any more reminders from Sally Sender at this address.");
    // The user's dashboard lists it with the debtors' other answers.
    const responses = await debtorResponsesQuery(db(), s.user.id);
    expect(responses).toContainEqual(
      expect.objectContaining({ kind: "opted_out", debtorId: s.debtor.id, fullName: s.debtor.fullName }),
    );
    // Only a recent one (the dashboard asks for the last 30 days).
    const later = await debtorResponsesQuery(db(), s.user.id, { optedOutSince: Date.now() + 60_000 });
    expect(later.filter((r) => r.kind === "opted_out")).toEqual([]);
  });

  it("needs the page's own origin: a cross-site POST is refused", async () => {
    const s = await setUp();
    const before = await state(s);
    const res = await postForm(s.path, { intent: "portal-opt-out" }, { originHeader: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await state(s)).toEqual(before);
  });
});

describe("hostile input on the debtor's page", () => {
  it("never answers 500, and never changes another debtor", async () => {
    const s = await setUp({ zone: "UTC" });
    const other = await setUp({ zone: "UTC" });
    const before = await state(other);
    const text = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: "binary", maxLength: 600 }));
    const intent = fc.oneof(
      fc.constantFrom("portal-paid", "portal-promise", "portal-dispute", "portal-opt-out", "dispute-resolve", ""),
      text,
    );
    await fc.assert(
      fc.asyncProperty(intent, text, text, text, async (intent, date, invoice, reason) => {
        // Opting out would end the rest of the run's interest: the page then only confirms.
        if (intent === "portal-opt-out") return;
        const res = await post(s.path, { intent, promised_on: date, invoice, reason });
        expect([302, 400, 409], `${intent} ${date} ${invoice}`).toContain(res.status);
        await res.body?.cancel();
      }),
      { numRuns: 40 },
    );
    expect(await state(other)).toEqual(before);
  });
});

describe("/p and /u name the sender as the reminders did, and show what is still owed", () => {
  it("the organization of the newest schedule, else the user", async () => {
    const s = await setUp({ org: "Acme Ltd" });
    const paidPage = await visibleText(await get(s.paidPath));
    expect(paidPage).toContain("Tell Acme Ltd you have paid");
    expect(paidPage).toContain("Still owed to Acme Ltd: $450.00");
    expect(paidPage).not.toContain("Sally Sender");
    const optOutPage = await visibleText(await get(s.optOutPath));
    expect(optOutPage).toContain("Stop payment reminders from Acme Ltd to");
    expect(optOutPage).toContain("Still owed to Acme Ltd: $450.00");
    expect(optOutPage).not.toContain("Sally Sender");

    // A newer schedule sent as the person: the user's name.
    await makeSchedule(s.user.id, s.debtor.id);
    expect(await visibleText(await get(s.paidPath))).toContain("Tell Sally Sender you have paid");
    // No name: the address's local part, never the address.
    const bare = await makeUser("");
    const d = await makeDebtor(bare.id, { invoice: false });
    await makeInvoice(bare.id, d.id, { amountCents: 12345, currency: "EUR" });
    const page = await visibleText(
      await get(new URL(await paidClaimLink(db(), config(), { id: d.id, ownerId: bare.id, optOutKey: null })).pathname),
    );
    const local = bare.email.split("@")[0]!;
    expect(page).toContain(`Tell ${local} you have paid`);
    expect(page).toContain("Still owed to");
    expect(page).toContain("€123.45");
    expect(page).not.toContain(bare.email);
  });
});
