import { describe, expect, it } from "vitest";
import { get } from "./helpers";

/**
 * The script nonce is made when a response needs it (workers/app.ts): a page's policy names the
 * nonce its inline scripts carry, a fresh one for each page; a JSON answer has neither.
 */
describe("the script nonce", () => {
  it("is the one the page's policy names, new for each page, and absent from JSON", async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const res = await get("/404");
      const csp = res.headers.get("Content-Security-Policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      const html = await res.text();
      const scripts = [...html.matchAll(/<script[^>]* nonce="([^"]*)"/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      expect(new Set(scripts)).toEqual(new Set([nonce]));
      nonces.push(nonce as string);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
    const json = await get("/api/does-not-exist");
    expect(json.headers.has("Content-Security-Policy")).toBe(false);
  });
});
