import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Json } from "./data-helpers";
import { makeDebtor, makeSchedule, setSchedule } from "./fixtures";
import { get, location, markup, type SignedIn, signIn, uniqueEmail } from "./helpers";
import { loaderData } from "./schedule-helpers";

/**
 * Search and sort in /debtors-list and /schedules-list (in the URL, server-side,
 * without JavaScript), and the dashboard's debtor dropdown reaching every debtor through
 * /debtors/options.
 */

const names = (rows: Json[]) => rows.map((r: Json) => r.fullName ?? r.debtorName);

describe("/debtors-list search and sort", () => {
  let a: SignedIn;
  let b: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("lsearch-a"));
    b = await signIn(uniqueEmail("lsearch-b"));
    await makeDebtor(a.userId, { fullName: "Carla Zimmer", email: "carla@zimmer.test", debtCents: 5_000 });
    await makeDebtor(a.userId, {
      fullName: "alice Brown",
      email: "ab@brown.test",
      debtCents: 90_000,
      paidCents: 80_000,
    });
    await makeDebtor(a.userId, { fullName: "Bob 100% Sure", email: "bob_s@sure.test", debtCents: 30_000 });
    await makeDebtor(a.userId, { fullName: "Dora Mind", email: "dora@brownfield.test", debtCents: 70_000 });
    await makeDebtor(b.userId, { fullName: "Brown Other", email: "other@brown.test" });
  });

  it("finds by name or e-mail, case-insensitively, only among the user's own debtors", async () => {
    const data = await loaderData("/debtors-list?q=BROWN", "routes/debtors-list", a.cookie);
    expect(names(data.debtors).sort()).toEqual(["Dora Mind", "alice Brown"]);
    expect(data.total).toBe(2);
    expect(data.q).toBe("BROWN");
  });

  it("takes % and _ literally", async () => {
    expect(names((await loaderData("/debtors-list?q=100%25", "routes/debtors-list", a.cookie)).debtors)).toEqual([
      "Bob 100% Sure",
    ]);
    expect(names((await loaderData("/debtors-list?q=b_s", "routes/debtors-list", a.cookie)).debtors)).toEqual([
      "Bob 100% Sure",
    ]);
    expect((await loaderData("/debtors-list?q=%25", "routes/debtors-list", a.cookie)).total).toBe(1);
    expect((await loaderData("/debtors-list?q=_", "routes/debtors-list", a.cookie)).total).toBe(1);
  });

  it("sorts by name, creation and amount owed, either way; an unknown sort is the default", async () => {
    const order = async (query: string) =>
      names((await loaderData(`/debtors-list?${query}`, "routes/debtors-list", a.cookie)).debtors);
    expect(await order("sort=name")).toEqual(["alice Brown", "Bob 100% Sure", "Carla Zimmer", "Dora Mind"]);
    expect(await order("sort=name&dir=desc")).toEqual(["Dora Mind", "Carla Zimmer", "Bob 100% Sure", "alice Brown"]);
    // Owed: debt minus paid (alice owes 100.00), most first by default.
    expect(await order("sort=owed")).toEqual(["Dora Mind", "Bob 100% Sure", "alice Brown", "Carla Zimmer"]);
    expect(await order("sort=owed&dir=asc")).toEqual(["Carla Zimmer", "alice Brown", "Bob 100% Sure", "Dora Mind"]);
    expect(await order("sort=created&dir=desc")).toEqual(["Dora Mind", "Bob 100% Sure", "alice Brown", "Carla Zimmer"]);
    expect(await order("sort=evil;DROP&dir=sideways")).toEqual(await order(""));
  });

  it("renders the search form as a plain GET form with the values kept (works without JavaScript)", async () => {
    const html = await markup(await get("/debtors-list?q=brown&sort=owed&dir=asc", { cookie: a.cookie }));
    expect(html).toMatch(/<form[^>]*method="get"/);
    expect(html).toMatch(/<input[^>]*name="q"[^>]*value="brown"/);
    expect(html).toMatch(/<option value="owed" selected="">Amount owed<\/option>/);
    expect(html).toContain("Clear search");
    expect(html).toContain("alice Brown");
    expect(html).not.toContain("Carla Zimmer");
  });

  it("keeps the search and order across pages", async () => {
    const c = await signIn(uniqueEmail("lsearch-pages"));
    // A page holds 25: 28 matches make two pages.
    for (let i = 0; i < 28; i++) {
      await makeDebtor(c.userId, { fullName: `Match ${String(i).padStart(2, "0")}`, debtCents: 1_000 + i });
    }
    await makeDebtor(c.userId, { fullName: "Nope" });
    const first = await loaderData("/debtors-list?q=match&sort=name&dir=desc", "routes/debtors-list", c.cookie);
    expect(first.total).toBe(28);
    expect(first.pages).toBe(2);
    expect(names(first.debtors)[0]).toBe("Match 27");
    const second = await loaderData("/debtors-list?q=match&sort=name&dir=desc&page=2", "routes/debtors-list", c.cookie);
    expect(names(second.debtors)).toEqual(["Match 02", "Match 01", "Match 00"]);
    const html = await markup(await get("/debtors-list?q=match&sort=name&dir=desc", { cookie: c.cookie }));
    expect(html).toMatch(/href="\/debtors-list\?q=match&amp;sort=name&amp;dir=desc&amp;page=2"/);
  });

  it("finds by a search longer than D1's 50-byte LIKE pattern limit", async () => {
    const long = `Longname ${"Quixotic ".repeat(8)}Ender`;
    await makeDebtor(a.userId, { fullName: long });
    const data = await loaderData(
      `/debtors-list?q=${encodeURIComponent(long.slice(0, 70).toUpperCase())}`,
      "routes/debtors-list",
      a.cookie,
    );
    expect(names(data.debtors)).toEqual([long]);
    await env.DB.prepare("DELETE FROM debtors WHERE owner_id = ? AND full_name = ?").bind(a.userId, long).run();
  });

  it("a long or hostile search is cut and answered, never a 500", async () => {
    for (const q of ["x".repeat(5000), "'; DROP TABLE debtors; --", "\\", "%_%_", "\u0000"]) {
      const res = await get(`/debtors-list?q=${encodeURIComponent(q)}`, { cookie: a.cookie });
      expect(res.status, q.slice(0, 20)).toBe(200);
    }
  });
});

