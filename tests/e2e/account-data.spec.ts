import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { addDebtor, signInByRequest, uniqueEmail } from "./helpers";

/**
 * Settings → Info, "Your data": the export downloads one JSON
 * file with the account's data; deleting the account asks for its address, refuses another one
 * without losing anything, and then signs out to / with a toast, for good.
 */

test("Export my data downloads the account's data as JSON", async ({ page }) => {
  const email = await signInByRequest(page, { redirectTo: "/dashboard" });
  const debtorEmail = uniqueEmail("export-debtor");
  await addDebtor(page, "Erin Export", debtorEmail, "250");
  await page.goto("/iam/info");
  const section = page.getByRole("region", { name: "Your data" });
  await section.scrollIntoViewIfNeeded();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    section.getByRole("link", { name: "Export my data" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^dunly-data-\d{4}-\d\d-\d\d\.json$/);
  const doc = JSON.parse(await readFile((await download.path())!, "utf8"));
  expect(doc.format).toBe("dunly-export");
  expect(doc.tables.users[0].email).toBe(email.toLowerCase());
  expect(doc.tables.debtors.map((d: { email: string }) => d.email)).toEqual([debtorEmail.toLowerCase()]);
  expect(doc.tables.invoices).toHaveLength(1);
});

test("Delete account: a wrong address is refused, the right one deletes and signs out", async ({ page }) => {
  const email = await signInByRequest(page, { redirectTo: "/iam/info" });
  const section = page.getByRole("region", { name: "Your data" });
  const field = section.getByLabel("Your account's e-mail address");
  await field.scrollIntoViewIfNeeded();
  // The section fits the screen: nothing wider than the viewport.
  const width = page.viewportSize()!.width;
  const box = (await section.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(width);

  await field.fill("someone-else@example.com");
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(section.getByText("This is not your account's e-mail address: nothing was deleted.")).toBeVisible();
  // Nothing typed is lost, nothing deleted: the page still works signed in.
  await expect(field).toHaveValue("someone-else@example.com");
  await page.reload();
  await expect(page.getByRole("region", { name: "Your data" })).toBeVisible();

  // The section with its error, in both themes: no serious or critical axe finding
  // (the sweep in accessibility.spec.ts opens the page without it).
  for (const theme of ["dracula", "light"]) {
    await page.evaluate((t) => localStorage.setItem("theme", t), theme);
    await page.reload();
    await page.getByLabel("Your account's e-mail address").fill("wrong@example.com");
    await page.getByRole("button", { name: "Delete my account" }).click();
    await expect(page.getByText("nothing was deleted.")).toBeVisible();
    const { violations } = await new AxeBuilder({ page })
      .setLegacyMode(true)
      .include('section[aria-labelledby="your-data-title"]')
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .analyze();
    const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${theme}: ${v.id} ${v.help}`)).toEqual([]);
  }

  await page.getByLabel("Your account's e-mail address").fill(` ${email.toUpperCase()} `);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("Your account is being deleted: you are signed out everywhere")).toBeVisible();
  // Signed out: Settings asks to sign in again.
  await page.goto("/iam/info");
  await expect(page).toHaveURL(/\/404\?redirectTo=/);
});
