import { describe, expect, it } from "vitest";
import { addDays } from "~/domain/cadence";
import { localDateString } from "~/domain/schedule-time";
import { formAction, replyErrors } from "./data-helpers";
import { debtorRowsOf, invoicesOf, makeDebtor, makeInvoice } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";

/**
 * "Overdue · N days" (docs/architecture.md §13): a past-due open invoice says so on the debtors list, the
 * debtor's page and the invoices table, counted from the user's today (their `tz` cookie; UTC here).
 */
describe("overdue badges", () => {
  it("a debtor whose earliest open invoice is 20 days past due shows it; one not yet due does not", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("overdue"));
    const today = localDateString(Date.now(), "UTC");
    const late = await makeDebtor(userId, { fullName: "Late Ltd", invoice: false, debtCents: 300_000 });
    await makeInvoice(userId, late.id, { amountCents: 100_000, dueOn: addDays(today, -20)!, number: "L-1" });
    await makeInvoice(userId, late.id, { amountCents: 200_000, dueOn: addDays(today, 5)!, number: "L-2" });
    const early = await makeDebtor(userId, { fullName: "Early Inc", invoice: false, debtCents: 50_000 });
    await makeInvoice(userId, early.id, { amountCents: 50_000, dueOn: addDays(today, 3)!, number: "E-1" });

    const list = await pageText(await get("/debtors-list", { cookie }));
    // Late Ltd's only: Early Inc's invoice is not due yet.
    expect(list.match(/Overdue · \d+ days?/g)).toEqual(["Overdue · 20 days"]);

    const page = await pageText(await get(`/debtors/${late.id}`, { cookie }));
    // The header's badge and L-1's row; L-2 is open, not overdue.
    expect(page.match(/Overdue · 20 days/g)?.length).toBeGreaterThanOrEqual(1);
    expect(await pageText(await get(`/debtors/${early.id}`, { cookie }))).not.toContain("Overdue ·");
  });

  it("a new debtor's invoice takes the issue date typed, defaults to today, and refuses a due date before it", async () => {
    const signedIn = await signIn(uniqueEmail("issued"));
    const { userId } = signedIn;
    // The user's today is their browser's (the tz cookie): UTC here, so "today" below is the same day.
    const cookie = `${signedIn.cookie}; tz=UTC`;
    const form = { intent: "debtor-add", full_name: "Issued Ltd", active_strategy: "1", debt: "100" };
    const bad = await formAction(
      "/dashboard",
      { ...form, email: "bad@example.com", issued_on: "2026-11-10", due_on: "2026-11-01" },
      cookie,
    );
    expect(bad.status).toBe(400);
    expect(replyErrors(bad.data)).toEqual({ due_on: ["The due date cannot be before the issue date"] });
    const ok = await formAction(
      "/dashboard",
      { ...form, email: "ok@example.com", issued_on: "2026-10-01", due_on: "2026-10-31" },
      cookie,
    );
    expect(ok.status, JSON.stringify(ok.data)).toBe(200);
    const plain = await formAction("/dashboard", { ...form, email: "plain@example.com" }, cookie);
    expect(plain.status).toBe(200);
    const rows = await debtorRowsOf(userId);
    const issued = async (email: string) => (await invoicesOf(rows.find((d) => d.email === email)!.id))[0];
    expect(await issued("ok@example.com")).toMatchObject({ issued_on: "2026-10-01", due_on: "2026-10-31" });
    const today = localDateString(Date.now(), "UTC");
    expect(await issued("plain@example.com")).toMatchObject({ issued_on: today, due_on: today });
  });
});
