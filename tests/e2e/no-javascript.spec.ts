import { writeFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { debtorOption, expectAddressRefused, signInThroughLink, uniqueEmail } from "./helpers";

// The forms that are on a page when it is first rendered work as plain HTML forms: posted before
// the page hydrates (slow network) or with JavaScript off, they answer with their message, field
// errors and what was typed.

test("the magic-link form and the sign-in link work without JavaScript; signed in, the header still leads everywhere @phone", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await expectAddressRefused(page, "not-an-address");

  const email = uniqueEmail("nojs");
  // 'Continue to Dunly' works from the first paint: its plain form post carries the page's origin.
  await signInThroughLink(page, email);

  // Signed in without JavaScript: the header's places, Settings and Log out all work. The places
  // are the header's on a wide screen and the row shown without JavaScript on a phone. Named, not
  // picked by what is visible: before the stylesheet applies both are, and a click holds on to the
  // link it found first even once the stylesheet has hidden it.
  const phone = test.info().project.name === "phone";
  const main = page.getByRole("navigation", { name: phone ? "Main (without JavaScript)" : "Main", exact: true });
  await main.getByRole("link", { name: "Debtors", exact: true }).click();
  await expect(page).toHaveURL(/\/debtors-list$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await main.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/iam\/info$/);
  // The account's address as Settings lists it (the "Your data" section names it too, to confirm a deletion).
  await expect(page.locator("dd", { hasText: email })).toBeVisible();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/redirectTo=%2Fdashboard/);
  await context.close();
});

test("a new schedule can be created without JavaScript", async ({ browser, page, signInShared }) => {
  // Signing in and adding a debtor use the app as usual; then JavaScript goes off.
  await signInShared("/debtors-list");
  await page.getByRole("button", { name: "Add Debtor" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a new debtor" });
  await dialog.getByLabel("Full Name").fill("Nora Nojs");
  await dialog.getByLabel("Email").fill("nora@example.com");
  await dialog.getByLabel("Amount of debt").fill("42");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Debtor added").first()).toBeVisible();

  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto("/schedule");
  await plain.getByLabel("Frequency").selectOption("weekly");
  await plain.getByRole("button", { name: "Schedule" }).click();
  await expect(plain.getByText("Please select a debtor")).toBeVisible();
  await expect(plain.getByLabel("Preset")).toHaveValue("FRIENDLY_REMINDER");
  await expect(plain.getByLabel("Frequency")).toHaveValue("weekly");

  await plain.getByLabel("Debtor").selectOption({ label: debtorOption("Nora Nojs", "nora@example.com") });
  await plain.getByLabel("Preset").selectOption({ label: "Single Reminder" });
  await plain.getByRole("button", { name: "Schedule" }).click();
  await expect(plain).toHaveURL(/\/schedules-list$/);
  await expect(plain.getByText("Email reminder scheduled.")).toBeVisible();
  await expect(plain.getByText("Nora Nojs").first()).toBeVisible();
  await context.close();
});

// Without JavaScript nothing checks a file on the page: the server reads the rest of an upload
// over its limit before refusing it, so the browser shows the refusal instead of its own
// connection error (app/platform/body-limit.server.ts, MAX_DRAINED_BYTES).
test("a CSV file over its limit is refused with the page's message without JavaScript", async ({
  browser,
  page,
  signInShared,
}) => {
  await signInShared("/debtors/import");
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto("/debtors/import");
  // A file on disk, which the local browser reads itself (a buffer would first cross the protocol).
  const big = test.info().outputPath("big.csv");
  await writeFile(big, Buffer.alloc(20 * 1024 * 1024, "a"));
  await plain.getByLabel("CSV file").setInputFiles(big);
  await plain.getByRole("button", { name: "Preview" }).click();
  await expect(plain.getByText("The file is larger than 2 MB. Please split it into smaller files.")).toBeVisible();
  await context.close();
});
