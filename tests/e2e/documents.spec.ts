import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { addDebtorByApi, mailTo, resendTo, signInByRequest } from "./helpers";

const PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/**
 * Invoice documents (docs/decisions/053): the user attaches the invoice's PDF from the debtor's
 * page (a file that is not a PDF refused, saying why), and the debtor downloads it and a statement
 * PDF from their page.
 */
test("the invoice's PDF attached by the user, downloaded by the debtor with a statement PDF", async ({ page }) => {
  await signInByRequest(page, { redirectTo: "/debtors-list" });
  const name = "Document Kunde";
  const { id, email } = await addDebtorByApi(page, name);
  await page.goto(`/debtors/${id}`);

  const attach = page.getByLabel("Attach PDF to invoice INV-101");
  await attach.setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: Buffer.from("not a pdf") });
  await expect(page.getByText("This is not a PDF. Please choose the invoice as a PDF file.")).toBeVisible();
  await attach.setInputFiles({ name: "Rechnung INV-101.pdf", mimeType: "application/pdf", buffer: PDF });
  await expect(page.getByText("Rechnung INV-101.pdf attached.").first()).toBeVisible();
  const own = page.getByRole("link", { name: /Download the PDF of invoice INV-101/ });
  await expect(own).toBeVisible();
  const [mine] = await Promise.all([page.waitForEvent("download"), own.click()]);
  expect(mine.suggestedFilename()).toBe("Rechnung INV-101.pdf");

  await page.goto("/debtors-list");
  await resendTo(page, name);
  const mail = await mailTo(page, email);
  const portal = /<a [^>]*href="([^"]+\/d\/[^"]+)"[^>]*>/.exec(mail.html)?.[1];
  await page.goto(portal!);
  const [invoice] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download invoice INV-101 (PDF)" }).click(),
  ]);
  expect(invoice.suggestedFilename()).toBe("Rechnung INV-101.pdf");
  expect(await readFile(await invoice.path())).toEqual(PDF);
  const [statement] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download this statement (PDF)" }).click(),
  ]);
  expect(statement.suggestedFilename()).toMatch(/^statement-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect((await readFile(await statement.path())).subarray(0, 5).toString()).toBe("%PDF-");
});
