import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { addDebtorWith, advanceSchedules, debtorOption, inDays, mailTo, signInByRequest, uniqueEmail } from "./helpers";

// A schedule that follows the due date: the first
// reminder of an invoice due in three days says when it is due; the debtor answers "I've paid" and
// the user's own mailbox is told; the dashboard opens on what is owed and its age.
test("a due-date schedule sends a 'due soon' e-mail, the user is told of \"I've paid\", the dashboard shows the money", async ({
  page,
  browser,
}, testInfo) => {
  const userEmail = await signInByRequest(page, { redirectTo: "/debtors-list" });
  const name = "Dora Due";
  const debtorEmail = uniqueEmail("due-date-debtor");
  const due = await inDays(page, 3);

  await addDebtorWith(page, name, debtorEmail, "250", { dueOn: due });

  // The new-schedule page: the cadence's fields and, in the preview, each step's e-mail.
  await page.goto("/schedule");
  await page.getByLabel("Debtor", { exact: true }).selectOption({ label: debtorOption(name, debtorEmail) });
  await page.getByLabel("Frequency").selectOption("due");
  const steps = page.getByLabel("Days from the due date");
  await expect(steps).toHaveValue("-3, 0, 3, 7, 14");
  // With the debtor chosen, the preview lists the e-mails that will really go, in the debtor's time.
  const preview = page.getByTestId("coming-emails");
  await expect(preview.getByRole("button")).toHaveCount(5);
  await expect(preview.getByRole("button").first()).toContainText("Initial Email");
  await expect(preview.getByRole("button").first()).toContainText("3 days before");
  await expect(preview.getByRole("button").last()).toContainText("Final Notice");
  await expect(preview.getByRole("button").last()).toContainText("14 days after");
  await expect(page.getByText("the final notice goes once, then Dunly stops and tells you")).toBeVisible();
  // The cadence's fields: labelled, grouped, no serious axe finding.
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).include("main").analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([]);
  // Bad steps are refused with the field's message and kept as typed.
  await steps.fill("-3, soon");
  await page.getByRole("button", { name: "Schedule" }).click();
  await expect(page.getByText(/^Enter up to 10 whole numbers of days/)).toBeVisible();
  await expect(steps).toHaveValue("-3, soon");
  await steps.fill("-3, 0, 7");
  await expect(preview.getByRole("button")).toHaveCount(3);
  await expect(preview.getByRole("button").last()).toContainText("Follow Up");
  await page.getByLabel("Send the first reminder now (in a minute), then follow the steps").check();
  await page.getByRole("button", { name: "Schedule" }).click();
  await page.waitForURL("**/schedules-list");

  // The minute's wait skipped: the first reminder says when payment is due, not that it is late.
  await advanceSchedules(page, 60_000);
  const mail = await mailTo(page, debtorEmail);
  expect(mail.text).toContain("$250.00");
  expect(mail.text).toMatch(/due/i);
  expect(mail.text).not.toMatch(/overdue|past due|as soon as possible|final notice/i);
  const paidLink = /<a [^>]*href="([^"]+)"[^>]*>I&#x27;ve paid<\/a>/.exec(mail.html)?.[1];
  expect(paidLink, 'an "I\'ve paid" link').toBeTruthy();

  // The debtor says they paid, in a browser of their own.
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor } = testInfo.project.use;
  const debtorContext = await browser.newContext({ viewport, userAgent, isMobile, hasTouch, deviceScaleFactor });
  try {
    const debtorPage = await debtorContext.newPage();
    await debtorPage.goto(paidLink!);
    // The invoice not yet due: the debtor ticks it and says they paid it.
    await debtorPage.getByRole("checkbox").first().check();
    await debtorPage.getByRole("button", { name: "Yes, I have paid" }).click();
    await expect(debtorPage.getByRole("status")).toContainText("has been told");
  } finally {
    await debtorContext.close();
  }

  // The user's own mailbox has the notice.
  const notice = await mailTo(page, userEmail);
  expect(notice.subject).toBe(`${name} says they have paid`);

  // The dashboard opens on the money: the outstanding total, and the invoice not yet due.
  await page.goto("/dashboard");
  const money = page.getByRole("region", { name: "Money", exact: true });
  await expect(money.getByTestId("money-outstanding")).toHaveText("$250.00");
  const aging = money.getByRole("table", { name: /Receivables by age/ });
  await expect(aging.getByRole("row", { name: /USD/ })).toContainText("$250.00");
});
