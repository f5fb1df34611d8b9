import { expect, test } from "@playwright/test";
import { addDebtorByApi, appOrigin, mailTo, signInByRequest } from "./helpers";

/**
 * Payment plans (decisions/066), one journey on a desktop: the debtor asks for a plan on their
 * page, the user accepts it on the debtor page, the debtor's page shows the plan, an instalment is
 * missed (its dates moved back by the dev route, which runs the watchdog's plan step) and the user
 * is told: by e-mail and on the debtor page.
 */
test("a debtor asks for a payment plan, the user accepts it, an instalment is missed and the user is told", async ({
  page,
  browser,
}, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "one journey, desktop only");
  const userEmail = await signInByRequest(page, { redirectTo: "/debtors-list" });
  const name = "Petra Plan";
  const debtor = await addDebtorByApi(page, name, { debt: 900, currency: "EUR", invoiceNumber: "INV-301" });
  const link = await page.request.get(`/dev/debtors/${debtor.id}/portal`);
  expect(link.status()).toBe(200);
  const { url } = (await link.json()) as { url: string };
  expect(url.startsWith(appOrigin())).toBe(true);

  // The debtor, in their own browser without a session, asks for 3 instalments from today.
  const debtorContext = await browser.newContext();
  try {
    const debtorPage = await debtorContext.newPage();
    await debtorPage.goto(url);
    const plan = debtorPage.getByTestId("portal-plan");
    await expect(plan.getByRole("heading", { name: "Pay in instalments" })).toBeVisible();
    await plan.getByLabel("In a number of instalments").check();
    await plan.getByLabel("Number of instalments", { exact: true }).fill("3");
    await plan.getByRole("button", { name: "Ask for a payment plan" }).click();
    await expect(debtorPage.getByRole("status").first()).toContainText("has your request for a payment plan");
    await expect(debtorPage.getByTestId("portal-plan")).toContainText("You asked");

    // The user accepts it on the debtor page, choosing 2 days of grace.
    await page.goto(`/debtors/${debtor.id}`);
    const plans = page.getByTestId("debtor-plans");
    await expect(plans).toContainText("asked to pay in instalments");
    await plans.getByLabel("Grace after a missed date (days)").first().fill("2");
    await plans.getByRole("button", { name: "Accept the plan" }).click();
    await expect(page.getByText("Plan accepted").first()).toBeVisible();
    await expect(plans).toContainText("Running");
    // The debtor is sent every date and amount.
    const confirmation = await mailTo(page, debtor.email);
    expect(confirmation.subject).toContain("Your payment plan with");
    expect(confirmation.text).toContain("€300.00");

    // The debtor's page shows the plan: what is paid, what is next.
    await debtorPage.reload();
    const shown = debtorPage.getByTestId("portal-plan");
    await expect(shown).toContainText("Your payment plan: €900.00 in 3 instalments");
    await expect(shown).toContainText("Paid so far: €0.00 of €900.00");
    await expect(shown.getByTestId("plan-instalments").getByRole("row")).toHaveCount(4);

    // Two days pass without a payment: the first instalment is missed.
    const moved = await page.request.post("/dev/plans/advance", {
      data: { days: 2 },
      headers: { Origin: appOrigin() },
    });
    expect(moved.status(), await moved.text()).toBe(200);
    const notice = await mailTo(page, userEmail);
    expect(notice.subject).toBe(`${name} missed an instalment`);
    await page.reload();
    await expect(page.getByTestId("debtor-plans")).toContainText("has not been paid");
    await expect(page.getByTestId("debtor-plans").getByRole("button", { name: "End the plan" })).toBeVisible();
    await debtorPage.reload();
    await expect(debtorPage.getByTestId("portal-plan")).toContainText("Missed");
  } finally {
    await debtorContext.close();
  }
});
