import { describe, expect, it } from "vitest";
import { assertHeaderSafe, formatAddress, HeaderInjectionError, oneLine } from "./header-safe";

describe("oneLine", () => {
  it("collapses line breaks, tabs and runs of spaces, and trims", () => {
    expect(oneLine("  Acme\r\nBcc: x@evil.example\t Ltd  ")).toBe("Acme Bcc: x@evil.example Ltd");
    expect(oneLine("A\u2028B\u2029C")).toBe("A B C");
  });
  it("turns other control characters into spaces", () => {
    expect(oneLine("Acme\u0000\u0007Ltd\u007f")).toBe("Acme Ltd");
  });
  it("keeps an ordinary name as it is", () => {
    expect(oneLine("Sally Sender")).toBe("Sally Sender");
    expect(oneLine('Zoë & Søn, "Quoted"')).toBe('Zoë & Søn, "Quoted"');
  });
});

describe("assertHeaderSafe", () => {
  it("accepts one line", () => {
    expect(() => assertHeaderSafe("Sally Sender", "Sender name")).not.toThrow();
  });
  it.each(["A\nB", "A\rB", "A\r\nB"])("refuses %j", (value) => {
    expect(() => assertHeaderSafe(value, "Subject")).toThrow(HeaderInjectionError);
    expect(() => assertHeaderSafe(value, "Subject")).toThrow("Subject must not contain line breaks");
  });
});

describe("formatAddress", () => {
  it("quotes the name and escapes quotes and backslashes", () => {
    expect(formatAddress("Sally Sender", "r@dunly.test")).toBe('"Sally Sender" <r@dunly.test>');
    expect(formatAddress('Eve "the" \\ Sender', "r@dunly.test")).toBe('"Eve \\"the\\" \\\\ Sender" <r@dunly.test>');
  });
  it("gives the bare address for an empty name", () => {
    expect(formatAddress("", "r@dunly.test")).toBe("r@dunly.test");
  });
  it("refuses a name with a line break", () => {
    expect(() => formatAddress("Eve\r\nBcc: x@evil.example", "r@dunly.test")).toThrow(
      "Sender name must not contain line breaks",
    );
  });
});
