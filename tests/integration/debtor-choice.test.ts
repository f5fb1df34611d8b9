import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { makeSchedule } from "./fixtures";
import { get, signIn, uniqueEmail } from "./helpers";

/**
 * A schedule form never ships more than 100 debtors: up to 100 they are a select that
 * works without JavaScript; beyond, the field searches /debtors/options as the user types.
 */

/** `count` debtors for the owner, named "Debtor 0001"…, in one statement. */
async function manyDebtors(ownerId: string, count: number) {
  await env.DB.prepare(
    `INSERT INTO debtors (owner_id, full_name, email, debt_cents, paid_cents, currency, active_strategy, status, time_zone)
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     SELECT ?1, 'Debtor ' || printf('%04d', i), 'debtor' || i || '-' || ?1 || '@example.com', 10000, 0, 'USD', 2, 'active', 'UTC' FROM n`,
  )
    .bind(ownerId, count)
    .run();
  const { results } = await env.DB.prepare("SELECT id FROM debtors WHERE owner_id = ? ORDER BY full_name")
    .bind(ownerId)
    .all<{ id: number }>();
  return results.map((r) => r.id);
}

describe("the schedule form's debtor field", () => {
  it("lists every debtor in a select when there are at most 100", async () => {
    const user = await signIn(uniqueEmail("choice-small"));
    await manyDebtors(user.userId, 100);
    const html = await (await get("/schedule", { cookie: user.cookie })).text();
    expect(html).toMatch(/<select[^>]*name="debtor_id"/);
    // Name, e-mail and open invoices: enough to tell two debtors of one name apart.
    expect(html).toContain(`Debtor 0100 — debtor100-${user.userId}@example.com · no open invoices`);
    expect(html).not.toContain('role="combobox"');
  });

  it("with 101 or more, ships none of them and searches instead (page and configure modal)", async () => {
    const user = await signIn(uniqueEmail("choice-big"));
    const ids = await manyDebtors(user.userId, 150);
    const res = await get("/schedule", { cookie: user.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('role="combobox"');
    expect(html).toContain('name="debtor_id"');
    expect(html).not.toContain(`-${user.userId}@example.com`);
    expect(html).not.toContain("Add a debtor to get started");

    // The configure modal's data: the schedule's own debtor only.
    const id = await makeSchedule(user.userId, ids[120]!);
    const details = await get(`/schedules/${encodeURIComponent(id)}.data`, { cookie: user.cookie });
    expect(details.status).toBe(200);
    const body = await details.text();
    expect(body).toContain(`debtor121-${user.userId}@example.com`);
    expect(body).not.toContain(`debtor1-${user.userId}@example.com`);

    // The search answers with each debtor's strategy (the preview's tone) and open invoices.
    const options = await get("/debtors/options?q=Debtor%200121", { cookie: user.cookie });
    expect(await options.json()).toEqual({
      options: [
        {
          id: ids[120],
          fullName: "Debtor 0121",
          email: `debtor121-${user.userId}@example.com`,
          activeStrategy: 2,
          openInvoices: 0,
        },
      ],
    });
  });
});
