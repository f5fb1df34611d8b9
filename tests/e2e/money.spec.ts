import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { addDebtor, signInByRequest } from "./helpers";

// The dashboard opens on the money and the report offers the same aging table and its export, with
// no serious axe finding. At phone width, the accessibility sweep checks both pages fit the screen.
test("the dashboard opens on the money; the report shows and exports the aging", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/dashboard" });
  const money = page.getByRole("region", { name: "Money", exact: true });
  await expect(money.getByText("Nothing is owed to you yet")).toBeVisible();
  await expect(money.getByRole("table")).toHaveCount(0);

  await addDebtor(page, "Mia Money", "mia.money@example.com", "80");
  await expect(money.getByTestId("money-outstanding")).toHaveText("$80.00");
  await expect(money.getByTestId("money-collected")).toHaveText("Nothing yet");
  await expect(money.getByTestId("money-days-late")).toContainText("No payments");
  const aging = money.getByRole("table", { name: /Receivables by age/ });
  await expect(aging.getByRole("columnheader", { name: "Over 90 days overdue" })).toBeVisible();
  await expect(aging.getByRole("row", { name: /USD/ })).toContainText("$80.00");
  const oldest = money.getByRole("table", { name: "Oldest debts" });
  await expect(oldest.getByRole("link", { name: "Mia Money" })).toHaveAttribute("href", /^\/debtors\/\d+$/);
  // The money comes first, above the reminders card.
  const [moneyTop, remindersTop] = await Promise.all([
    money.evaluate((e) => e.getBoundingClientRect().top),
    page.getByTestId("reminders-sent").evaluate((e) => e.getBoundingClientRect().top),
  ]);
  expect(moneyTop).toBeLessThan(remindersTop);
  // Nothing scrolls the page sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).include("[data-testid=money]").analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);

  await page.goto("/report");
  const reportAging = page.getByRole("table", { name: /Receivables by age/ });
  await expect(reportAging.getByRole("row", { name: /USD/ })).toContainText("$80.00");
  const report = await new AxeBuilder({ page }).setLegacyMode(true).include("[data-testid=report-aging]").analyze();
  expect(report.violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export aging (CSV)" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^receivables-aging-\d{4}-\d{2}-\d{2}\.csv$/);
});
