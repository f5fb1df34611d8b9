import { expect, type Page, test } from "@playwright/test";
import { addDebtorWith, appOrigin, literal, mailTo, resendTo, signInByRequest, uniqueEmail } from "./helpers";

/** The visible row (table on desktop) or card (phone) of a debtor. */
function debtorEntry(page: Page, name: string) {
  return page.locator("tr:visible, li:visible").filter({ hasText: name });
}

test('Pay now and "I\'ve paid": the debtor says they paid from the e-mail, the user sees the notice and confirms the payment in a dialog', async ({
  page,
  browser,
}, testInfo) => {
  const userEmail = await signInByRequest(page, { redirectTo: "/iam/info" });
  const sender = userEmail.split("@")[0]!;

  // The account's payment link, saved with the keyboard.
  const payUrl = "https://www.paypal.com/paypalme/dunlytest";
  const linkField = page.getByRole("textbox", { name: "Payment link", exact: true });
  await linkField.fill("http://not-secure.example.com");
  await page.getByRole("button", { name: "Save payment link" }).click();
  await expect(page.getByText("Please enter an https:// link to your payment page")).toBeVisible();
  await linkField.fill(payUrl);
  await linkField.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Payment link saved." })).toBeVisible();

  // A debtor in euros with an invoice number.
  await page.goto("/debtors-list");
  const name = "Paula Payer";
  const debtorEmail = uniqueEmail("paid-claim-debtor");
  await addDebtorWith(page, name, debtorEmail, "42", { currency: "EUR", invoiceNumber: "INV-77" });

  // A reminder goes out at once.
  await resendTo(page, name);
  const mail = await mailTo(page, debtorEmail);
  expect(mail.subject).toContain("INV-77");
  // The statement: the invoice's line and the total.
  expect(mail.text).toMatch(/INV-77 +\S.* +€42\.00 +\S/);
  expect(mail.text).toMatch(/Total due +€42\.00/);
  expect(mail.text).toContain(`Pay now <${payUrl}>`);
  const paidLink = /<a [^>]*href="([^"]+)"[^>]*>I&#x27;ve paid<\/a>/.exec(mail.html)?.[1];
  expect(paidLink, 'an "I\'ve paid" link in the e-mail').toMatch(
    new RegExp(`^${literal(appOrigin())}/p/[0-9a-f]{32}\\.[\\w-]{43}$`),
  );
  expect(mail.text).toContain(`I've paid <${paidLink}>`);

  // The debtor opens it in their own browser, without a session, and says they paid.
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor } = testInfo.project.use;
  const debtorContext = await browser.newContext({ viewport, userAgent, isMobile, hasTouch, deviceScaleFactor });
  try {
    const debtorPage = await debtorContext.newPage();
    await debtorPage.goto(paidLink!);
    await expect(debtorPage.getByRole("heading", { level: 1 })).toHaveText(`Tell ${sender} you have paid`);
    // What is still owed, to whom the reminders named.
    await expect(debtorPage.getByText("Still owed to")).toContainText("€42.00");
    // Nothing said: the form asks which invoices, and keeps what was typed.
    const reference = debtorPage.getByLabel("Payment reference (optional)");
    await reference.fill("RF18 0077");
    await debtorPage.getByRole("button", { name: "Yes, I have paid" }).click();
    await expect(debtorPage.getByText("Please tick the invoices you paid, or enter the amount.")).toBeVisible();
    await expect(reference).toHaveValue("RF18 0077");
    // The debtor ticks their invoice and sends it with the keyboard.
    await debtorPage.getByRole("checkbox", { name: /INV-77/ }).check();
    await reference.press("Enter");
    const status = debtorPage.getByRole("status");
    await expect(status).toContainText(`Thank you. ${sender} has been told that you paid INV-77 on `);
    await expect(status).toContainText(
      "(reference RF18 0077). Reminders leave it out until they have checked the payment.",
    );
  } finally {
    await debtorContext.close();
  }

  // The user's dashboard shows the notice; confirming records the payment.
  await page.goto("/dashboard");
  const notice = page.getByTestId("paid-claims-notice");
  await expect(notice).toContainText(`${name} says they paid INV-77 on `);
  await expect(notice).toContainText("(reference RF18 0077)");
  // "Confirm payment" asks: a dialog with the payment form, prefilled with what the debtor said
  // (the invoice's balance, their day, their reference); nothing is recorded before the user submits it.
  const confirmButton = notice.getByRole("button", { name: "Confirm payment" });
  await confirmButton.click();
  const confirm = page.getByRole("dialog", { name: `Confirm the payment of ${name}` });
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText("still owes €42.00");
  const amount = confirm.getByLabel("Amount", { exact: true });
  await expect(amount).toBeFocused();
  await expect(amount).toHaveValue("42.00");
  const today = await page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  });
  await expect(confirm.getByLabel("Date paid")).toHaveValue(today);
  await expect(confirm.getByLabel("Note (optional)")).toHaveValue(
    "The debtor said they had paid; confirmed. Reference: RF18 0077",
  );
  // "Apply to" starts on the invoice the debtor named.
  const applyTo = confirm.getByLabel("Apply to");
  await expect(applyTo.locator("option:checked")).toContainText("INV-77");
  // Escape closes it with nothing recorded; the focus is back on the button.
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(confirmButton).toBeFocused();
  await expect(notice).toContainText(`${name} says they paid INV-77 on `);
  // More than is owed: the field says so and keeps what was typed.
  await confirmButton.click();
  await amount.fill("50");
  await confirm.getByRole("button", { name: "Record payment" }).click();
  await expect(confirm.getByText("The payment can be at most €42.00, the amount still owed.")).toBeVisible();
  await amount.fill("42");
  await confirm.getByRole("button", { name: "Record payment" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(/^Payment of €42\.00 recorded\. The debt is paid in full/).first()).toBeVisible();
  await expect(notice).toBeHidden();

  // The debtor is paid, and the payment is in their Payments list.
  await page.goto("/debtors-list");
  await expect(debtorEntry(page, name)).toContainText("Paid");
  await debtorEntry(page, name)
    .getByRole("button", { name: `Configure ${name}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Configure debtor profile" });
  await expect(dialog.getByText("INV-77").first()).toBeVisible();
  await expect(dialog.getByRole("heading", { name: "Payments" })).toBeVisible();
  await expect(
    dialog.getByRole("list", { name: "Payments" }).getByRole("listitem").filter({ hasText: "€42.00" }),
  ).toBeVisible();
  await expect(dialog.getByTestId("debtor-balance")).toHaveText("Paid in full: €42.00");

  // The debtor's timeline tells the story, newest first: the claim confirmed, the payment, the claim.
  await dialog.getByRole("link", { name: "Full timeline" }).click();
  await expect(page).toHaveURL(/\/debtors\/\d+$/);
  const timeline = page.getByRole("main");
  await expect(timeline.getByText("Payment claim confirmed").first()).toBeVisible();
  await expect(timeline.getByText("Said they have paid").first()).toBeVisible();
  await expect(timeline.getByText(/Payment €42\.00/).first()).toBeVisible();
});

// An "I've paid" link that is not valid (404, the alert, no button): tests/integration/link-pages.test.ts.
