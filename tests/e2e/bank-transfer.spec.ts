import { expect, test } from "@playwright/test";
import { addDebtorByApi, mailTo, resendTo, signInByRequest } from "./helpers";

/**
 * Bank transfer (docs/decisions/051): the schedule page warns while reminders offer no way to pay; the user
 * saves their bank details (a mistyped IBAN refused, what was typed kept); the reminder and the
 * debtor's page show them with the reference for the invoices, each copied with one click.
 */
test("bank details: warned before, refused when mistyped, shown in the reminder and on the debtor's page with copy buttons", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInByRequest(page, { redirectTo: "/schedule" });
  const name = "Transfer Kunde";
  const { email } = await addDebtorByApi(page, name);
  await page.reload();
  await expect(page.getByTestId("no-way-to-pay")).toContainText("Your reminders offer no way to pay yet.");
  await page.getByRole("link", { name: "bank details" }).click();

  await expect(page).toHaveURL(/\/iam\/bank$/);
  await page.getByLabel("Currency").selectOption("EUR");
  await page.getByLabel("Account holder").fill("Ada Lovelace");
  const iban = page.getByLabel("IBAN");
  await iban.fill("DE89 3704 0044 0532 0130 01");
  await page.getByRole("button", { name: "Save bank details" }).click();
  await expect(page.getByText(/^This is not a valid IBAN/)).toBeVisible();
  await expect(iban).toHaveValue("DE89 3704 0044 0532 0130 01");
  await iban.fill("DE89 3704 0044 0532 0130 00");
  await page.getByLabel("Payment reference").fill("Invoice {invoice}");
  await page.getByRole("button", { name: "Save bank details" }).click();
  await expect(page.getByText(/^Bank details for EUR saved/)).toBeVisible();
  await expect(page.getByTestId("bank-account")).toContainText("DE89 3704 0044 0532 0130 00");

  await page.goto("/schedule");
  await expect(page.getByTestId("no-way-to-pay")).toBeHidden();
  await page.goto("/debtors-list");
  await resendTo(page, name);
  const mail = await mailTo(page, email);
  expect(mail.text).toContain("IBAN: DE89 3704 0044 0532 0130 00");
  expect(mail.text).toContain("Reference: Invoice INV-101");

  const portal = /<a [^>]*href="([^"]+\/d\/[^"]+)"[^>]*>/.exec(mail.html)?.[1];
  expect(portal).toBeTruthy();
  await page.goto(portal!);
  const card = page.getByTestId("bank-transfer");
  await expect(card).toContainText("Invoice INV-101");
  await card.getByRole("button", { name: "Copy IBAN" }).click();
  await expect(card.getByRole("button", { name: "IBAN copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("DE89370400440532013000");
});
