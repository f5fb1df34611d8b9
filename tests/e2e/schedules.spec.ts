import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  addDebtor,
  advanceSchedules,
  debtorOption,
  mailTo,
  readMailbox,
  signInByRequest,
  uniqueEmail,
} from "./helpers";

function scheduleEntry(page: Page, text: string) {
  return page.locator("tr:visible, li:visible").filter({ hasText: text });
}

test("a 'now' schedule: field errors, then created, listed and its e-mail arrives in the dev mailbox", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signInByRequest(page, { redirectTo: "/dashboard" });
  const debtorEmail = uniqueEmail("now-debtor");
  await addDebtor(page, "Nora Now", debtorEmail, "250", "2");

  await page.goto("/schedule");
  await expect(page.getByRole("heading", { name: "New schedule" })).toBeVisible();
  await expect(page.getByLabel("Send as", { exact: true })).toBeDisabled();
  // The preset starts on the default; no debtor chosen: the schema's message shows under the field.
  await expect(page.getByLabel("Preset")).toHaveValue("FRIENDLY_REMINDER");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page.getByText("Please select a debtor")).toBeVisible();

  await page.getByLabel("Debtor").selectOption({ label: debtorOption("Nora Now", debtorEmail) });
  await page.getByLabel("Preset").selectOption({ label: "Single Reminder" });
  await page.getByLabel("Frequency").selectOption({ label: "Now (once, in one minute)" });
  await expect(page.getByTestId("preview-frequency")).toHaveText("Now (once, in one minute)");
  await page.getByRole("button", { name: "Schedule", exact: true }).click();

  await expect(page).toHaveURL(/\/schedules-list$/);
  await expect(page.getByText("Email reminder scheduled.")).toBeVisible();
  const row = scheduleEntry(page, "Nora Now · Single Reminder");
  await expect(row).toContainText("Active");

  // Due one minute after creation, and not sent before.
  expect((await readMailbox(page)).filter((m) => m.to === debtorEmail)).toEqual([]);
  // That minute is skipped, not waited for: its next run moves a minute earlier and its alarm
  // fires now; the engine, the mail queue and the mail Worker (writing to the dev mailbox) do what
  // they do at the real time.
  const [due, ...others] = await advanceSchedules(page, 60_000);
  expect(others).toEqual([]);
  expect(due!.nextRunAt - due!.createdAt).toBe(60_000);
  const mail = await mailTo(page, debtorEmail);
  expect(mail.replyTo).toMatch(/^r-[0-9a-f]{32}-[0-9a-f]{26}@inbound\.localhost$/);
  expect(mail.subject.length).toBeGreaterThan(0);
  expect(mail.text).toContain("$250.00");

  await page.reload();
  await expect(scheduleEntry(page, "Nora Now · Single Reminder")).toContainText("Completed");
});

