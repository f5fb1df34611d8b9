import { expect, type Page, test } from "@playwright/test";
import { addDebtor, signIn, signInByRequest } from "./helpers";

/**
 * The visible row (table on desktop) or card (phone) of a debtor in the debtors list: the one with
 * its selection checkbox (the dashboard's oldest debts name the debtor too).
 */
function debtorEntry(page: Page, name: string) {
  return page
    .locator("tr:visible, li:visible")
    .filter({ hasText: name })
    .filter({ has: page.getByRole("checkbox", { name: `Select ${name}` }) });
}

for (const where of ["/dashboard", "/debtors-list"]) {
  // On a phone the list's cards are the subject; the dashboard's modals are the same at any width.
  test(`add, validate, edit and delete a debtor through the modals on ${where}${where === "/debtors-list" ? " @phone" : ""}`, async ({
    page,
  }) => {
    await signInByRequest(page, { redirectTo: where });
    await expect(page.getByText("No debtors found")).toBeVisible();

    // Validation: browser-side messages under each field, nothing typed is lost.
    await page.getByRole("button", { name: "Add Debtor" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a new debtor" });
    await expect(dialog.getByRole("radio", { name: "Private person" })).toBeChecked();
    await dialog.getByLabel("Email").fill("not-an-email");
    await dialog.getByLabel("Amount of debt").fill("0");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("Please enter the full name of the debtor")).toBeVisible();
    await expect(dialog.getByText("Please enter a valid email")).toBeVisible();
    await expect(dialog.getByText("Please enter a number greater than 0")).toBeVisible();
    await expect(dialog.getByLabel("Email")).toHaveValue("not-an-email");
    await page.keyboard.press("Escape");

    await addDebtor(page, "Dana Debtor", "dana@example.com", "125.50", "2");
    const row = debtorEntry(page, "Dana Debtor");
    await expect(row).toContainText("dana@example.com");
    await expect(row).toContainText("$125.50");
    await expect(row).toContainText("Middle Ground");
    await expect(row).toContainText("0");

    // Configure → Edit → Cancel returns to the details; Edit → Save updates. (Exact: the debtor's
    // invoices have their own "Edit invoice …" buttons.)
    await row.getByRole("button", { name: "Configure Dana Debtor" }).click();
    const configure = page.getByRole("dialog", { name: "Configure debtor profile" });
    await expect(configure).toContainText("dana@example.com");
    // Without a language of their own, the debtor is written to in the user's.
    await expect(configure.getByTestId("debtor-language")).toHaveText("Same as mine (English)");
    await configure.getByRole("button", { name: "Edit", exact: true }).click();
    await configure.getByRole("button", { name: "Cancel" }).click();
    await expect(configure.getByRole("button", { name: "Disable" })).toBeVisible();
    await configure.getByRole("button", { name: "Edit", exact: true }).click();
    await configure.getByLabel("Full Name").fill("Dana Renamed");
    await configure.getByLabel("Amount of debt").fill("99");
    await configure.getByLabel("Language", { exact: true }).selectOption("de");
    await configure.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Debtor updated")).toBeVisible();
    await expect(debtorEntry(page, "Dana Renamed")).toContainText("$99.00");

    // Disable → Cancel returns; Disable → Delete removes it.
    await debtorEntry(page, "Dana Renamed").getByRole("button", { name: "Configure Dana Renamed" }).click();
    await expect(configure.getByTestId("debtor-language")).toHaveText("Deutsch");
    await configure.getByRole("button", { name: "Disable" }).click();
    await expect(configure.getByText("Are you sure you want to delete this debtor?")).toBeVisible();
    await configure.getByRole("button", { name: "Cancel" }).click();
    await configure.getByRole("button", { name: "Disable" }).click();
    await configure.getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("Debtor deleted")).toBeVisible();
    await expect(page.getByText("No debtors found")).toBeVisible();
  });
}

test("selection swaps 'Add Debtor' for 'Re-send reminders' and select-all toggles", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/dashboard" });
  await addDebtor(page, "First One", "first@example.com", "10");
  await addDebtor(page, "Second One", "second@example.com", "20");
  // The list has both rows (its revalidation is done): a selection made before that would be
  // cleared by the new rows arriving.
  await expect(page.getByRole("checkbox", { name: "Select Second One" })).toBeVisible();
  await page.getByRole("checkbox", { name: "Select First One" }).check();
  await expect(page.getByRole("button", { name: "Re-send reminders" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add Debtor" })).toBeHidden();
  const all = page.getByRole("checkbox", { name: "Select all debtors" });
  await all.click();
  await expect(page.getByRole("checkbox", { name: "Select Second One" })).toBeChecked();
  await all.click();
  await expect(page.getByRole("checkbox", { name: "Select First One" })).not.toBeChecked();
  await expect(page.getByRole("button", { name: "Add Debtor" })).toBeVisible();
});

test("a visitor sees /debtors-list without data and a way to sign in", async ({ page }) => {
  await page.goto("/debtors-list");
  await expect(page.getByText("No debtors found")).toBeVisible();
  await page.getByRole("link", { name: "Sign in" }).click();
  await signIn(page, { onCurrentPage: true });
  await expect(page).toHaveURL(/\/debtors-list$/);
  await expect(page.getByTestId("debtor-count")).toHaveText("0 debtors");
});

test.describe("a European user", () => {
  // The browser says German: the number format follows until the user chooses one in Settings.
  test.use({ locale: "de-DE" });

  test("types 1.234,56 in their own format; the US writing is refused with how to type it, a landline as a mobile too", async ({
    page,
  }) => {
    await signInByRequest(page, { redirectTo: "/debtors-list" });
    await page.getByRole("button", { name: "Add Debtor" }).click();
    const dialog = page.getByRole("dialog", { name: "Add a new debtor" });
    await dialog.getByLabel("Full Name").fill("Europa GmbH");
    await dialog.getByLabel("Email").fill("europa@example.com");
    const debt = dialog.getByLabel("Amount of debt");
    await expect(debt).toHaveAttribute("placeholder", "For example 1.234,56");
    await debt.fill("1,234.56");
    // A landline where a mobile is asked for (decisions/069): refused too, what was typed kept.
    const mobile = dialog.getByLabel("Mobile number (optional)");
    await mobile.fill("+49 30 901820");
    await dialog.getByLabel("I may text this debtor").check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(
      dialog.getByText(/^"1,234.56" is written in another number format than yours \(1\.234,56\)/),
    ).toBeVisible();
    await expect(debt).toHaveValue("1,234.56");
    await debt.fill("1.234,56");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByText("This is not a mobile number")).toBeVisible();
    await expect(mobile).toHaveValue("+49 30 901820");
    await expect(debt).toHaveValue("1.234,56");
    await mobile.fill("+49 151 23456789");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Debtor added").first()).toBeVisible();
    await expect(debtorEntry(page, "Europa GmbH")).toContainText("1,234.56");
    const listed = (await (await page.request.get("/api/debtors")).json()) as { id: number; full_name: string }[];
    await page.goto(`/debtors/${listed.find((d) => d.full_name === "Europa GmbH")?.id}`);
    await expect(page.getByTestId("debtor-phone")).toHaveText("Mobile +4915123456789 · you may text them");

    // Choosing another format in Settings, and "99,90" refused in the US one: tests/integration/amounts.test.ts.
  });
});
