import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { formAction } from "./data-helpers";
import { makeDebtor, makeOrg, makeSchedule } from "./fixtures";
import { get, markup, pageText, request, type SignedIn, signIn, uniqueEmail } from "./helpers";

/**
 * Spec details — the dashboard's schedules card, a failed organizations load, the
 * preset select's default, a database failure in a debtor action, and plans without a checkout page.
 */

describe("the dashboard", () => {
  let a: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("spec-dash"));
  });

  it("the schedules card says it shows the selected debtor's schedules and links to all of them", async () => {
    const shown = await makeDebtor(a.userId, { fullName: "Selma Selected" });
    const other = await makeDebtor(a.userId, { fullName: "Otto Other" });
    await makeSchedule(a.userId, shown.id);
    await makeSchedule(a.userId, other.id);
    const html = await markup(await get(`/dashboard?debtor=${shown.id}`, { cookie: a.cookie }));
    expect(html).toContain("Showing the schedules of Selma Selected.");
    expect(html).toMatch(/<a[^>]*href="\/schedules-list"[^>]*>View All Schedules<\/a>/);
    // Only the selected debtor's schedule is in the card.
    expect(html).not.toContain("Otto Other ·");
  });

  it("a failed organizations load is logged and the page still renders", async () => {
    await makeOrg(a.userId, "Gone Org", "1 Nowhere");
    const debtor = await makeDebtor(a.userId, { fullName: "Still Here" });
    await env.DB.exec("ALTER TABLE organizations RENAME TO organizations_away");
    try {
      const res = await get(`/dashboard?debtor=${debtor.id}`, { cookie: a.cookie });
      expect(res.status).toBe(200);
      const html = await pageText(res);
      expect(html).toContain("Still Here");
      expect(html).toContain("Organizations");
      expect(html).not.toContain("Gone Org");
    } finally {
      await env.DB.exec("ALTER TABLE organizations_away RENAME TO organizations");
    }
    expect(await pageText(await get(`/dashboard?debtor=${debtor.id}`, { cookie: a.cookie }))).toContain("Gone Org");
  });
});

describe("the new-schedule page", () => {
  it("the preset select starts on the default preset (Escalating Reminders)", async () => {
    const a = await signIn(uniqueEmail("spec-preset"));
    await makeDebtor(a.userId);
    const html = await markup(await get("/schedule", { cookie: a.cookie }));
    expect(html).toMatch(/<option value="FRIENDLY_REMINDER" selected="">Escalating Reminders<\/option>/);
    expect(html).not.toContain("Select a preset");
  });
});

describe("a database failure in a debtor action", () => {
  let a: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("spec-dbfail"));
  });
  afterEach(async () => {
    for (const t of ["fail_debtor_insert", "fail_debtor_update", "fail_debtor_delete"]) {
      await env.DB.exec(`DROP TRIGGER IF EXISTS ${t}`);
    }
  });

  const fields = { full_name: "Boom Debtor", email: "boom@example.com", debt: "10", active_strategy: "1" };

  it("add: answers 'Something went wrong' (an error toast) with what was typed, not the error page", async () => {
    await env.DB.exec(
      "CREATE TRIGGER fail_debtor_insert BEFORE INSERT ON debtors WHEN NEW.full_name = 'Boom Debtor' BEGIN SELECT RAISE(ABORT, 'simulated failure'); END",
    );
    const { status, data } = await formAction("/debtors-list", { intent: "debtor-add", ...fields }, a.cookie);
    expect(status).toBe(500);
    expect(data).toMatchObject({ intent: "debtor-add", ok: false, message: "Something went wrong" });
    expect(data.result.initialValue.full_name).toBe("Boom Debtor");
    // Without JavaScript the page renders with the message, not the error page.
    const page = await formAction("/dashboard", { intent: "debtor-add", ...fields }, a.cookie);
    expect(page.status).toBe(500);
    expect(page.data.message).toBe("Something went wrong");
  });

  it("edit and delete: the same", async () => {
    const debtor = await makeDebtor(a.userId, { fullName: "Fragile Fred" });
    await env.DB.exec(
      "CREATE TRIGGER fail_debtor_update BEFORE UPDATE ON debtors WHEN NEW.full_name = 'Boom Debtor' BEGIN SELECT RAISE(ABORT, 'simulated failure'); END",
    );
    await env.DB.exec(
      "CREATE TRIGGER fail_debtor_delete BEFORE DELETE ON debtors WHEN OLD.full_name = 'Fragile Fred' BEGIN SELECT RAISE(ABORT, 'simulated failure'); END",
    );
    const edit = await formAction(
      "/debtors-list",
      { intent: "debtor-edit", id: String(debtor.id), ...fields },
      a.cookie,
    );
    expect(edit.status).toBe(500);
    expect(edit.data).toMatchObject({ intent: "debtor-edit", ok: false, message: "Something went wrong" });
    const remove = await formAction("/debtors-list", { intent: "debtor-delete", id: String(debtor.id) }, a.cookie);
    expect(remove.status).toBe(500);
    expect(remove.data).toMatchObject({ intent: "debtor-delete", ok: false, message: "Something went wrong" });
    const row = await env.DB.prepare("SELECT full_name FROM debtors WHERE id = ?").bind(debtor.id).first();
    expect(row).toEqual({ full_name: "Fragile Fred" });
  });

  it("the document post without JavaScript renders the page with the message", async () => {
    await env.DB.exec(
      "CREATE TRIGGER fail_debtor_insert BEFORE INSERT ON debtors WHEN NEW.full_name = 'Boom Debtor' BEGIN SELECT RAISE(ABORT, 'simulated failure'); END",
    );
    const body = new URLSearchParams({ intent: "debtor-add", ...fields });
    const res = await get("/debtors-list", { cookie: a.cookie });
    expect(res.status).toBe(200);
    const posted = await request("/debtors-list", {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "http://localhost",
        Cookie: a.cookie,
      },
      body: body.toString(),
    });
    expect(posted.status).toBe(500);
    const html = await pageText(posted);
    expect(html).toContain("Debtors");
    expect(html).not.toContain("Application Error");
  });
});

describe("the pricing page", () => {
  it("marks the trial's plan as Settings names it, offers Subscribe for every plan through Stripe, links to no external checkout", async () => {
    const a = await signIn(uniqueEmail("spec-pricing"));
    const html = await markup(await get("/pricing", { cookie: a.cookie }));
    const settings = await markup(await get("/iam/subscription", { cookie: a.cookie }));
    const named = settings.match(/You are on the <strong>([^<]+)<\/strong> plan/)?.[1];
    expect(named).toBe("Medium");
    // The card marked as the trial's is the one Settings names (docs/decisions/019).
    expect(html).toMatch(
      /aria-current="true"[^>]*>\s*<p[^>]*>Your trial<\/p>\s*<h2 id="plan-medium"[^>]*>Medium<\/h2>/,
    );
    expect(html.match(/Your trial</g)).toHaveLength(1);
    expect(html).toContain("14-day free trial of Medium");
    // In the test environment the local Stripe stand-in sells the plans: three Subscribe forms, nothing disabled.
    expect(html.match(/<input type="hidden" name="plan"/g)).toHaveLength(3);
    expect(html).not.toContain("Plans cannot be bought yet.");
    expect(html).not.toContain("buy.stripe.com");
  });
});
