import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { outboxFor } from "./helpers";

describe("smoke", () => {
  it("serves the landing page", async () => {
    const res = await exports.default.fetch("http://localhost/");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Ready to annoy people who owe you money?");
  });
  it("sends a magic link through the mail Worker", async () => {
    const res = await exports.default.fetch("http://localhost/?index", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=smoke-bob@example.com",
    });
    expect(res.status).toBe(200);
    const [mail] = await outboxFor("smoke-bob@example.com");
    expect(mail).toMatchObject({ to: "smoke-bob@example.com", from: '"Dunly" <reminders@dunly.test>' });
  });
});
