import { expect, type Page, test } from "@playwright/test";
import { advanceSchedules, mailTo, readMailbox, signInByRequest } from "./helpers";

/** The visible row (table on desktop) or card (phone) of a debtor. */
function entry(page: Page, name: string) {
  return page.locator("tr:visible, li:visible").filter({ hasText: name });
}

/**
 * Xero through its local stand-in (decisions/060), as a bookkeeper would: autopilot on, connect
 * Xero (the stand-in's consent page), see what comes in, import; a payment recorded in Xero (the
 * stand-in's page) reaches Dunly through Xero's webhook (decisions/062), and that customer's
 * reminder never goes, while the others' do.
 */
test("connect Xero, preview, import; a payment in Xero stops the reminder through the webhook", async ({ page }) => {
  test.setTimeout(120_000);
  await signInByRequest(page, { redirectTo: "/iam/cadence?review=autopilot" });
  await page.getByRole("form", { name: "Before it starts" }).getByRole("button", { name: "Turn autopilot on" }).click();
  await expect(page.getByRole("heading", { name: "Autopilot is on" })).toBeVisible();

  await page.goto("/iam/accounting");
  await page.getByRole("button", { name: "Connect Xero" }).click();
  await expect(page).toHaveURL(/\/dev\/xero\/authorize\?/);
  await page.getByRole("button", { name: "Allow access" }).click();
  await expect(page).toHaveURL(/\/iam\/accounting$/);
  await expect(page.getByTestId("accounting-status")).toContainText("Connected to Xero: Demo Company (stand-in)");

  await page.getByRole("button", { name: "Show what comes in" }).click();
  await expect(
    page.getByText("3 customers, 5 open invoices, 2 overdue: they join your cadence after you confirm."),
  ).toBeVisible();
  await page.getByRole("button", { name: "Import from Xero" }).click();
  await expect(page.getByTestId("accounting-sync")).toContainText("5 (5 still owed)");

  // The customers are debtors now; their invoices say where they come from, and cannot be edited here.
  await page.goto("/debtors-list");
  await expect(entry(page, "Bayside Club")).toBeVisible();
  const listed = (await page.getByRole("main").textContent()) ?? "";
  const bayside = /tom\+[0-9a-f]{6}@bayside\.example/.exec(listed)?.[0];
  const ridgeway = /accounts\+[0-9a-f]{6}@ridgeway\.example/.exec(listed)?.[0];
  expect(bayside && ridgeway).toBeTruthy();

  // In Xero: Bayside pays its overdue invoice in full.
  await page.goto("/dev/xero");
  const row = page.locator("tr").filter({ hasText: "Bayside Club" }).filter({ hasText: "AUTHORISED" });
  await row.getByRole("button", { name: /^Add payment to / }).click();
  await expect(page.locator("tr").filter({ hasText: "Bayside Club" }).filter({ hasText: "AUTHORISED" })).toHaveCount(0);

  // Xero's webhook (the stand-in signs and delivers it) syncs the account at once: no Sync now.
  await expect(async () => {
    await page.goto("/debtors-list");
    await expect(entry(page, "Bayside Club")).toContainText("Paid", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });

  await page.goto("/iam/accounting");
  // Dunly's payments go to Xero too (decisions/063), turned on from the keyboard.
  await page.getByLabel("Record Dunly's payments in Xero").focus();
  await page.keyboard.press("Space");
  await page.getByLabel("Bank account in Xero").selectOption({ label: "Business Bank Account (090)" });
  await page.getByRole("button", { name: "Save", exact: true }).press("Enter");
  await expect(page.getByText(/from now on, into Business Bank Account \(090\)\./)).toBeVisible();

  // The overdue reminders go: Ridgeway's, never Bayside's.
  await advanceSchedules(page, 60_000);
  await mailTo(page, ridgeway!);
  expect((await readMailbox(page)).filter((m) => m.to === bayside)).toEqual([]);
});