describe("/schedules-list search and sort", () => {
  let a: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("ssearch-a"));
    const other = await signIn(uniqueEmail("ssearch-b"));
    const zed = await makeDebtor(a.userId, { fullName: "Zed Zulu", email: "zed@zulu.test" });
    const amy = await makeDebtor(a.userId, { fullName: "Amy Alpha", email: "amy@alpha.test" });
    const theirs = await makeDebtor(other.userId, { fullName: "Zed Other", email: "zed@other.test" });
    const s1 = await makeSchedule(a.userId, zed.id);
    const s2 = await makeSchedule(a.userId, amy.id);
    const s3 = await makeSchedule(a.userId, zed.id);
    await makeSchedule(other.userId, theirs.id);
    const now = Date.now();
    await setSchedule(s1, { next_run_at: now + 3 * 3_600_000, created_at: now - 3_000 });
    await setSchedule(s2, { next_run_at: now + 1 * 3_600_000, created_at: now - 2_000 });
    await setSchedule(s3, { next_run_at: null, state: "COMPLETED", created_at: now - 1_000 });
  });

  const order = async (query: string) =>
    names((await loaderData(`/schedules-list?${query}`, "routes/schedules-list", a.cookie)).schedules);

  it("finds by the debtor's name or e-mail, only the user's own", async () => {
    expect(await order("q=zed")).toEqual(["Zed Zulu", "Zed Zulu"]);
    expect(await order("q=ALPHA.TEST")).toEqual(["Amy Alpha"]);
    expect((await loaderData("/schedules-list?q=zed", "routes/schedules-list", a.cookie)).total).toBe(2);
  });

  it("sorts by creation (newest first), next run (soonest first, finished last) and debtor", async () => {
    expect(await order("")).toEqual(["Zed Zulu", "Amy Alpha", "Zed Zulu"]);
    expect(await order("sort=created&dir=asc")).toEqual(["Zed Zulu", "Amy Alpha", "Zed Zulu"].reverse());
    const next = (await loaderData("/schedules-list?sort=next", "routes/schedules-list", a.cookie)).schedules;
    expect(next.map((s: Json) => s.debtorName)).toEqual(["Amy Alpha", "Zed Zulu", "Zed Zulu"]);
    expect(next[2].nextRunAt).toBeNull();
    const nextDesc = (await loaderData("/schedules-list?sort=next&dir=desc", "routes/schedules-list", a.cookie))
      .schedules;
    expect(nextDesc[0].debtorName).toBe("Zed Zulu");
    expect(nextDesc[2].nextRunAt).toBeNull();
    expect(await order("sort=debtor")).toEqual(["Amy Alpha", "Zed Zulu", "Zed Zulu"]);
    expect(await order("sort=nonsense")).toEqual(await order(""));
  });

  it("renders a GET search form that keeps the debtor and period filters", async () => {
    const html = await markup(await get("/schedules-list?q=zed&period=30d&sort=debtor", { cookie: a.cookie }));
    expect(html).toMatch(/<input type="hidden" name="period" value="30d"\/>/);
    expect(html).toMatch(/<input[^>]*name="q"[^>]*value="zed"/);
    expect(html).toMatch(/<option value="debtor" selected="">Debtor<\/option>/);
  });
});

