import { expect, type Page, test } from "@playwright/test";
import {
  addDebtorWith,
  appOrigin,
  literal,
  mailTo,
  readMailbox,
  resendTo,
  signInByRequest,
  uniqueEmail,
} from "./helpers";

/** The visible row (table on desktop) or card (phone) of a debtor. */
function entry(page: Page, name: string) {
  return page.locator("tr:visible, li:visible").filter({ hasText: name });
}

/**
 * Paid online through the user's own Stripe account (decisions/018), end to end with the local
 * stand-in: the user connects from Settings through the (stand-in's) hosted onboarding; a debtor
 * opens their page from a reminder, pays on /dev/checkout, and the page says "received" once the
 * signed event reached the webhook; the debtor is 'Paid', their schedule done, the receipt sent.
 */
test("a debtor pays online from a reminder: recorded by the webhook, the debtor is Paid, a receipt is sent", async ({
  page,
  browser,
}, testInfo) => {
  await signInByRequest(page, { redirectTo: "/iam/info" });

  // Connect with Stripe: the onboarding page, "Finish onboarding", back to Settings.
  const card = page.getByRole("region", { name: "Get paid online" });
  await card.getByRole("button", { name: "Connect with Stripe" }).click();
  await expect(page).toHaveURL(/\/dev\/checkout\/onboarding\/acct_/);
  await page.getByRole("button", { name: "Finish onboarding" }).click();
  await expect(page).toHaveURL(/\/iam\/info\?stripe=return/);
  await expect(page.getByTestId("stripe-status")).toContainText("Ready to take payments");

  // A debtor in euros, and a reminder at once.
  await page.goto("/debtors-list");
  const name = "Olga Online";
  const debtorEmail = uniqueEmail("connect-debtor");
  await addDebtorWith(page, name, debtorEmail, "42", { currency: "EUR", invoiceNumber: "INV-88" });
  await resendTo(page, name);
  const mail = await mailTo(page, debtorEmail);
  // Pay now starts Checkout for the signed debtor (no amount in the link).
  const origin = literal(appOrigin());
  expect(mail.text).toMatch(new RegExp(`Pay now <${origin}/d/[0-9a-f]{32}\\.[\\w-]{43}/pay>`));
  const portal = /<a [^>]*href="([^"]+)"[^>]*>View your statement \/ respond<\/a>/.exec(mail.html)?.[1];
  expect(portal).toMatch(new RegExp(`^${origin}/d/`));

  // The debtor, in their own browser: their page, Pay, the stand-in's Checkout, pay by card.
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor } = testInfo.project.use;
  const debtorContext = await browser.newContext({ viewport, userAgent, isMobile, hasTouch, deviceScaleFactor });
  try {
    const debtorPage = await debtorContext.newPage();
    await debtorPage.goto(portal!);
    await debtorPage.getByRole("button", { name: "Pay €42.00" }).click();
    await expect(debtorPage).toHaveURL(/\/dev\/checkout\/checkout\/cs_test_/);
    await expect(debtorPage.getByText("42.00 EUR")).toBeVisible();
    await debtorPage.getByRole("button", { name: "Pay by card" }).click();
    await expect(debtorPage).toHaveURL(/\/d\/[^?]+\?checkout=cs_test_/);
    await expect(debtorPage.getByRole("status")).toContainText("Payment received, thank you");
    await expect(debtorPage.getByText("Nothing is open. Thank you.")).toBeVisible();
  } finally {
    await debtorContext.close();
  }

  // The receipt is in the dev mailbox, once.
  await expect
    .poll(async () => (await readMailbox(page)).filter((m) => m.to === debtorEmail && m.subject.startsWith("Receipt:")))
    .toHaveLength(1);

  // The user: the debtor is Paid, the schedule done, the dashboard says it.
  await page.goto("/debtors-list");
  await expect(entry(page, name)).toContainText("Paid");
  await page.goto("/schedules-list");
  await expect(entry(page, name).first()).toContainText(/Stopped|Completed/);
  await expect(entry(page, name).first()).not.toContainText("Active");
  await page.goto("/dashboard");
  await expect(page.getByText(`${name} paid €42.00 online`)).toBeVisible();
});
