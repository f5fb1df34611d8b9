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

  it("escapes any text exactly as papaparse does (random cells of the characters that matter)", async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = ["=", "+", "-", "@", "\t", "\r", "\n", '"', ",", " ", "\uFEFF", "'", "a", "Z", "é", "1", ";"];
    const cell = () =>
      random() < 0.15
        ? Math.round((random() - 0.5) * 1e6) / 100
        : random() < 0.1
          ? null
          : Array.from(
              { length: Math.floor(random() * 6) },
              () => alphabet[Math.floor(random() * alphabet.length)],
            ).join("");
    const fuzz: CsvRow[] = Array.from({ length: 5_000 }, () => Array.from({ length: 4 }, cell));
    const fuzzHeader = ["=a", " b", 'c"', "d,e"];
    const res = await csvResponse("x.csv", fuzzHeader, pagesOf(fuzz, 333));
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await bytesOf(res))).toBe(
      `\uFEFF${toCsv(fuzzHeader, fuzz)}`,
    );
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
