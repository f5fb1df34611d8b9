import { expect, test } from "./fixtures";
import { signInByRequest } from "./helpers";

/** CSV import of debtors: upload, preview with each row's errors, confirm. */

test("import a CSV of three debtors with one bad row, then export the list", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  const stamp = Date.now();
  const csv = [
    "Full Name,E-mail,Amount,Currency",
    `Ivy Import,ivy-${stamp}@example.com,120.50,`,
    `Bad Row,not-an-email,-1,`,
    `Ian Import,ian-${stamp}@example.com,"1,000.00",EUR`,
  ].join("\n");

  await page.getByRole("link", { name: "Import CSV" }).click();
  await expect(page.getByRole("heading", { name: "Import debtors from CSV" })).toBeVisible();
  await page
    .getByLabel("CSV file")
    .setInputFiles({ name: "debtors.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Preview" }).click();

  // The preview: each row with its line and status; nothing is imported yet.
  await expect(page.getByTestId("import-counts")).toHaveText("3 rows: 2 ready to import, 1 with errors, 0 duplicates.");
  const preview = page.getByTestId("import-preview");
  await expect(preview.getByRole("row", { name: /Ivy Import/ })).toContainText("OK");
  const bad = preview.getByRole("row", { name: /Bad Row/ });
  await expect(bad).toContainText("3");
  await expect(bad).toContainText("Please enter a valid email");
  await expect(bad).toContainText("Please enter a number greater than 0");

  await page.getByRole("button", { name: "Import 2 debtors" }).click();
  const message = page.getByTestId("import-message");
  await expect(message).toContainText("Imported 2 debtors. Skipped 1 row:");
  await expect(page.getByTestId("import-skipped")).toContainText(
    "Line 3 (not-an-email): Please enter a valid email; Please enter a number greater than 0",
  );

  await message.getByRole("link", { name: "See your debtors" }).click();
  await expect(page.getByTestId("debtor-count")).toHaveText("2 debtors");
  // The table on a wide screen, the cards on a phone: whichever is shown.
  await expect(page.getByText("Ivy Import", { exact: true }).filter({ visible: true })).toHaveCount(1);
  await expect(page.getByText("Ian Import", { exact: true }).filter({ visible: true })).toHaveCount(1);
  await expect(page.getByText("Bad Row")).toHaveCount(0);

  // The list exports a CSV download.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("debtors.csv");
});

test("a CSV file over 2 MB is refused on the page, before it is sent; the pasted text stays", async ({
  page,
  signInShared,
}) => {
  await signInShared("/debtors/import");
  const pasted = "name,email,amount\nPia Pasted,pia@example.com,10";
  await page.getByLabel("Or paste the CSV").fill(pasted);
  const big = Buffer.alloc(2 * 1024 * 1024 + 1, "a");
  await page.getByLabel("CSV file").setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: big });
  await expect(page.getByRole("alert")).toHaveText("The file is larger than 2 MB. Please split it into smaller files.");
  await expect(page.getByLabel("CSV file")).toHaveValue("");
  await expect(page.getByLabel("Or paste the CSV")).toHaveValue(pasted);

  // The page still works: the pasted rows preview.
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByTestId("import-counts")).toHaveText("1 row: 1 ready to import, 0 with errors, 0 duplicates.");
  await expect(page.getByTestId("import-message")).toHaveText("1 row is ready to import.");
});

test("a file whose amount column is not guessed: the preview asks for it, the user maps it, then imports @phone", async ({
  page,
}) => {
  await signInByRequest(page, { redirectTo: "/debtors/import" });
  const stamp = Date.now();
  const csv = [
    "Client;Email;Owed (EUR);Notes",
    `Mia Mapped;mia-${stamp}@example.com;250.00;call first`,
    `Max Mapped;max-${stamp}@example.com;"1,000.50";`,
  ].join("\n");
  await page.getByLabel("CSV file").setInputFiles({ name: "owed.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "Preview" }).click();

  // The file is not refused: its columns are listed, the amount asked for, no row read yet.
  const columns = page.getByTestId("import-columns");
  await expect(page.getByTestId("import-column-errors")).toHaveText("Choose the column that holds the amount.");
  await expect(page.getByLabel('Column "Client" imports as')).toHaveValue("name");
  await expect(page.getByLabel('Column "Email" imports as')).toHaveValue("email");
  await expect(page.getByLabel('Column "Notes" imports as')).toHaveValue("");
  const owed = page.getByLabel('Column "Owed (EUR)" imports as');
  await expect(owed).toHaveValue("");
  await expect(columns).toContainText("First row: 250.00");
  await expect(page.getByTestId("import-preview")).toHaveCount(0);
  // On a phone too the page never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  await owed.selectOption({ label: "Amount" });
  await page.getByRole("button", { name: "Update preview" }).click();
  await expect(page.getByTestId("import-counts")).toHaveText("2 rows: 2 ready to import, 0 with errors, 0 duplicates.");
  await expect(page.getByTestId("import-column-errors")).toHaveCount(0);
  await expect(owed).toHaveValue("amount");
  const preview = page.getByTestId("import-preview");
  await expect(preview.getByRole("row", { name: /Mia Mapped/ })).toContainText("250.00");
  await expect(preview.getByRole("row", { name: /Max Mapped/ })).toContainText("1,000.50");

  await page.getByRole("button", { name: "Import 2 debtors" }).click();
  const message = page.getByTestId("import-message");
  await expect(message).toHaveText(/^Imported 2 debtors\./);
  await message.getByRole("link", { name: "See your debtors" }).click();
  await expect(page.getByTestId("debtor-count")).toHaveText("2 debtors");
  await expect(page.getByText("Mia Mapped", { exact: true }).filter({ visible: true })).toHaveCount(1);
});
