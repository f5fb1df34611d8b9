import { describe, expect, it } from "vitest";
import { makeDebtor } from "./fixtures";
import { get, latestLinkToken, requestLink, signIn, uniqueEmail, verify } from "./helpers";

/**
 * HSTS and caching: every https response carries Strict-Transport-Security;
 * everything that belongs to a session (its pages, their data requests, the JSON API, CSV exports,
 * the redirects of a signed-in request and a sign-in's own redirect) is `private, no-store`; public
 * pages keep their caching.
 */

const PRIVATE = "private, no-store";
const HSTS = "max-age=63072000; includeSubDomains";

describe("Cache-Control on what belongs to a session", () => {
  it("is private, no-store on signed-in pages, their data, the JSON API, CSV exports and redirects", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("cache"));
    const debtor = await makeDebtor(userId);
    for (const path of [
      "/dashboard",
      "/debtors-list",
      "/debtors-list.data",
      `/debtors/${debtor.id}`,
      "/iam/info",
      "/iam/info.data",
      "/report",
      "/api/profile",
      "/api/schedules",
      "/report.csv",
      "/debtors.csv",
      "/invoices.csv",
      "/pricing",
      // Not found, for a signed-in user, is theirs too (it shows their menu).
      "/no-such-page",
    ]) {
      const res = await get(path, { cookie });
      await res.arrayBuffer();
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get("Cache-Control"), path).toBe(PRIVATE);
    }
    // A signed-in request's redirect: the landing page sends a signed-in user on.
    const landing = await get("/", { cookie });
    expect(landing.status).toBe(302);
    expect(landing.headers.get("Cache-Control")).toBe(PRIVATE);
  });

  it("is private, no-store on a sign-in's redirect that sets the session cookie", async () => {
    const email = uniqueEmail("cache-verify");
    await requestLink(email);
    const res = await verify(await latestLinkToken(email));
    expect(res.status).toBe(302);
    expect(res.headers.get("Set-Cookie")).toBeTruthy();
    expect(res.headers.get("Cache-Control")).toBe(PRIVATE);
  });

  it("leaves public pages their own caching", async () => {
    for (const path of ["/", "/404", "/sign-in/password"]) {
      const res = await get(path);
      await res.arrayBuffer();
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers.get("Cache-Control") ?? "", path).not.toContain("private");
    }
  });
});

describe("Strict-Transport-Security", () => {
  it("is sent on https responses, signed in or not, and not over plain http", async () => {
    const https = await get("/", { origin: "https://localhost" });
    expect(https.headers.get("Strict-Transport-Security")).toBe(HSTS);
    const json = await get("/api/does-not-exist", { origin: "https://localhost" });
    expect(json.headers.get("Strict-Transport-Security")).toBe(HSTS);
    const signedIn = await signIn(uniqueEmail("hsts"), { origin: "https://localhost" });
    const page = await get("/dashboard", { cookie: signedIn.cookie, origin: "https://localhost" });
    expect(page.headers.get("Strict-Transport-Security")).toBe(HSTS);
    expect(page.headers.get("Cache-Control")).toBe(PRIVATE);
    expect((await get("/")).headers.has("Strict-Transport-Security")).toBe(false);
  });
});
