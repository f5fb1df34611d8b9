import { describe, expect, it } from "vitest";
import { addDebtor } from "./data-helpers";
import { schedulesOf } from "./fixtures";
import { get, location, markup, postForm, SIGN_IN_SENT, signIn, uniqueEmail } from "./helpers";
import { DEBTOR_MSG, PRESET_MSG, SCHEDULED, singleReminderFields } from "./schedule-helpers";

/**
 * Forms posted as documents, as a browser does before the page has hydrated or without
 * JavaScript: the page answers with its own HTML, messages and field errors in the markup (not
 * only in the data React hydrates from), and what the user typed is kept.
 */

describe("the magic-link form", () => {
  it("shows 'Please Check your email…' in the page after a document post", async () => {
    const res = await postForm("/?index", { email: uniqueEmail("doc-link") });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    expect(await markup(res)).toContain(SIGN_IN_SENT);
  });

  it("shows the field error under the field and keeps the typed address", async () => {
    const res = await postForm("/?index", { email: "not-an-address" });
    expect(res.status).toBe(400);
    const html = await markup(res);
    expect(html).toMatch(/id="[^"]*-error"[^>]*>[^<]*Email is required/);
    expect(html).toContain('value="not-an-address"');
    expect(html).not.toContain(SIGN_IN_SENT);
  });

  it("works the same on /404 (the guarded-route sign-in)", async () => {
    const res = await postForm("/404?redirectTo=%2Fdashboard", {
      email: uniqueEmail("doc-404"),
      redirectTo: "/dashboard",
    });
    expect(await markup(res)).toContain(SIGN_IN_SENT);
  });
});

describe("the new-schedule form on /schedule", () => {
  it("answers a bad post with the page and its field errors, never raw JSON", async () => {
    const user = await signIn(uniqueEmail("doc-schedule-bad"));
    await addDebtor(user.cookie);
    const res = await postForm(
      "/schedule",
      { intent: "schedule-create", kind: "person", frequency: "weekly", redirectTo: "/schedules-list" },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get("Content-Type")).toContain("text/html");
    const html = await markup(res);
    expect(html).toContain(DEBTOR_MSG);
    expect(html).toContain(PRESET_MSG);
    // The frequency the user chose is still selected.
    expect(html).toMatch(/<option value="weekly" selected="">/);
    expect(await schedulesOf(user.userId)).toEqual([]);
  });

  it("creates the schedule and lands on /schedules-list, where 'Email reminder scheduled.' is shown once", async () => {
    const user = await signIn(uniqueEmail("doc-schedule-ok"));
    const debtor = await addDebtor(user.cookie);
    const res = await postForm(
      "/schedule",
      {
        intent: "schedule-create",
        kind: "person",
        debtor_id: String(debtor.id),
        preset: "SINGLE_REMINDER",
        frequency: "weekly",
        time_zone: "Europe/Berlin",
        redirectTo: "/schedules-list",
      },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(302);
    expect(location(res)?.pathname).toBe("/schedules-list");
    expect(await schedulesOf(user.userId)).toHaveLength(1);
    const flash = /dunly_toast=[^;]+/.exec(res.headers.get("Set-Cookie") ?? "")?.[0];
    expect(flash).toBeDefined();

    const list = await get("/schedules-list", { cookie: `${user.cookie}; ${flash}` });
    expect(list.status).toBe(200);
    // Shown in the page itself too, for a browser without JavaScript.
    expect(await markup(list)).toContain(SCHEDULED);
    // Read once: the answer clears the cookie.
    expect(list.headers.get("Set-Cookie")).toMatch(/dunly_toast=;.*Max-Age=0/);
  });

  it("never redirects off-site: a foreign redirectTo answers in place", async () => {
    const user = await signIn(uniqueEmail("doc-schedule-evil"));
    const debtor = await addDebtor(user.cookie);
    const fields = singleReminderFields(debtor.id);
    for (const redirectTo of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const res = await postForm("/schedule", { ...fields, redirectTo }, { cookie: user.cookie });
      expect(res.status, redirectTo).toBe(200);
      expect(res.headers.get("Location")).toBeNull();
    }
  });
});

describe("odd cookies", () => {
  it("a malformed or foreign toast or session cookie is ignored, not a 500", async () => {
    for (const cookie of [
      "dunly_toast=%E0%A4%A",
      'dunly_toast={"id":1}',
      "dunly_toast=null",
      "dunly_session=%E0%A4%A",
    ]) {
      const res = await get("/welcome", { cookie });
      expect(res.status, cookie).toBe(200);
    }
  });
});
