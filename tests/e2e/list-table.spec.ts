import { expect, test } from "@playwright/test";
import { addDebtor, signInByRequest } from "./helpers";

// One row structure for every width (docs/architecture.md §12; app.css, .list-table): a ruled table on desktop and
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
