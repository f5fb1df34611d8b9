import { expect, type Page, test } from "@playwright/test";
import { addDebtor, debtorOption, signInByRequest, uniqueEmail } from "./helpers";

/** The debtor timeline: in the debtor's modal and on its own page. */

function entry(page: Page, text: string) {
  return page.locator("tr:visible, li:visible").filter({ hasText: text });
}

test("a payment recorded in the debtor's modal appears in the timeline, after the schedule's creation", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  const email = uniqueEmail("timeline");
  await addDebtor(page, "Tim Line", email, "80");

  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption({ label: debtorOption("Tim Line", email) });
  await page.getByLabel("Preset").selectOption({ label: "Single Reminder" });
  await page.getByLabel("Frequency").selectOption({ label: "Daily at 10:00" });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page).toHaveURL(/\/schedules-list$/);

  await page.goto("/debtors-list");
  await entry(page, "Tim Line").getByRole("button", { name: "Configure Tim Line" }).click();
  const dialog = page.getByRole("dialog", { name: "Configure debtor profile" });
  const timeline = dialog.getByRole("list", { name: "Timeline" });
  await expect(timeline.getByRole("listitem").first()).toContainText("Schedule created · Daily · Single Reminder");
  await expect(dialog.getByTestId("next-reminder")).toContainText("Next reminder:");
  await expect(dialog.getByTestId("next-reminder")).not.toContainText("none scheduled");

  await dialog.getByLabel("Amount", { exact: true }).fill("20.50");
  await dialog.getByLabel("Note (optional)").fill("Bank transfer");
  await dialog.getByRole("button", { name: "Add payment" }).click();
  await expect(page.getByText("Payment recorded.").first()).toBeVisible();
  await expect(timeline.getByRole("listitem").first()).toContainText("Payment $20.50 · Bank transfer");
  await expect(timeline.getByRole("listitem").nth(1)).toContainText("Schedule created");

  await dialog.getByRole("link", { name: "Full timeline" }).click();
  await expect(page).toHaveURL(/\/debtors\/\d+$/);
  await expect(page.getByRole("heading", { name: "Tim Line", level: 1 })).toBeVisible();
  await expect(page.getByTestId("timeline-balance")).toHaveText("Still owed: $59.50 of $80.00");
  const full = page.getByRole("list", { name: "Timeline" });
  await expect(full.getByRole("listitem")).toHaveCount(2);
  await expect(full.getByRole("listitem").first()).toContainText("Payment $20.50 · Bank transfer");
  await expect(full.getByRole("listitem").nth(1)).toContainText("Schedule created · Daily · Single Reminder");
  await expect(page.getByTestId("next-reminder")).toContainText("Next reminder:");
});

// Another user's debtor page (and a missing one, /debtors/999999999) is the 404 page:
// tests/integration/timeline.test.ts.
