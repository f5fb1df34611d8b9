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
