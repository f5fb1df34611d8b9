import { expect, type Page, test } from "@playwright/test";
import { signInByRequest } from "./helpers";

/** The visible row (table on desktop) or card (phone) of a debtor. */
function entry(page: Page, name: string) {
  return page.locator("tr:visible, li:visible").filter({ hasText: name });
}

/**
 * QuickBooks Online through its local stand-in (decisions/061), as a bookkeeper would: connect
 * (the stand-in's consent page), import; a payment received in QuickBooks (the stand-in's page)
 * reaches Dunly by QuickBooks' signed webhook, with no "Sync now": the debtor shows paid.
 */
test("connect QuickBooks, import; a payment in QuickBooks shows paid through its webhook", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/iam/accounting" });
  await page.getByRole("button", { name: "Connect QuickBooks" }).click();
  await expect(page).toHaveURL(/\/dev\/quickbooks\/authorize\?/);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await expect(page.getByTestId("accounting-status")).toContainText(
    "Connected to QuickBooks: Sandbox Company (stand-in)",
  );

  await page.getByRole("button", { name: "Show what comes in" }).click();
  await expect(page.getByText("3 customers, 5 open invoices, 2 overdue")).toBeVisible();
  await page.getByRole("button", { name: "Import from QuickBooks" }).click();
  await expect(page.getByTestId("accounting-sync")).toContainText("5 (5 still owed)");

  // In QuickBooks: Cool Cars pays its overdue invoice in full.
  await page.goto("/dev/quickbooks");
  await page.getByRole("button", { name: "Add payment to 1003" }).click();
  await expect(page.locator("tr[data-invoice='1003']")).toContainText("Paid");

  await page.goto("/debtors-list");
  await expect(async () => {
    await page.reload();
    await expect(entry(page, "Cool Cars")).toContainText("Paid", { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(entry(page, "Amy's Bird Sanctuary")).not.toContainText("Paid");
});
