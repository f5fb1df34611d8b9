import { expect, test } from "@playwright/test";
import { addDebtor, signInByRequest, uniqueEmail } from "./helpers";

/** Pause and resume a schedule from the Configure modal, by keyboard too. */
test("pause a schedule, then resume it from its next run", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/dashboard" });
  await addDebtor(page, "Paula Pause", uniqueEmail("pause-debtor"), "80");

  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption({ index: 1 });
  await page.getByLabel("Preset").selectOption({ label: "Escalating Reminders" });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page).toHaveURL(/\/schedules-list$/);

  const entry = page.locator("tr:visible, li:visible").filter({ hasText: "Paula Pause" });
  await expect(entry).toContainText("Active");
  await entry.getByRole("button", { name: /^Configure / }).click();
  const modal = page.getByRole("dialog", { name: "Configure schedule" });
  const state = modal.locator('dt:text-is("State") + dd');
  const next = modal.locator('dt:text-is("Next reminder") + dd');
  await expect(state).toHaveText("Active");
  const nextRun = await next.textContent();
  expect(nextRun).not.toBe("—");

  await modal.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByText("Schedule paused")).toBeVisible();
  await expect(state).toHaveText("Paused");
  await expect(next).toHaveText("—");
  await expect(modal.getByTestId("schedule-state-note")).toHaveText(
    "Paused: no reminders are sent until you resume it.",
  );
  // The list behind the modal shows it paused too.
  await expect(entry).toContainText("Paused");

  // Resume by keyboard: the button has the focus it had as Pause.
  const resume = modal.getByRole("button", { name: "Resume" });
  await resume.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Schedule resumed")).toBeVisible();
  await expect(state).toHaveText("Active");
  // Back on its schedule: the same next 10:00 as before the pause.
  await expect(next).toHaveText(nextRun ?? "");
  await expect(modal.getByTestId("schedule-state-note")).toHaveCount(0);
  await expect(modal.getByRole("button", { name: "Pause" })).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(modal).toBeHidden();
  await expect(entry).toContainText("Active");
});
