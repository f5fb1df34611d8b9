import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { portalLink } from "~/links/debtor-pages.server";
import { readConfig } from "~/platform/config.server";
import { formAction } from "./data-helpers";
import { db, makeDebtor } from "./fixtures";
import { get, location, pageText, postForm, signIn, uniqueEmail, visibleText } from "./helpers";

/** The welcome page asks a new user's name and business (skippable); the business is who reminders come from. */
describe("/welcome", () => {
  it("asks the name and the business, saves them and goes to the dashboard; the debtor's page names the business", async () => {
    const user = await signIn(uniqueEmail("welcome"));
    const page = await visibleText(await get("/welcome", { cookie: user.cookie }));
    expect(page).toContain("About you");
    expect(page).toContain("Skip for now");
    expect(page).not.toContain("still in development");

    const saved = await postForm(
      "/welcome",
      { full_name: "Maya Schmidt", business_name: "Schmidt Design GmbH" },
      { cookie: user.cookie },
    );
    expect(saved.status).toBe(302);
    expect(location(saved)!.pathname).toBe("/dashboard");
    const row = await env.DB.prepare("SELECT full_name, business_name FROM users WHERE id = ?")
      .bind(user.userId)
      .first<{ full_name: string; business_name: string | null }>();
    expect(row).toEqual({ full_name: "Maya Schmidt", business_name: "Schmidt Design GmbH" });

    const debtor = await makeDebtor(user.userId);
    const portal = new URL(
      await portalLink(db(), readConfig(env), { id: debtor.id, ownerId: user.userId, optOutKey: null }),
    );
    expect(await visibleText(await get(portal.pathname))).toContain("Your statement from Schmidt Design GmbH");
  });

  it("refuses a business name on two lines or too long, keeping what was typed; nothing saved", async () => {
    const user = await signIn(uniqueEmail("welcome-bad"));
    for (const business_name of ["Two\nLines", "x".repeat(121)]) {
      const res = await postForm("/welcome", { full_name: "Kept Name", business_name }, { cookie: user.cookie });
      expect(res.status).toBe(400);
      const html = await pageText(res);
      expect(html).toMatch(/Please keep the business name on one line|Please use at most 120 characters/);
      expect(html).toContain('value="Kept Name"');
    }
    const row = await env.DB.prepare("SELECT business_name FROM users WHERE id = ?")
      .bind(user.userId)
      .first<{ business_name: string | null }>();
    expect(row?.business_name).toBeNull();
  });

  it("signed out: a welcome and the way in, nothing to post", async () => {
    const res = await get("/welcome");
    expect(res.status).toBe(200);
    const text = await visibleText(res);
    expect(text).toContain("Sign in");
    expect(text).not.toContain("About you");
    const post = await postForm("/welcome", { full_name: "X" });
    expect(post.status).toBe(302);
    expect(location(post)!.pathname).toBe("/404");
  });
});

describe("Settings → Info: the business name", () => {
  it("is saved with the name, cleared when emptied, and left alone by a form without it", async () => {
    const user = await signIn(uniqueEmail("business"));
    const business = async () =>
      (
        await env.DB.prepare("SELECT business_name AS b FROM users WHERE id = ?")
          .bind(user.userId)
          .first<{ b: string | null }>()
      )?.b;
    const save = (fields: Record<string, string>) =>
      formAction("/iam/info", { intent: "profile-name", ...fields }, user.cookie);
    expect((await save({ full_name: "Ana", business_name: "  Ana's Bakery  " })).status).toBe(200);
    expect(await business()).toBe("Ana's Bakery");
    expect((await save({ full_name: "Ana" })).status).toBe(200);
    expect(await business()).toBe("Ana's Bakery");
    expect((await save({ full_name: "Ana", business_name: "" })).status).toBe(200);
    expect(await business()).toBeNull();
    const refused = await save({ full_name: "Ana", business_name: "x".repeat(121) });
    expect(refused.status).toBe(400);
  });
});
