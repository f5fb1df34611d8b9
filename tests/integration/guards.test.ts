import { describe, expect, it } from "vitest";
import { get, location, NOT_FOUND_TEXT, pageText, postForm, signIn } from "./helpers";

const GUARDED = ["/dashboard", "/iam/info", "/schedule"];

describe("guarded pages", () => {
  describe("as a visitor", () => {
    for (const path of GUARDED) {
      it(`GET ${path} redirects to /404?redirectTo=${path}`, async () => {
        const res = await get(path);
        expect(res.status).toBe(302);
        const to = location(res)!;
        expect(to.origin).toBe("http://localhost");
        expect(to.pathname).toBe("/404");
        expect(to.searchParams.get("redirectTo")).toBe(path);
        expect(res.headers.get("Location")).toBe(`/404?redirectTo=${encodeURIComponent(path)}`);
      });
    }

    it("keeps the query string in redirectTo", async () => {
      const res = await get("/schedule?debtor=7");
      expect(res.status).toBe(302);
      expect(location(res)!.searchParams.get("redirectTo")).toBe("/schedule?debtor=7");
    });

    it("/404 with a page to return to is the sign-in page (200), whose form returns there; without one, the not-found page (404)", async () => {
      const res = await get("/404?redirectTo=%2Fdashboard");
      expect(res.status).toBe(200);
      const html = await pageText(res);
      expect(html).not.toContain(NOT_FOUND_TEXT);
      expect(html).toContain("Sign in to Dunly");
      expect(html).toContain("<title>Sign in");
      expect(html).toContain('name="redirectTo"');
      expect(html).toContain('value="/dashboard"');
      const bare = await get("/404");
      expect(bare.status).toBe(404);
      expect(await pageText(bare)).toContain(NOT_FOUND_TEXT);
    });

    it("/pricing is public: the plans with 'Start free trial' (sign-in, then the welcome page), no subscribe form", async () => {
      const res = await get("/pricing");
      expect(res.status).toBe(200);
      const html = await pageText(res);
      expect(html).toContain("Start free trial");
      expect(html).toContain('href="/404?redirectTo=%2Fwelcome"');
      expect(html).not.toContain('name="plan"');
      // Subscribing still needs an account.
      const post = await postForm("/pricing", { plan: "soft" });
      expect(post.status).toBe(302);
      expect(location(post)!.pathname).toBe("/404");
    });

    it("GET / shows the landing page", async () => {
      const res = await get("/");
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Ready to annoy people who owe you money?");
    });
  });

  describe("signed in", () => {
    for (const path of [...GUARDED, "/pricing"]) {
      it(`GET ${path} answers 200`, async () => {
        const { cookie } = await signIn();
        const res = await get(path, { cookie });
        expect(res.status).toBe(200);
        expect(await pageText(res)).not.toContain(NOT_FOUND_TEXT);
      });
    }

    it("GET / redirects to /welcome", async () => {
      const { cookie } = await signIn();
      const res = await get("/", { cookie });
      expect(res.status).toBe(302);
      expect(location(res)!.href).toBe("http://localhost/welcome");
    });

    it("GET /sign-in/password redirects to /welcome", async () => {
      const { cookie } = await signIn();
      const res = await get("/sign-in/password", { cookie });
      expect(res.status).toBe(302);
      expect(location(res)!.pathname).toBe("/welcome");
    });

    it("GET /iam/nope answers 404", async () => {
      const { cookie } = await signIn();
      const res = await get("/iam/nope", { cookie });
      expect(res.status).toBe(404);
      expect(await pageText(res)).toContain(NOT_FOUND_TEXT);
    });

    it("the other settings tabs answer 200", async () => {
      const { cookie } = await signIn();
      expect((await get("/iam/orgs", { cookie })).status).toBe(200);
      expect((await get("/iam/subscription", { cookie })).status).toBe(200);
      expect((await get("/iam", { cookie })).status).toBe(200);
    });
  });
});

describe("unknown pages", () => {
  it("answer 404 with Sorry, We Can't Find That Page", async () => {
    const res = await get("/no-such-page/at-all");
    expect(res.status).toBe(404);
    const html = await pageText(res);
    expect(html).toContain(NOT_FOUND_TEXT);
  });

  it("answer 404 for a signed-in user too", async () => {
    const { cookie } = await signIn();
    const res = await get("/definitely-missing", { cookie });
    expect(res.status).toBe(404);
    expect(await pageText(res)).toContain(NOT_FOUND_TEXT);
  });

  it("answer a same-origin form post with 404", async () => {
    const res = await postForm("/definitely-missing", { a: "b" });
    expect(res.status).toBe(404);
  });
});
