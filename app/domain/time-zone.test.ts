import { describe, expect, it } from "vitest";
import { MAX_TIME_ZONE_LENGTH, safeTimeZone, trimTimeZone } from "./time-zone";

describe("safeTimeZone", () => {
  it("keeps a zone Intl knows", () => {
    for (const tz of ["UTC", "Europe/Berlin", "Asia/Kolkata", "America/Argentina/Buenos_Aires", "Etc/GMT+5"]) {
      expect(safeTimeZone(tz), tz).toBe(tz);
    }
  });
  it("falls back to UTC for a missing, unknown, padded, offset or over-long zone", () => {
    const long = `Europe/${"x".repeat(MAX_TIME_ZONE_LENGTH)}`;
    for (const tz of [null, undefined, "", "Mars/Olympus_Mons", " Europe/Berlin", "+01:00", long]) {
      expect(safeTimeZone(tz), JSON.stringify(tz)).toBe("UTC");
    }
  });
  it("falls back to the given zone instead", () => {
    expect(safeTimeZone("Mars/Olympus_Mons", "Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(safeTimeZone("Europe/Berlin", "Asia/Tokyo")).toBe("Europe/Berlin");
  });
});

describe("trimTimeZone", () => {
  it("trims a submitted zone", () => {
    expect(trimTimeZone("  Asia/Tokyo ")).toBe("Asia/Tokyo");
    expect(trimTimeZone("")).toBe("");
  });
  it(`empties one longer than ${MAX_TIME_ZONE_LENGTH} characters`, () => {
    expect(trimTimeZone("x".repeat(MAX_TIME_ZONE_LENGTH))).toBe("x".repeat(MAX_TIME_ZONE_LENGTH));
    expect(trimTimeZone("x".repeat(MAX_TIME_ZONE_LENGTH + 1))).toBe("");
  });
});