test("the preview switches templates and follows the preset and frequency", async ({ page, signInShared }) => {
  await signInShared("/dashboard");
  await addDebtor(page, "Pia Preview", uniqueEmail("preview-debtor"), "99", "3");
  await page.goto("/schedule");
  // The default preset is previewed at once.
  await expect(page.getByRole("heading", { name: "Escalating Reminders" })).toBeVisible();
  const templates = page.getByRole("list", { name: "Templates" });
  await expect(templates.getByRole("button")).toHaveText([
    "1. Initial Email",
    "2. Follow Up",
    "3. Second follow up",
    "4. Final Notice",
  ]);
  await expect(page.getByTestId("preview-frequency")).toHaveText("Daily at 10:00");

  const frame = page.frameLocator('iframe[title^="Preview:"]');
  await expect(page.locator('iframe[title="Preview: Initial Email"]')).toBeVisible();
  await expect(frame.locator("body")).toContainText("John Doe");
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what the preview shows
  const initialText = await frame.locator("body").innerText();

  await templates.getByRole("button", { name: "4. Final Notice" }).click();
  await expect(templates.getByRole("button", { name: "4. Final Notice" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator('iframe[title="Preview: Final Notice"]')).toBeVisible();
  await expect(frame.locator("body")).toContainText("$1,250.00");
  // biome-ignore lint/performance/useDomNodeTextContent: as above
  expect(await frame.locator("body").innerText()).not.toBe(initialText);

  await page.getByLabel("Frequency").selectOption({ label: "Weekly on Monday at 10:00" });
  await expect(page.getByTestId("preview-frequency")).toHaveText("Weekly on Monday at 10:00");
  // The sandbox forbids scripts and same-origin access.
  await expect(page.locator('iframe[title^="Preview:"]')).toHaveAttribute("sandbox", "");
});

test("edit a schedule in place and disable it from the configure modal", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/dashboard" });
  await addDebtor(page, "Eddie Edit", uniqueEmail("edit-debtor"), "40");
  await addDebtor(page, "Olga Other", uniqueEmail("other-debtor"), "60");

  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption({ index: 1 });
  await page.getByLabel("Preset").selectOption({ label: "Escalating Reminders" });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page).toHaveURL(/\/schedules-list$/);
  await expect(page.getByTestId("schedule-count")).toHaveText("1 schedule");

  const entry = page.locator("tr:visible, li:visible").filter({ hasText: "Escalating Reminders" });
  await entry.getByRole("button", { name: /^Configure / }).click();
  const modal = page.getByRole("dialog", { name: "Configure schedule" });
  await expect(modal.getByText("Daily at 10:00")).toBeVisible();
  await expect(modal).toContainText("Polite");

  await modal.getByRole("button", { name: "Edit" }).click();
  await modal.getByRole("button", { name: "Cancel" }).click();
  await expect(modal.getByRole("button", { name: "Disable" })).toBeVisible();
  await modal.getByRole("button", { name: "Edit" }).click();
  await modal.getByLabel("Preset").selectOption({ label: "Single Reminder" });
  await modal.getByLabel("Frequency").selectOption({ label: "Weekly on Monday at 10:00" });
  await modal.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Email reminder scheduled.")).toBeVisible();
  await expect(modal).toBeHidden();

  // Changed in place: still one schedule, now the single weekly reminder.
  await expect(page.getByTestId("schedule-count")).toHaveText("1 schedule");
  const edited = page.locator("tr:visible, li:visible").filter({ hasText: "Single Reminder" });
  await expect(edited).toBeVisible();
  await edited.getByRole("button", { name: /^Configure / }).click();
  await expect(modal.getByText("Weekly on Monday at 10:00")).toBeVisible();

  await modal.getByRole("button", { name: "Disable" }).click();
  await expect(
    modal.getByText("Are you sure you want to disable this schedule? No further reminders will be sent."),
  ).toBeVisible();
  await modal.getByRole("button", { name: "Cancel" }).click();
  await modal.getByRole("button", { name: "Disable" }).click();
  await modal.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText("Schedule deleted")).toBeVisible();
  await expect(page.getByText("No schedules found")).toBeVisible();
  await expect(page.getByTestId("schedule-count")).toHaveText("0 schedules");
});

test("re-send reminders to a selected debtor: toast, cleared selection and the e-mail", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/dashboard" });
  const debtorEmail = uniqueEmail("resend-debtor");
  await addDebtor(page, "Rita Resend", debtorEmail, "75.25", "1");
  await addDebtor(page, "Sam Skipped", uniqueEmail("skipped-debtor"), "10");

  await page.getByRole("checkbox", { name: "Select Rita Resend", exact: true }).filter({ visible: true }).check();
  await expect(page.getByRole("button", { name: "Add Debtor" })).toBeHidden();
  await page.getByRole("button", { name: "Re-send reminders" }).click();
  await expect(page.getByText("Emails sending rescheduled.")).toBeVisible();
  await expect(
    page.getByRole("checkbox", { name: "Select Rita Resend", exact: true }).filter({ visible: true }),
  ).not.toBeChecked();
  await expect(page.getByRole("button", { name: "Add Debtor" })).toBeVisible();

  const mail = await mailTo(page, debtorEmail);
  expect(mail.replyTo).toMatch(/^r-[0-9a-f]{32}-[0-9a-f]{26}@inbound\.localhost$/);
  expect(mail.text).toContain("$75.25");
  // The count on the dashboard catches up once the alarm has sent it.
  await page.goto("/debtors-list");
  await expect(page.locator("tr:visible").filter({ hasText: "Rita Resend" })).toContainText("1");

  await page.goto("/report");
  await expect(page.getByTestId("total-sent")).toHaveText("1");
  await expect(page.locator("tr:visible").filter({ hasText: "Rita Resend" })).toContainText("Sent");
});
