import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { daytimeZone } from "../support/daytime-zone";
import { appOrigin, inDays, signInByRequest, uniqueEmail } from "./helpers";

/**
 * Late charges (decisions/065): the user turns on UK statutory interest in Settings → Late charges,
 * sees a late company's interest under its invoice with how it was computed, and waives it.
 */
test("late charges: UK terms on, a company's interest explained on its page, then waived", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/iam/charges" });
  await page.getByLabel("Charge late-payment interest to business debtors").check();
  // The contract's terms are told in words as they are typed.
  await page.getByLabel("Rules").selectOption("contract");
  await page.getByLabel("Fee", { exact: true }).fill("25");
  await page.getByLabel("Grace days after the due date").fill("14");
  await expect(page.getByTestId("charges-explained")).toContainText(
    /A fee of .*25\.00 once, 14 days after the due date/,
  );
  await page.getByLabel("Rules").selectOption("gb");
  await expect(page.getByTestId("charges-explained")).toContainText("United Kingdom: Bank of England Bank Rate");
  await expect(page.getByTestId("charges-books")).toContainText("never written to Xero or QuickBooks");
  await page.getByRole("button", { name: "Save late charges" }).click();
  await expect(page.getByText(/^Late charges saved/)).toBeVisible();

  const res = await page.request.post("/api/debtors/add", {
    data: {
      kind: "company",
      full_name: "Late Ltd",
      email: uniqueEmail("late"),
      debt: 4000,
      currency: "GBP",
      invoice_number: "INV-900",
      due_on: await inDays(page, -40),
      time_zone: daytimeZone(),
    },
    headers: { Origin: appOrigin() },
  });
  expect(res.status(), await res.text()).toBe(200);
  const { data } = (await res.json()) as { data: { id: number } };

  await page.goto(`/debtors/${data.id}`);
  const interest = page.getByTestId("charge-line").filter({ hasText: "Statutory interest" });
  await expect(interest).toContainText("Late Payment of Commercial Debts (Interest) Act 1998");
  await expect(interest.getByTestId("charge-state")).toContainText("Still owed");
  await expect(page.getByTestId("charges-total")).toContainText("Late charges owed, besides the invoices");
  // The charges under their invoice, on a phone, in both themes: no serious axe finding, nothing wider than the screen.
  await page.setViewportSize({ width: 360, height: 780 });
  for (const theme of ["dracula", "light"]) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await expect(interest).toBeVisible();
    const { violations } = await new AxeBuilder({ page })
      .setLegacyMode(true)
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${theme}: ${v.id} ${v.help}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  }
  await interest.getByRole("button", { name: "Waive Statutory interest" }).click();
  await expect(interest.getByTestId("charge-state")).toContainText("Waived by");
  await expect(interest.getByRole("button", { name: "Restore Statutory interest" })).toBeVisible();
});
