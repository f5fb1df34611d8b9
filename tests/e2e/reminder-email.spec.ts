import type { Locator } from "@playwright/test";
import { expect, test } from "./fixtures";
import { appOrigin, uniqueEmail } from "./helpers";

/** The calendar date `days` after today in UTC, "YYYY-MM-DD". */
function daysFromNow(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

test("a reminder's statement reads on a phone: headings, dates, statuses and an unnumbered invoice's label wrap between words, a long invoice number wraps inside the card", async ({
  page,
  signInShared,
}) => {
  await signInShared("/debtors-list");
  const longNumber = "INV-2026-000000000000000001234567";
  const res = await page.request.post("/api/debtors/add", {
    data: {
      full_name: "Wanda Wrap",
      email: uniqueEmail("wrap"),
      debt: 40,
      invoice_number: longNumber,
      due_on: daysFromNow(-10),
    },
    headers: { Origin: appOrigin() },
  });
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { id: number } };

  // The e-mail as a phone's mail app shows it: the preview is the template the reminders use.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/schedule/preview?template=initial&tone=1&debtor_id=${data.id}`);
  const table = page.locator("table[data-statement]");
  await expect(table).toContainText(longNumber);

  expect(await brokenWords(table, { numberColumn: false }), "words broken across lines").toEqual([]);
  // The long invoice number wraps rather than widening the e-mail past the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // An invoice without a number is listed as "Invoice due <date>": Dunly's words, whole too.
  const unnumbered = await page.request.post("/api/debtors/add", {
    data: { full_name: "Nora Number", email: uniqueEmail("wrap"), debt: 40, due_on: daysFromNow(-10) },
    headers: { Origin: appOrigin() },
  });
  expect(unnumbered.status()).toBe(200);
  const other = (await unnumbered.json()) as { data: { id: number } };
  await page.goto(`/schedule/preview?template=initial&tone=1&debtor_id=${other.data.id}`);
  await expect(table).toContainText("Invoice due");
  expect(await brokenWords(table, { numberColumn: true }), "words broken across lines").toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

/** The words of the statement split over two lines (the invoice column's too when `numberColumn`). */
function brokenWords(table: Locator, { numberColumn }: { numberColumn: boolean }) {
  return table.evaluate((t, all) => {
    const cells = [
      ...t.querySelectorAll("th"),
      ...[...t.querySelectorAll<HTMLTableRowElement>("tbody tr")].flatMap((r) => [...r.cells].slice(all ? 0 : 1)),
    ];
    const out: string[] = [];
    for (const cell of cells) {
      for (const node of cell.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE) continue;
        for (const word of (node.textContent ?? "").matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          // A word split over two lines has a box on each.
          if (range.getClientRects().length > 1) out.push(word[0]);
        }
      }
    }
    return out;
  }, numberColumn);
}

test("a statement of large amounts in two currencies, with a September due date, fits a phone's width", async ({
  page,
  signInShared,
}) => {
  await signInShared("/debtors-list");
  const headers = { Origin: appOrigin() };
  const res = await page.request.post("/api/debtors/add", {
    data: { full_name: "Zoë Ünal", email: uniqueEmail("wide"), debt: 1234.5, due_on: daysFromNow(-40) },
    headers,
  });
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { id: number } };
  // The longest month's name over the widest amounts a column holds, and a bold total beside them.
  for (const invoice of [
    { amount: 98_765.43, due_on: daysFromNow(-5), currency: "EUR" },
    { amount: 1_000_000, due_on: `${new Date().getUTCFullYear() + 1}-09-22`, currency: "EUR" },
  ]) {
    const added = await page.request.post("/api/invoices/add", { data: { debtor_id: data.id, ...invoice }, headers });
    expect(added.status()).toBe(200);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/schedule/preview?template=initial&tone=2&debtor_id=${data.id}`);
  const table = page.locator("table[data-statement]");
  await expect(table).toContainText("€1,000,000.00");
  await expect(table).toContainText("Sep 22, 2027");
  await expect(table).toContainText("Total due in EUR");
  expect(await page.evaluate(() => document.documentElement.scrollWidth), "the e-mail's width").toBeLessThanOrEqual(
    390,
  );
  expect(await brokenWords(table, { numberColumn: true }), "words broken across lines").toEqual([]);
});
