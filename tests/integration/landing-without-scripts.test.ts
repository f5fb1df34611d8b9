import { describe, expect, it } from "vitest";
import { get, location, markup, postForm, setCookieFor, uniqueEmail } from "./helpers";

/**
 * The landing page is sent without module scripts (docs/decisions/026): its HTML alone signs in,
 * opens the menu and the FAQ, switches the theme and shows a flashed message.
 */

describe("the landing page without module scripts", () => {
  it("sends no module script, no modulepreload and no router context: only two inline scripts with the nonce", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('type="module"');
    expect(html).not.toContain("modulepreload");
    expect(html).not.toContain("__reactRouterContext");
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    // The theme boot script and the menu's Escape and outside-click handler.
    expect(scripts).toHaveLength(2);
    for (const script of scripts) expect(script).toMatch(/^<script nonce="[^"]+">$/);
    // Its controls are HTML: the sign-in form posts to the page, the FAQ and the menu are disclosures.
    const forms = html.match(/<form\b[^>]*>/g) ?? [];
    expect(forms.find((tag) => tag.includes('action="/?index"'))).toContain('method="post"');
    expect(forms.find((tag) => tag.includes('action="/theme"'))).toContain('method="post"');
    expect(html).toMatch(/<details[^>]*data-testid="visitor-menu"[\s\S]*?<form[^>]*action="\/theme"/);
    expect(html.match(/<summary/g)?.length).toBeGreaterThan(3);
  });

  it("other pages still hydrate", async () => {
    const html = await (await get("/sign-in/password")).text();
    expect(html).toContain('type="module"');
    expect(html).toContain("modulepreload");
  });

  it("answers a document post with the page, still without module scripts", async () => {
    const res = await postForm("/?index", { email: uniqueEmail("landing-doc") });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('type="module"');
    expect(html).toContain("Please Check your email for the sign in link");
  });

  it("shows a flashed message (after an account deletion) in the page, where it stays", async () => {
    const toast = encodeURIComponent(
      JSON.stringify({ id: "t1", kind: "success", message: "Your account and all its data were deleted." }),
    );
    const html = await markup(await get("/", { cookie: `dunly_toast=${toast}` }));
    expect(html).toMatch(/role="status"[^>]*>Your account and all its data were deleted\./);
  });
});

describe("the theme form (/theme)", () => {
  it("sets the theme cookie and goes back to the page; the page is then rendered in that theme", async () => {
    const res = await postForm("/theme", { theme: "light", redirectTo: "/" });
    expect(res.status).toBe(302);
    expect(location(res)?.pathname).toBe("/");
    const cookie = setCookieFor(res, "theme");
    expect(cookie).toMatch(/^theme=light; Path=\/; Max-Age=\d+; SameSite=Lax$/);
    const html = await (await get("/", { cookie: "theme=light" })).text();
    expect(html).toMatch(/<html[^>]*data-theme="light"/);
    const back = await postForm("/theme", { theme: "dracula", redirectTo: "/pricing" });
    expect(location(back)?.pathname).toBe("/pricing");
    expect(setCookieFor(back, "theme")).toMatch(/^theme=dracula;/);
  });

  it("refuses an unknown theme, ignores a foreign redirect and renders the default for a junk cookie", async () => {
    const bad = await postForm("/theme", { theme: "solarized", redirectTo: "/" });
    expect(bad.status).toBe(400);
    expect(setCookieFor(bad, "theme")).toBeUndefined();
    const foreign = await postForm("/theme", { theme: "light", redirectTo: "//evil.example/" });
    expect(location(foreign)?.href).toBe("http://localhost/");
    const html = await (await get("/", { cookie: "theme=solarized" })).text();
    expect(html).toMatch(/<html[^>]*data-theme="dracula"/);
  });

  it("is refused from another origin, like every form post", async () => {
    const res = await postForm("/theme", { theme: "light" }, { originHeader: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(setCookieFor(res, "theme")).toBeUndefined();
  });
});
