import { expect, test } from "@playwright/test";
import { addDebtorByApi, readMailbox, signInByRequest } from "./helpers";

/**
 * Settings → E-mail texts (docs/decisions/056): the user writes a step in their own words with the
 * placeholder picker, sees it in the live preview with a real debtor, is refused an unknown
 * placeholder with what they typed kept, saves it, sends themselves a test and resets it to Dunly's text.
 */
test("e-mail texts: edit with placeholders, live preview with a debtor, refused mistakes, save, test, reset", async ({
  page,
}) => {
  const email = await signInByRequest(page, { redirectTo: "/iam/templates" });
  const debtor = await addDebtorByApi(page, "Carla GmbH", { debt: 1234.5, currency: "EUR" });
  await page.reload();
  await page.getByLabel("Language").selectOption("de");
  await page.getByRole("button", { name: "Show text" }).click();
  await expect(page.getByRole("heading", { name: "Initial Email · Polite · Deutsch" })).toBeVisible();
  await expect(page.getByTestId("text-status")).toHaveText("Dunly's text. Change it and save to make it yours.");

  const subject = page.getByLabel("Subject");
  const body = page.getByLabel("Text", { exact: true });
  await subject.fill("Offener Betrag ");
  await page.getByRole("button", { name: /^Insert \{total\}/ }).click();
  await expect(subject).toHaveValue("Offener Betrag {total}");
  await body.fill("Guten Tag {contactName},\n\nbitte überweisen Sie **{total}** bis Freitag.\n\n{statement}\n\n");
  await page.getByRole("button", { name: /^Insert \{signature\}/ }).click();
  await expect(body).toHaveValue(/\{statement\}\n\n\n\{signature\}\n$/);
  await page.getByLabel("Preview and test with").selectOption({ label: `Carla GmbH (${debtor.email})` });

  const preview = page.frameLocator('iframe[title="Preview of the e-mail"]');
  // The server renders the preview after the typing stops (a slow machine may take a while).
  await expect(preview.locator("body")).toContainText("bitte überweisen Sie", { timeout: 15_000 });
  await expect(preview.locator("body")).toContainText("Guten Tag Carla GmbH,");
  // A German debtor reads German amounts.
  await expect(preview.locator("strong").first()).toHaveText(/^1\.234,50\s€$/);

  // An unknown placeholder: the field says so, the text stays, and the preview says why it is not shown.
  await body.fill("Hallo {vorname},\n\n{statement}");
  await page.getByRole("button", { name: "Save text" }).click();
  await expect(page.getByText(/^\{vorname\} is not a placeholder/)).toBeVisible();
  await expect(body).toHaveValue("Hallo {vorname},\n\n{statement}");
  await expect(preview.locator("body")).toContainText("The preview shows once the subject and text have no errors", {
    timeout: 15_000,
  });

  await body.fill(
    "Guten Tag {contactName},\n\nbitte überweisen Sie **{total}** bis Freitag.\n\n{statement}\n\n{signature}",
  );
  await page.getByRole("button", { name: "Save text" }).click();
  await expect(page.getByText("Saved: reminders of Initial Email · Polite · Deutsch use your text.")).toBeVisible();
  await expect(page.getByTestId("text-status")).toHaveText(/^Your text, saved /);
  await expect(page.getByRole("list", { name: "Your texts" })).toContainText("Initial Email · Polite · Deutsch");

  await page.getByRole("button", { name: "Send me a test" }).click();
  await expect(page.getByText(`Test e-mail sent to ${email}.`)).toBeVisible();
  const test = (await readMailbox(page)).find((m) => m.to === email && m.subject.startsWith("[Test]"));
  expect(test?.subject).toMatch(/^\[Test\] Offener Betrag 1\.234,50\s€$/);
  expect(test?.text).toContain("bitte überweisen Sie");

  await page.getByRole("button", { name: "Reset to Dunly's text" }).click();
  await expect(page.getByText("Dunly's text is back for Initial Email · Polite · Deutsch.")).toBeVisible();
  await expect(page.getByTestId("text-status")).toHaveText("Dunly's text. Change it and save to make it yours.");
  await expect(body).not.toHaveValue(/bitte überweisen/);
});
