import { describe, expect, it } from "vitest";
import { newNonce, withSecurityHeaders } from "./security-headers.server";

describe("security headers", () => {
  it("makes a fresh 128-bit nonce each time", () => {
    const a = newNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(a);
  });

  it("allows scripts by nonce only, never inline, and no framing", () => {
    const page = withSecurityHeaders(new Response("<p>", { headers: { "Content-Type": "text/html" } }), "abc");
    const csp = page.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("script-src 'self' 'nonce-abc'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self'");
  });

  it("adds the policy to HTML and keeps a response's own headers", () => {
    const page = withSecurityHeaders(new Response("<p>", { headers: { "Content-Type": "text/html" } }), "n1");
    expect(page.headers.get("Content-Security-Policy")).toContain("'nonce-n1'");
    expect(page.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(page.headers.get("X-Content-Type-Options")).toBe("nosniff");

    const own = withSecurityHeaders(
      new Response("<p>", {
        headers: {
          "Content-Type": "text/html",
          "Content-Security-Policy": "sandbox",
          "Referrer-Policy": "no-referrer",
        },
      }),
      "n2",
    );
    expect(own.headers.get("Content-Security-Policy")).toBe("sandbox");
    expect(own.headers.get("Referrer-Policy")).toBe("no-referrer");

    const json = withSecurityHeaders(Response.json({}), "n3");
    expect(json.headers.has("Content-Security-Policy")).toBe(false);
    expect(json.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });

  it("makes a nonce given as a function only for a page that names it", () => {
    let made = 0;
    const nonce = () => {
      made += 1;
      return "lazy";
    };
    withSecurityHeaders(Response.json({}), nonce);
    expect(made).toBe(0);
    const page = withSecurityHeaders(new Response("<p>", { headers: { "Content-Type": "text/html" } }), nonce);
    expect(page.headers.get("Content-Security-Policy")).toContain("'nonce-lazy'");
    expect(made).toBe(1);
  });

  it("sends HSTS over https only", () => {
    const https = withSecurityHeaders(new Response("x"), "n", { https: true });
    expect(https.headers.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
    expect(withSecurityHeaders(new Response("x"), "n").headers.has("Strict-Transport-Security")).toBe(false);
  });

  it("makes what belongs to a session private and unstored, unless it chose private caching itself", () => {
    const page = () => new Response("<p>", { headers: { "Content-Type": "text/html" } });
    expect(withSecurityHeaders(page(), "n", { session: true }).headers.get("Cache-Control")).toBe("private, no-store");
    // A public page keeps its caching (none set here, none added).
    expect(withSecurityHeaders(page(), "n").headers.has("Cache-Control")).toBe(false);
    const cached = new Response("x", { headers: { "Cache-Control": "public, max-age=600" } });
    expect(withSecurityHeaders(cached, "n").headers.get("Cache-Control")).toBe("public, max-age=600");
    // Signed in, a public caching is overruled; a private one is the response's choice.
    const publicForUser = new Response("x", { headers: { "Cache-Control": "public, max-age=600" } });
    expect(withSecurityHeaders(publicForUser, "n", { session: true }).headers.get("Cache-Control")).toBe(
      "private, no-store",
    );
    const photo = new Response("x", { headers: { "Cache-Control": "private, max-age=3600" } });
    expect(withSecurityHeaders(photo, "n", { session: true }).headers.get("Cache-Control")).toBe(
      "private, max-age=3600",
    );
    // A response setting a cookie (a sign-in's redirect) without a session yet.
    const signIn = new Response(null, { status: 302, headers: { Location: "/dashboard", "Set-Cookie": "s=1" } });
    expect(withSecurityHeaders(signIn, "n").headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("sets them on the response itself, and on a copy when its headers are immutable", () => {
    const own = new Response("<p>", { headers: { "Content-Type": "text/html" } });
    expect(withSecurityHeaders(own, "n4")).toBe(own);
    expect(own.headers.get("Content-Security-Policy")).toContain("'nonce-n4'");

    const redirect = Response.redirect("https://example.com/next", 302);
    expect(() => redirect.headers.set("X-Probe", "1")).toThrow(TypeError);
    const copied = withSecurityHeaders(redirect, "n5");
    expect(copied).not.toBe(redirect);
    expect(copied.status).toBe(302);
    expect(copied.headers.get("Location")).toBe("https://example.com/next");
    expect(copied.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});
