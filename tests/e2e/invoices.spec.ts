import { expect, type Page, test } from "@playwright/test";
import { addDebtor, signInByRequest, uniqueEmail } from "./helpers";

/**
 * Invoices in the debtor's modal: a second invoice, the list's
 * count of open invoices, a payment applied to one invoice, voids (refused while a payment is on
 * the invoice), and an add-debtor with an address the user already has, which offers that debtor.
 */

/** The debtors list's visible row (table on desktop, card on a phone) that contains `text` (not a toast). */
function entry(page: Page, text: string) {
  return page.locator("tr:visible").filter({ hasText: text });
}

async function openDebtor(page: Page, name: string) {
  await entry(page, name)
    .getByRole("button", { name: `Configure ${name}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Configure debtor profile" });
  await expect(dialog.getByRole("heading", { name: "Invoices" })).toBeVisible();
  return dialog;
}

test("add an invoice in the debtor's modal, see 2 open invoices, pay one, void the other", async ({ page }) => {
  test.setTimeout(90_000);
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  const email = uniqueEmail("ivy");
  await addDebtor(page, "Ivy Invoice", email, "100");
  await expect(entry(page, "Ivy Invoice")).toContainText("1 open invoice");

  let dialog = await openDebtor(page, "Ivy Invoice");
  const invoices = dialog.getByTestId("debtor-invoices");
  await expect(invoices.getByTestId("invoice-row")).toHaveCount(1);
  await expect(invoices.getByTestId("invoice-row")).toContainText("$100.00");
  await expect(invoices.getByTestId("invoice-row")).toContainText("Open");

  // A second invoice: the currency is the debtor's and the issue date today unless changed.
  await invoices.getByRole("button", { name: "Add invoice" }).click();
  await expect(invoices.getByLabel("Invoice number (optional)")).toBeFocused();
  await expect(invoices.getByLabel("Currency")).toHaveValue("USD");
  await expect(invoices.getByLabel("Issue date")).not.toHaveValue("");
  await invoices.getByLabel("Invoice number (optional)").fill("IVY-2");
  await invoices.getByLabel("Issue date").fill("2026-02-01");
  await invoices.getByLabel("Due date (optional)").fill("2026-01-15");
  await invoices.getByRole("button", { name: "Add invoice" }).click();
  // Before the issue date: refused on the field, what was typed kept.
  await expect(invoices.getByText("The due date cannot be before the issue date")).toBeVisible();
  await expect(invoices.getByLabel("Invoice number (optional)")).toHaveValue("IVY-2");
  await invoices.getByLabel("Amount", { exact: true }).fill("50");
  await invoices.getByLabel("Due date (optional)").fill("2026-03-01");
  await invoices.getByRole("button", { name: "Add invoice" }).click();
  await expect(page.getByText("Invoice added.").first()).toBeVisible();
  await expect(invoices.getByTestId("invoice-row")).toHaveCount(2);
  await expect(invoices.getByTestId("open-invoices")).toHaveText("2 open, 2 in all");
  await expect(dialog.getByTestId("debtor-balance")).toHaveText("Still owed: $150.00 of $150.00");

  await page.keyboard.press("Escape");
  await expect(entry(page, "Ivy Invoice")).toContainText("2 open invoices");

  // A payment applied to IVY-2 (not the oldest due): it alone is paid.
  dialog = await openDebtor(page, "Ivy Invoice");
  await dialog.getByLabel("Apply to").selectOption({ label: "IVY-2 · $50.00 left" });
  await dialog.getByLabel("Amount", { exact: true }).fill("50");
  await dialog.getByRole("button", { name: "Add payment" }).click();
  await expect(page.getByText("Payment recorded.").first()).toBeVisible();
  const ivy2 = dialog.getByTestId("invoice-row").filter({ hasText: "IVY-2" });
  await expect(ivy2).toContainText("Paid");
  await expect(dialog.getByTestId("open-invoices")).toHaveText("1 open, 2 in all");

  // A paid invoice cannot be voided: the confirmation says why.
  await ivy2.getByRole("button", { name: "Void invoice IVY-2" }).click();
  await expect(dialog.getByText(/^Void invoice IVY-2 of \$50\.00\?/)).toBeVisible();
  await dialog.getByRole("button", { name: "Void invoice", exact: true }).click();
  await expect(dialog.getByTestId("void-refused")).toHaveText(
    "Payments were recorded on this invoice: delete them before voiding it.",
  );
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(ivy2.getByRole("button", { name: "Void invoice IVY-2" })).toBeFocused();

  // The first invoice (no number) is voided: nothing is owed any more.
  const first = dialog.getByTestId("invoice-row").filter({ hasText: "$100.00" });
  await first.getByRole("button", { name: /^Void the invoice due / }).click();
  await dialog.getByRole("button", { name: "Void invoice", exact: true }).click();
  await expect(page.getByText("Invoice voided.").first()).toBeVisible();
  await expect(dialog.getByTestId("invoice-row").filter({ hasText: "$100.00" })).toContainText("Void");
  await expect(dialog.getByTestId("open-invoices")).toHaveText("0 open, 2 in all");
  await expect(dialog.getByTestId("debtor-balance")).toHaveText("Paid in full: $50.00");
  await page.keyboard.press("Escape");
  await expect(entry(page, "Ivy Invoice")).toContainText("no open invoices");

  // The same address again: the add offers Ivy instead of a twin, and adds the invoice to her.
  await page.getByRole("button", { name: "Add Debtor" }).click();
  const add = page.getByRole("dialog", { name: "Add a new debtor" });
  await add.getByLabel("Full Name").fill("Ivy Again");
  await add.getByLabel("Email").fill(email.toUpperCase());
  await add.getByLabel("Amount of debt").fill("75");
  await add.getByLabel("Invoice number (optional)").fill("IVY-3");
  await add.getByRole("button", { name: "Save" }).click();
  await expect(add.getByText("You already have a debtor with this e-mail: Ivy Invoice.")).toBeVisible();
  await expect(add.getByLabel("Full Name")).toHaveValue("Ivy Again");
  await add.getByRole("button", { name: "Add this invoice to Ivy Invoice" }).click();
  await expect(page.getByText("Invoice added to Ivy Invoice.").first()).toBeVisible();
  await expect(add).toBeHidden();
  await expect(entry(page, "Ivy Invoice")).toContainText("1 open invoice");
  await expect(page.getByText("Ivy Again")).toHaveCount(0);
});