describe("the dashboard's debtor dropdown reaches every debtor", () => {
  let a: SignedIn;
  let late: { id: number };
  beforeAll(async () => {
    a = await signIn(uniqueEmail("dd-a"));
    for (let i = 0; i < 55; i++) await makeDebtor(a.userId, { fullName: `Early ${String(i).padStart(2, "0")}` });
    late = await makeDebtor(a.userId, { fullName: "Zoe Latecomer", email: "zoe@late.test" });
  });

  it("/debtors/options finds a debtor past the 50th, at most 20 at a time, by name", async () => {
    const res = await get("/debtors/options?q=latecomer", { cookie: a.cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      options: [{ id: late.id, fullName: "Zoe Latecomer", email: "zoe@late.test", activeStrategy: 1, openInvoices: 1 }],
    });
    const all = (await (await get("/debtors/options?q=", { cookie: a.cookie })).json()) as Json;
    expect(all.options).toHaveLength(20);
    expect(all.options[0].fullName).toBe("Early 00");
    const byEmail = (await (await get("/debtors/options?q=LATE.TEST", { cookie: a.cookie })).json()) as Json;
    expect(byEmail.options.map((o: Json) => o.id)).toEqual([late.id]);
  });

  it("never answers another user's debtors; a visitor gets 401", async () => {
    const b = await signIn(uniqueEmail("dd-b"));
    const theirs = (await (await get("/debtors/options?q=latecomer", { cookie: b.cookie })).json()) as Json;
    expect(theirs.options).toEqual([]);
    expect((await get("/debtors/options?q=a")).status).toBe(401);
  });

  it("the dashboard selects a debtor past the 50th and shows it, its count and its schedules", async () => {
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, sent_at) VALUES (?, ?, ?, 'single', 1, 'sent', ?)",
    )
      .bind(a.userId, late.id, `dd-${Date.now()}`, Date.now())
      .run();
    const res = await get(`/dashboard?debtor=${late.id}`, { cookie: a.cookie });
    expect(res.status).toBe(200);
    const data = await loaderData(`/dashboard?debtor=${late.id}`, "routes/dashboard", a.cookie);
    expect(data.selected).toMatchObject({ id: late.id, fullName: "Zoe Latecomer", emailsSent: 1 });
    const html = await markup(await get(`/dashboard?debtor=${late.id}`, { cookie: a.cookie }));
    expect(html).toMatch(/role="combobox"[^>]*value="Zoe Latecomer"|value="Zoe Latecomer"[^>]*role="combobox"/);
    expect(html).toContain("Showing the schedules of Zoe Latecomer.");
  });

  it("another user's or a missing debtor id leads back to the whole account", async () => {
    const b = await signIn(uniqueEmail("dd-c"));
    const theirs = await makeDebtor(b.userId, { fullName: "Not Yours" });
    const res = await get(`/dashboard?debtor=${theirs.id}`, { cookie: a.cookie });
    expect(res.status).toBe(302);
    const to = location(res);
    expect(to?.pathname).toBe("/dashboard");
    expect(to?.searchParams.has("debtor")).toBe(false);
  });
});
