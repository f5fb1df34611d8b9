import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

describe("smoke", () => {
  it("serves the landing page", async () => {
    const res = await exports.default.fetch("http://localhost/");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Ready to annoy people who owe you money?");
  });
  it("sends a magic link into the dev outbox", async () => {
    const res = await exports.default.fetch("http://localhost/?index", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=bob@example.com",
    });
    expect(res.status).toBe(200);
    const row = await env.DB.prepare("SELECT * FROM dev_outbox").first();
    expect(row).toMatchObject({ to: "bob@example.com" });
  });
});
