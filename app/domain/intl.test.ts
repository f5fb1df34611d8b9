import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatDayOf } from "./dates";
import {
  canonicalTimeZone,
  dateTimeFormat,
  formatCount,
  formatterBy,
  MAX_CACHED_FORMATTERS,
  numberFormat,
} from "./intl";
import { formatMoney } from "./money";

describe("Intl formatters are built once per locale, zone and options", () => {
  it("the same arguments give the same instance", () => {
    const a = dateTimeFormat("en-US", { dateStyle: "medium", timeZone: "Europe/Berlin" });
    expect(dateTimeFormat("en-US", { dateStyle: "medium", timeZone: "Europe/Berlin" })).toBe(a);
    expect(numberFormat("en-US", { style: "currency", currency: "EUR" })).toBe(
      numberFormat("en-US", { style: "currency", currency: "EUR" }),
    );
  });

  it("another zone, locale or option is another formatter", () => {
    const berlin = dateTimeFormat("en-US", { dateStyle: "medium", timeZone: "Europe/Berlin" });
    expect(dateTimeFormat("en-US", { dateStyle: "medium", timeZone: "Asia/Tokyo" })).not.toBe(berlin);
    expect(dateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "Europe/Berlin" })).not.toBe(berlin);
    expect(dateTimeFormat("en-US", { dateStyle: "long", timeZone: "Europe/Berlin" })).not.toBe(berlin);
    expect(numberFormat("en-US", { style: "currency", currency: "USD" })).not.toBe(
      numberFormat("en-US", { style: "currency", currency: "EUR" }),
    );
  });

  it("an unknown zone throws and is not kept", () => {
    expect(() => dateTimeFormat("en-US", { timeZone: "Mars/Olympus" })).toThrow(RangeError);
    expect(() => dateTimeFormat("en-US", { timeZone: "Mars/Olympus" })).toThrow(RangeError);
  });

  it("the cache is capped: user input cannot grow it without bound", () => {
    const first = numberFormat("en-US", { minimumIntegerDigits: 1 });
    for (let i = 0; i <= MAX_CACHED_FORMATTERS; i++)
      numberFormat("en-US", { maximumFractionDigits: i % 21, minimumIntegerDigits: 1 + (i % 21) });
    // Started over once full: a formatter asked for again is made again, and works the same.
    const again = numberFormat("en-US", { minimumIntegerDigits: 1 });
    expect(again.format(1234.5)).toBe(first.format(1234.5));
  });

  it("the app's formatting reuses them and answers as before", () => {
    const at = Date.UTC(2026, 10, 21, 9, 0);
    expect(formatDateTime(at, "Europe/Berlin")).toBe("Nov 21, 2026, 10:00 AM");
    expect(formatDateTime(at, "Europe/Berlin")).toBe(formatDateTime(at, "Europe/Berlin"));
    expect(formatDateTime(null, "UTC")).toBe("—");
    expect(formatMoney(123450, "USD")).toBe("$1,234.50");
    expect(formatMoney(123450, "EUR")).toBe("€1,234.50");
    expect(formatDate("2026-03-05")).toBe("Mar 5, 2026");
    expect(formatDate("not a date")).toBe("not a date");
    expect(formatDayOf(at, "Pacific/Kiritimati")).toBe("Nov 21, 2026");
    expect(formatCount(1000)).toBe("1,000");
    expect(canonicalTimeZone("europe/berlin")).toBe("Europe/Berlin");
  });
});

describe("formatterBy", () => {
  it("makes one formatter per key and keeps nothing for a key whose make throws", () => {
    let made = 0;
    const byZone = formatterBy((timeZone) => {
      made += 1;
      return dateTimeFormat("en-US", { dateStyle: "medium", timeZone });
    });
    expect(byZone("Europe/Berlin")).toBe(byZone("Europe/Berlin"));
    expect(byZone("Asia/Tokyo")).not.toBe(byZone("Europe/Berlin"));
    expect(made).toBe(2);
    expect(() => byZone("Mars/Olympus")).toThrow(RangeError);
    expect(() => byZone("Mars/Olympus")).toThrow(RangeError);
    expect(made).toBe(4);
  });

  it("is capped like the other caches", () => {
    let made = 0;
    const byKey = formatterBy((key) => {
      made += 1;
      return key;
    });
    for (let i = 0; i <= MAX_CACHED_FORMATTERS; i++) byKey(String(i));
    expect(made).toBe(MAX_CACHED_FORMATTERS + 1);
    byKey("0");
    // Started over once full: "0" was dropped and is made again.
    expect(made).toBe(MAX_CACHED_FORMATTERS + 2);
  });
});
