import { expect, test } from "@playwright/test";
import { addDebtor, signInByRequest } from "./helpers";

// One row structure for every width (app.css, .list-table): a ruled table on desktop and
// a card per row on a phone, which must stay a table for screen readers (rows, cells, column
// headers) and draw its labels without their being read twice.
test("a list is one table at every width: cards on a phone that keep the table's roles @phone", async ({ page }) => {
  const phone = test.info().project.name === "phone";
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  await addDebtor(page, "Tara Table", "tara@example.com", "80", "1");

  const table = page.getByRole("table", { name: "Debtors" });
  await expect(table).toBeVisible();
  await expect(table).toMatchAriaSnapshot(`
    - table "Debtors":
      - rowgroup:
        - row:
          - columnheader "Selected"
          - columnheader "Name"
          - columnheader "Emails sent"
          - columnheader "Receivables"
          - columnheader "Active strategy"
          - columnheader "Configure"
      - rowgroup:
        - row /Tara Table/:
          - cell "Select Tara Table":
            - checkbox "Select Tara Table"
          - cell /Tara Table tara@example.com/
          - cell "0"
          - cell /\\$0\\.00 paid of \\$80\\.00.*\\$80\\.00 still owed/
          - cell "Polite"
          - cell "Configure Tara Table":
            - button "Configure Tara Table"
  `);
  // Each row is rendered once: no hidden copy of the list for the other width.
  await expect(page.getByText("tara@example.com")).toHaveCount(1);

  const header = table.locator("thead");
  const sent = table.locator("td[data-label='Emails sent']");
  const label = await sent.evaluate((td) => getComputedStyle(td, "::before").content);
  const headerBox = await header.boundingBox();
  const row = await table.locator("tbody tr").boundingBox();
  const button = await table.getByRole("button", { name: "Configure Tara Table" }).boundingBox();
  if (phone) {
    // A card: the header is hidden from sight only, the label drawn beside the value, the button
    // across the card.
    expect(headerBox?.height ?? 0).toBeLessThanOrEqual(1);
    expect(label).toContain("Emails sent");
    expect(button!.width).toBeGreaterThan(row!.width * 0.8);
  } else {
    expect(headerBox!.height).toBeGreaterThan(20);
    expect(label).toBe("none");
    expect(button!.width).toBeLessThan(row!.width * 0.3);
  }
});

// A name may be one long word (a company's, a pasted address): it breaks inside the table and the
// settings card instead of pushing them past the page, while an ordinary name keeps to one line
// (app.css, .list-table td.list-name).
test("a name that is one long word stays inside the table and the settings card @phone", async ({ page }) => {
  const long = "Grossunternehmensverwaltungs".repeat(3);
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  await addDebtor(page, long, "long@example.com", "80", "1");
  await addDebtor(page, "Maximilian Vandersteen", "max@example.com", "80", "1");

  const table = page.getByRole("table", { name: "Debtors" });
  await expect(table.getByText(long, { exact: true })).toBeVisible();
  const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  expect(await fits(), "the page scrolls sideways").toBe(true);
  const section = await table.evaluate((t) => {
    const card = t.closest("section") as HTMLElement;
    return { table: t.getBoundingClientRect().right, card: card.getBoundingClientRect().right };
  });
  expect(section.table).toBeLessThanOrEqual(section.card + 1);
  const ordinary = await table.getByText("Maximilian Vandersteen", { exact: true }).boundingBox();
  expect(ordinary!.height, "an ordinary name on one line").toBeLessThan(30);

  await page.goto("/iam/info");
  await page.getByRole("button", { name: "Edit name" }).click();
  await page.getByLabel("Full Name").fill(long);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("profile-name")).toHaveText(long);
  expect(await fits(), "the settings page scrolls sideways").toBe(true);
  const name = await page.getByTestId("profile-name").evaluate((n) => {
    const card = n.closest("dl") as HTMLElement;
    return { name: n.getBoundingClientRect().right, card: card.getBoundingClientRect().right };
  });
  expect(name.name).toBeLessThanOrEqual(name.card + 1);
});
