import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { addDebtor, debtorOption, signInByRequest, uniqueEmail } from "./helpers";

/** The visible row (table on desktop) or card (phone) that contains `text`. */
function entry(page: Page, text: string) {
  return page.locator("tr:visible, li:visible").filter({ hasText: text });
}

/** A daily schedule for the debtor through the new-schedule page; it is listed 'Active'. */
async function scheduleFor(page: Page, name: string, email: string) {
  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption({ label: debtorOption(name, email) });
  await page.getByLabel("Preset").selectOption({ label: "Single Reminder" });
  await page.getByLabel("Frequency").selectOption({ label: "Daily at 10:00" });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(page).toHaveURL(/\/schedules-list$/);
  await expect(entry(page, `${name} · Single Reminder`)).toContainText("Active");
}

async function openDebtor(page: Page, name: string) {
  await page.goto("/debtors-list");
  await entry(page, name)
    .getByRole("button", { name: `Configure ${name}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Configure debtor profile" });
  await expect(dialog.getByRole("heading", { name: "Payments" })).toBeVisible();
  return dialog;
}

test("a recorded payment in full shows 'Paid' and completes the debtor's schedules; deleting it offers to resume", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  const email = uniqueEmail("payer");
  await addDebtor(page, "Paula Payer", email, "120.50");
  await scheduleFor(page, "Paula Payer", email);

  let dialog = await openDebtor(page, "Paula Payer");
  await expect(dialog.getByText("No payments recorded yet.")).toBeVisible();
  await expect(dialog.getByTestId("debtor-balance")).toHaveText("Still owed: $120.50 of $120.50");
  // The date defaults to today; a partial payment with a note.
  await expect(dialog.getByLabel("Date paid")).not.toHaveValue("");
  await dialog.getByLabel("Amount", { exact: true }).fill("20.50");
  await dialog.getByLabel("Note (optional)").fill("Bank transfer");
  await dialog.getByRole("button", { name: "Add payment" }).click();
  await expect(page.getByText("Payment recorded.").first()).toBeVisible();
  await expect(dialog.getByTestId("debtor-balance")).toHaveText("Still owed: $100.00 of $120.50");
  await expect(
    dialog.getByRole("list", { name: "Payments" }).getByRole("listitem").filter({ hasText: "Bank transfer" }),
  ).toContainText("$20.50");

  // More than is owed: the message under the field, the amount kept.
  await dialog.getByLabel("Amount", { exact: true }).fill("100.01");
  await dialog.getByRole("button", { name: "Add payment" }).click();
  await expect(dialog.getByText("The payment can be at most $100.00, the amount still owed.")).toBeVisible();
  await expect(dialog.getByLabel("Amount", { exact: true })).toHaveValue("100.01");

  // The rest: paid in full.
  await dialog.getByLabel("Amount", { exact: true }).fill("100");
  await dialog.getByRole("button", { name: "Add payment" }).click();
  await expect(page.getByText("The debt is paid in full").first()).toBeVisible();
  await expect(dialog.getByTestId("debtor-balance")).toHaveText("Paid in full: $120.50");
  await expect(dialog.getByRole("button", { name: "Add payment" })).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(entry(page, "Paula Payer")).toContainText("Paid");
  await expect(entry(page, "Paula Payer")).toContainText("$120.50 paid of $120.50");

  await page.goto("/schedules-list");
  await expect(entry(page, "Paula Payer · Single Reminder")).toContainText("Stopped");
  await expect(entry(page, "Paula Payer · Single Reminder")).toContainText("Stopped: the debtor has paid.");

  // Deleting a payment re-opens the debt, but reminders only restart when the user says so.
  dialog = await openDebtor(page, "Paula Payer");
  await dialog.getByRole("button", { name: /^Delete payment of \$100\.00/ }).click();
  await expect(dialog.getByText(/^Delete the payment of \$100\.00/)).toBeVisible();
  await dialog.getByRole("button", { name: "Delete payment", exact: true }).click();
  await expect(page.getByText("Payment deleted. Reminders stay stopped until you resume them.").first()).toBeVisible();
  await expect(dialog.getByTestId("debtor-balance")).toHaveText("Still owed: $100.00 of $120.50");
  await dialog.getByRole("button", { name: "Resume reminders" }).click();
  // The dialog says so (the 3-second toast may be gone already on a loaded machine).
  await expect(dialog.getByText(/Reminders resumed/).first()).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Resume reminders" })).toBeHidden();
  await page.keyboard.press("Escape");
  await expect(entry(page, "Paula Payer")).not.toContainText("Paid");

  await page.goto("/schedules-list");
  await expect(entry(page, "Paula Payer · Single Reminder")).toContainText("Active");
});

test("edit a payment in the debtor's modal", async ({ page, signInShared }) => {
  await signInShared("/debtors-list");
  await addDebtor(page, "Eddie Edit", uniqueEmail("edit-payer"), "50");
  const dialog = await openDebtor(page, "Eddie Edit");
  await dialog.getByLabel("Amount", { exact: true }).fill("10");
  await dialog.getByLabel("Date paid").fill("2026-01-15");
  await dialog.getByRole("button", { name: "Add payment" }).click();
  await expect(dialog.getByRole("button", { name: "Edit payment of $10.00 on Jan 15, 2026" })).toBeVisible();

  await dialog.getByRole("button", { name: "Edit payment of $10.00 on Jan 15, 2026" }).click();
  // The amount has the focus; typing replaces it.
  await expect(dialog.getByLabel("Amount paid")).toBeFocused();
  await dialog.getByLabel("Amount paid").fill("15.25");
  await dialog.getByRole("button", { name: "Save payment" }).click();
  await expect(page.getByText("Payment updated.").first()).toBeVisible();
  await expect(dialog.getByTestId("debtor-balance")).toHaveText("Still owed: $34.75 of $50.00");
  await expect(dialog.getByRole("button", { name: "Edit payment of $15.25 on Jan 15, 2026" })).toBeVisible();
});
