import { expect, test } from "./fixtures";
import { addDebtor, mailTo, signInByRequest, uniqueEmail } from "./helpers";

/** List search and sort, the dashboard's debtor combobox, "Send me a test". */

test("search and sort the debtors list; the URL keeps them", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  await addDebtor(page, "Walter Brown", uniqueEmail("walter"), "30");
  await addDebtor(page, "Anna Green", uniqueEmail("anna"), "90");
  await addDebtor(page, "Zora Brownlee", uniqueEmail("zora"), "60");

  const search = page.getByRole("search");
  await search.getByLabel("Search debtors").fill("brown");
  await search.getByLabel("Sort by").selectOption({ label: "Amount owed" });
  await search.getByLabel("Order").selectOption({ label: "Descending" });
  await search.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=brown/);
  await expect(page).toHaveURL(/sort=owed&dir=desc/);
  await expect(page.getByTestId("debtor-count")).toHaveText("2 debtors");
  const rows = page.locator("tr:visible, li:visible").filter({ hasText: /Brown/ });
  await expect(rows.first()).toContainText("Zora Brownlee");
  await expect(page.getByText("Anna Green")).toHaveCount(0);

  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page.getByTestId("debtor-count")).toHaveText("3 debtors");
});

test("the search works without JavaScript", async ({ browser, page, signInShared }) => {
  await signInShared("/debtors-list");
  await addDebtor(page, "Nadia Noscript", uniqueEmail("nadia"), "10");
  await addDebtor(page, "Other Person", uniqueEmail("other"), "20");
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto("/debtors-list");
  await plain.getByLabel("Search debtors").fill("nadia");
  await plain.getByLabel("Order").selectOption("desc");
  await plain.getByRole("button", { name: "Search" }).click();
  await expect(plain).toHaveURL(/q=nadia/);
  await expect(plain.getByTestId("debtor-count")).toHaveText("1 debtor");
  await expect(plain.getByLabel("Order")).toHaveValue("desc");
  await context.close();
});

test("the dashboard opens on the whole account; its debtor filter searches every debtor, by keyboard, and says so", async ({
  page,
}) => {
  await signInByRequest(page, { redirectTo: "/dashboard" });
  await addDebtor(page, "Kim Keyboard", uniqueEmail("kim"), "10");
  await addDebtor(page, "Lou Later", uniqueEmail("lou"), "20");
  const box = page.getByRole("combobox", { name: "Filter by debtor", exact: true });
  await expect(box).toHaveValue("");
  expect(new URL(page.url()).searchParams.has("debtor")).toBe(false);
  await expect(page.getByRole("heading", { name: "Reminders sent, whole account" })).toBeVisible();
  await expect(page.getByTestId("debtor-filter")).toHaveCount(0);
  await expect(page.getByTestId("schedules-scope")).toHaveText("Showing your schedules.");
  await box.focus();
  await box.fill("lou");
  await expect(page.getByRole("option", { name: /Lou Later/ })).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(box).toHaveValue("Lou Later");
  await expect(page.getByTestId("schedules-scope")).toHaveText("Showing the schedules of Lou Later.");
  const louId = new URL(page.url()).searchParams.get("debtor");
  // Escape closes the list and keeps the selection.
  await box.fill("ki");
  await expect(page.getByRole("option", { name: /Kim Keyboard/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(box).toHaveValue("Lou Later");
  expect(new URL(page.url()).searchParams.get("debtor")).toBe(louId);
  // The filter is kept in the URL, shown as such, and one link leads back to the whole account.
  await page.reload();
  await expect(page.getByTestId("debtor-filter")).toContainText("Filtered to Lou Later");
  await page.getByRole("link", { name: "Show the whole account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Reminders sent, whole account" })).toBeVisible();
});

test("send me a test: the previewed e-mail with the debtor's details goes to my own address", async ({ page }) => {
  const me = await signInByRequest(page, { redirectTo: "/dashboard" });
  await addDebtor(page, "Tess Testee", uniqueEmail("tess"), "321", "2");
  await page.goto("/schedule");
  await page.getByRole("button", { name: "Send me a test" }).click();
  await expect(page.getByText("Choose a debtor to send a test for.")).toBeVisible();

  await page.getByLabel("Debtor").selectOption({ index: 1 });
  const frame = page.frameLocator('iframe[title^="Preview:"]');
  await expect(frame.locator("body")).toContainText("Tess Testee");
  await expect(frame.locator("body")).toContainText("$321.00");
  await page.getByRole("button", { name: "Send me a test" }).click();
  await expect(page.getByText(`Test e-mail sent to ${me.toLowerCase()}.`)).toBeVisible();
  const mail = await mailTo(page, me.toLowerCase());
  expect(mail.text).toContain("Tess Testee");
  expect(mail.text).toContain("$321.00");
});
