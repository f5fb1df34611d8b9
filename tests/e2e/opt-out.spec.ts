import { expect, type Page, test } from "@playwright/test";
import {
  addDebtor,
  appOrigin,
  debtorOption,
  literal,
  mailTo,
  readMailbox,
  signInByRequest,
  uniqueEmail,
} from "./helpers";

/** The visible row (table on desktop) or card (phone) of a debtor. */
function debtorEntry(page: Page, name: string) {
  return page.locator("tr:visible, li:visible").filter({ hasText: name });
}

async function resendTo(page: Page, name: string) {
  await page
    .getByRole("checkbox", { name: `Select ${name}`, exact: true })
    .filter({ visible: true })
    .check();
  const answered = page.waitForResponse((res) => res.request().method() === "POST");
  await page.getByRole("button", { name: "Re-send reminders" }).click();
  await answered;
}

const countTo = async (page: Page, to: string) => (await readMailbox(page)).filter((m) => m.to === to).length;

test("the debtor stops reminders from the e-mail's link; the user sees 'Opted out' and can record renewed consent @phone", async ({
  page,
  browser,
}, testInfo) => {
  // The debtor's pages are read on a phone: the journey runs there; their desktop layout is the
  // accessibility sweep's (CI time, docs/decisions/044).
  test.skip(testInfo.project.name !== "phone", "a debtor's journey: phone only");
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  const name = "Otto Optout";
  const debtorEmail = uniqueEmail("opt-out-debtor");
  await addDebtor(page, name, debtorEmail, "42");

  // A reminder goes out; its footer carries the opt-out link, in the HTML and the plain text.
  await resendTo(page, name);
  await expect(page.getByText("Emails sending rescheduled.")).toBeVisible();
  const mail = await mailTo(page, debtorEmail);
  const link = /<a [^>]*href="([^"]+)"[^>]*>Stop them here<\/a>/.exec(mail.html)?.[1];
  expect(link, "a 'Stop them here' link in the e-mail").toMatch(
    new RegExp(`^${literal(appOrigin())}/u/[0-9a-f]{32}\\.[\\w-]{43}$`),
  );
  expect(mail.text).toContain(`Don't want these reminders? Stop them here <${link}>.`);

  // The debtor opens it in their own browser: no session, no cookies of the user.
  const { viewport, userAgent, isMobile, hasTouch, deviceScaleFactor } = testInfo.project.use;
  const debtorContext = await browser.newContext({ viewport, userAgent, isMobile, hasTouch, deviceScaleFactor });
  try {
    const debtorPage = await debtorContext.newPage();
    await debtorPage.goto(link!);
    const question = debtorPage.getByRole("heading", { level: 1 });
    await expect(question).toContainText("Stop payment reminders from");
    await expect(question).toContainText(`${debtorEmail[0]}•••`);
    await expect(debtorPage.getByText(debtorEmail)).toHaveCount(0);
    // What is still owed, to whom the reminders named.
    await expect(debtorPage.getByText("$42.00")).toBeVisible();
    // Keyboard: the button is reachable and pressed with Enter.
    const stop = debtorPage.getByRole("button", { name: "Stop reminders" });
    await stop.focus();
    await debtorPage.keyboard.press("Enter");
    const done = debtorPage.getByRole("status").filter({ hasText: "You will not get any more reminders from" });
    await expect(done).toBeVisible();
    await expect(done).toContainText("at this address.");
    // Opening the link again says it is done.
    await debtorPage.reload();
    await expect(debtorPage.getByText("You will not get any more reminders from")).toBeVisible();
    await expect(debtorPage.getByRole("button", { name: "Stop reminders" })).toHaveCount(0);
  } finally {
    await debtorContext.close();
  }

  // The user sees the debtor as opted out.
  await page.goto("/debtors-list");
  const entry = debtorEntry(page, name);
  await expect(entry).toContainText("Opted out");

  // Re-sending to them is refused with the reason, and nothing is sent.
  await resendTo(page, name);
  await expect(page.getByText(`${name} opted out of your reminders`).first()).toBeVisible();
  expect(await countTo(page, debtorEmail)).toBe(1);

  // A new schedule for them is refused under the debtor field; what the user chose stays.
  await page.goto("/schedule");
  await page.getByLabel("Debtor").selectOption({ label: debtorOption(name, debtorEmail) });
  await page.getByLabel("Preset").selectOption({ label: "Single Reminder" });
  await page.getByRole("button", { name: "Schedule", exact: true }).click();
  await expect(
    page.getByText(`${name} opted out of your reminders: Dunly sends them nothing until you record`),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/schedule$/);
  await expect(page.getByLabel("Preset")).toHaveValue("SINGLE_REMINDER");

  // Renewed consent: a deliberate action with a confirmation.
  await page.goto("/debtors-list");
  await debtorEntry(page, name)
    .getByRole("button", { name: `Configure ${name}` })
    .click();
  const dialog = page.getByRole("dialog", { name: "Configure debtor profile" });
  await expect(dialog).toContainText(`${debtorEmail} opted out of your reminders on this address.`);
  await dialog.getByRole("button", { name: "Record renewed consent" }).click();
  // The confirmation opens inline and takes the focus; Cancel returns it.
  await expect(dialog.getByText("Only continue if they told you")).toBeFocused();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog.getByRole("button", { name: "Record renewed consent" })).toBeFocused();
  await dialog.getByRole("button", { name: "Record renewed consent" }).click();
  await dialog.getByRole("button", { name: "Yes, they agreed to receive reminders again" }).click();
  await expect(page.getByText("Consent recorded. Reminders to this address are allowed again.").first()).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(debtorEntry(page, name)).not.toContainText("Opted out");
  // Still nothing more was sent: stopped reminders stay stopped until the user resumes them.
  expect(await countTo(page, debtorEmail)).toBe(1);
});

// An opt-out link that is not valid (404, the alert, no button): tests/integration/link-pages.test.ts.
