import { describe, expect, it } from "vitest";
import { csvHeaders, toCsv } from "./csv-export";

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
