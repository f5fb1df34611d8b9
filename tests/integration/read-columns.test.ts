import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { makeDebtor } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";

/** Columns the pages read: the user's plan, their verified e-mail, a delivery's provider id. */
describe("data the pages show from the database", () => {
  it("the Subscription tab shows the user's own plan", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("plan"));
    expect(await pageText(await get("/iam/subscription", { cookie }))).toContain(
      "You are on the <strong>Medium</strong> plan",
    );
    await env.DB.prepare("UPDATE users SET plan = 'aggressive', subscription_status = 'active' WHERE id = ?")
      .bind(userId)
      .run();
    expect(await pageText(await get("/iam/subscription", { cookie }))).toContain(
      "You are on the <strong>Aggressive</strong> plan",
    );
  });

  it("the info tab marks a verified e-mail address", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("verified"));
    expect(await pageText(await get("/iam/info", { cookie }))).toContain(">Verified<");
    await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE id = ?").bind(userId).run();
    expect(await pageText(await get("/iam/info", { cookie }))).not.toContain(">Verified<");
  });

  it("the report shows the provider's message id of a delivery", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("provider-id"));
    const debtorId = (await makeDebtor(userId, { fullName: "Pia Provider" })).id;
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, provider_id, sent_at) VALUES (?, ?, ?, 'single', 1, 'sent', 're_msg_4711', ?)",
    )
      .bind(userId, debtorId, `report-${userId}`, Date.now())
      .run();
    const html = await pageText(await get("/report", { cookie }));
    expect(html).toContain("Pia Provider");
    expect(html).toContain("Message id re_msg_4711");
  });
});
