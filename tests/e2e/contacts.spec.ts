import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { addDebtorByApi, mailTo, resendTo, uniqueEmail } from "./helpers";

/**
 * A debtor's contacts (docs/decisions/057): on a phone, with the keyboard, the user adds a contact
 * on the debtor's page (a bad address refused on its field, what was typed kept), and the next
 * reminder goes to the debtor with the contact CC'd.
 */
test("adding a contact on the debtor's page with the keyboard at 360 px, then CC'd on the reminder", async ({
  page,
  signInShared,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await signInShared("/debtors-list");
  const name = "Contact Kunde";
  const { id, email } = await addDebtorByApi(page, name);
  await page.goto(`/debtors/${id}`);

  const contacts = page.getByRole("region", { name: "Contacts" });
  await contacts.getByRole("button", { name: "Add contact" }).focus();
  await page.keyboard.press("Enter");
  const form = page.getByRole("form", { name: "Add a contact" });
  // The name field has the focus: type, Tab to the e-mail.
  await expect(form.getByLabel("Name")).toBeFocused();
  await page.keyboard.type("Jane Payable");
  await page.keyboard.press("Tab");
  await page.keyboard.type("jane-at-example");
  await form.getByLabel("Role (optional)").fill("Accounts payable");
  await form.getByRole("button", { name: "Add contact" }).press("Enter");
  await expect(form.getByText("Please enter a valid email")).toBeVisible();
  await expect(form.getByLabel("Name")).toHaveValue("Jane Payable");

  const copy = uniqueEmail("jane");
  await form.getByLabel("Email").fill(copy);
  await expect(form.getByLabel("CC on reminders")).toBeChecked();
  await form.getByRole("button", { name: "Add contact" }).press("Enter");
  await expect(page.getByText("Contact added.").first()).toBeVisible();
  const list = page.getByTestId("debtor-contacts");
  await expect(list.getByRole("button", { name: "Remove Jane Payable" })).toBeVisible();
  await expect(list.getByText(`${copy} · Accounts payable`)).toBeVisible();
  await expect(list.getByText("CC on reminders")).toBeVisible();
  // Nothing overflows the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page.goto("/debtors-list");
  await resendTo(page, name);
  const mail = await mailTo(page, email);
  expect(mail.cc).toBe(copy);

  // The opt-out page offers to stop only the copies, in both themes without a serious axe finding.
  const optOut = /href="([^"]+\/u\/[^"]+)"/.exec(mail.html)?.[1];
  expect(optOut).toBeTruthy();
  for (const theme of ["dracula", "light"]) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.goto(optOut!.replaceAll("&amp;", "&"));
    await expect(page.getByRole("heading", { name: "Or: stop only the copies" })).toBeVisible();
    const { violations } = await new AxeBuilder({ page })
      .setLegacyMode(true)
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${theme}: ${v.id} ${v.help}`)).toEqual([]);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await page.getByRole("button", { name: /Stop only the copies/ }).press("Enter");
  await expect(page.getByText(/No more copies go to/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop all these reminders" })).toHaveCount(0);
});
