import { describe, expect, it } from "vitest";
import { type CsvRow, csvHeaders, csvResponse, toCsv } from "./csv-export";

describe("toCsv", () => {
  it("quotes where needed and neutralizes formulas in text cells", () => {
    const csv = toCsv(
      ["name", "amount"],
      [
        ['=HYPERLINK("x")', 5],
        ["+1", -3],
        ["@SUM(A1)", null],
        ["-2\n=evil", 1.5],
        ["\tTab", 0],
        ["Plain, with comma", 2],
      ],
    );
    expect(csv.split("\r\n")).toEqual([
      "name,amount",
      `"'=HYPERLINK(""x"")",5`,
      `"'+1",-3`,
      `"'@SUM(A1)",`,
      `"'-2\n=evil",1.5`,
      `"'\tTab",0`,
      `"Plain, with comma",2`,
    ]);
  });

  it("names an attachment with a safe file name", () => {
    expect(csvHeaders("debtors 2026.csv")).toMatchObject({
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": 'attachment; filename="debtors_2026.csv"',
    });
  });
});

describe("csvResponse", () => {
  const header = ["Name", "=Total", "Note"];
  async function* pagesOf(rows: CsvRow[], size: number) {
    for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
  }
  const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
  const expected = (rows: CsvRow[]) => new TextEncoder().encode(`\uFEFF${toCsv(header, rows)}`);

  // Cells of every kind toCsv quotes or neutralizes, and plain ones.
  const cells: CsvRow[] = [
    ["Plain", 1, null],
    ['=HYPERLINK("x")', -2.5, "a, b"],
    ["line\r\nbreak", 0, '"quoted"'],
    ["@home", 3, "\tTab"],
    [" spaced ", 4, "Zoë"],
    ["-1", 5, ""],
  ];
  const rows = Array.from({ length: 2_345 }, (_, i) =>
    cells[i % cells.length]!.map((c) => (typeof c === "string" ? `${c}${i}` : c)),
  );

  it("writes byte for byte what toCsv writes, across many pages and whatever the page size", async () => {
    for (const size of [1, 7, 1000, 5000]) {
      const res = await csvResponse("report.csv", header, pagesOf(rows, size));
      expect(await bytesOf(res)).toEqual(expected(rows));
    }
  });

  it("writes the header alone (with its line end) when there are no rows, and skips empty pages", async () => {
    expect(await bytesOf(await csvResponse("x.csv", header, pagesOf([], 10)))).toEqual(expected([]));
    async function* withEmpty() {
      yield [];
      yield rows.slice(0, 3);
      yield [];
      yield rows.slice(3, 5);
    }
    expect(await bytesOf(await csvResponse("x.csv", header, withEmpty()))).toEqual(expected(rows.slice(0, 5)));
  });

  it("reads a page only when the one before has been taken, and stops reading when the download is cancelled", async () => {
    let read = 0;
    let finished = false;
    async function* counted() {
      try {
        for (let i = 0; i < 100; i++) {
          read++;
          yield rows.slice(0, 10);
        }
      } finally {
        finished = true;
      }
    }
    const res = await csvResponse("x.csv", header, counted());
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="x.csv"');
    const reader = res.body!.getReader();
    await reader.read(); // the header
    await reader.read(); // the first page
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(read).toBeLessThanOrEqual(3);
    await reader.cancel();
    expect(finished).toBe(true);
    expect(read).toBeLessThan(100);
  });
});
