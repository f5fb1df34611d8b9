import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  accentColours,
  DARK_BUTTON_TEXT,
  DARK_SURFACES,
  DEFAULT_ACCENT,
  LIGHT_SURFACES,
  mayRemovePoweredBy,
  showsPoweredBy,
  signatureLines,
} from "./brand";
import { AA_TEXT, adjustForContrast, contrastRatio, luminance, minContrast, normalizeHex } from "./contrast";

function hue(hex: string) {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d + 6) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return h * 60;
}

describe("contrast", () => {
  it("computes WCAG luminance and ratios", () => {
    expect(luminance("#000000")).toBe(0);
    expect(luminance("#ffffff")).toBe(1);
    expect(contrastRatio("#000000", "#ffffff")).toBe(21);
    expect(contrastRatio("#ffffff", "#ffffff")).toBe(1);
    // Known values (WebAIM's checker): Dunly's violet on white, #777 on white.
    expect(contrastRatio("#6d28d9", "#ffffff")).toBeCloseTo(7.1, 1);
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("#ffffff", "#777777")).toBe(contrastRatio("#777777", "#ffffff"));
  });

  it("normalizes hex colours and refuses anything else", () => {
    expect(normalizeHex("#6D28D9")).toBe("#6d28d9");
    expect(normalizeHex("6d28d9")).toBe("#6d28d9");
    expect(normalizeHex("#63c")).toBe("#6633cc");
    for (const bad of ["", "#", "#12", "#12345", "#1234567", "red", "#gggggg", "rgb(1,2,3)", "#6d28d9;x"]) {
      expect(normalizeHex(bad)).toBeNull();
    }
  });

  it("leaves a colour that passes as it is", () => {
    expect(adjustForContrast("#6d28d9", LIGHT_SURFACES, "darker")).toBe("#6d28d9");
    expect(accentColours(null).chosen).toBe(DEFAULT_ACCENT);
    expect(accentColours(null).lightAdjusted).toBe(false);
  });

  it("darkens a pale accent for light surfaces and keeps its hue", () => {
    const yellow = accentColours("#ffd400");
    expect(yellow.lightAdjusted).toBe(true);
    expect(minContrast(yellow.light, LIGHT_SURFACES)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(Math.abs(hue(yellow.light) - hue("#ffd400"))).toBeLessThan(3);
    // Not darker than it needs: one step lighter fails.
    expect(minContrast(yellow.light, LIGHT_SURFACES)).toBeLessThan(AA_TEXT + 0.3);
    expect(yellow.darkAdjusted).toBe(false);
  });

  it("lightens a dark accent for the dark theme", () => {
    const navy = accentColours("#1e3a8a");
    expect(navy.lightAdjusted).toBe(false);
    expect(navy.darkAdjusted).toBe(true);
    expect(minContrast(navy.dark, DARK_SURFACES)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(Math.abs(hue(navy.dark) - hue("#1e3a8a"))).toBeLessThan(3);
  });

  it("always reaches AA in both themes, for any colour (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (n) => {
        const hex = `#${n.toString(16).padStart(6, "0")}`;
        const a = accentColours(hex);
        expect(minContrast(a.light, LIGHT_SURFACES)).toBeGreaterThanOrEqual(AA_TEXT);
        expect(contrastRatio(a.light, "#ffffff")).toBeGreaterThanOrEqual(AA_TEXT);
        expect(minContrast(a.dark, DARK_SURFACES)).toBeGreaterThanOrEqual(AA_TEXT);
        expect(minContrast(a.dark, DARK_BUTTON_TEXT)).toBeGreaterThanOrEqual(AA_TEXT);
      }),
      { numRuns: 300 },
    );
  });
});

describe("powered by Dunly", () => {
  const state = (plan: string, status: string | null) => ({
    plan,
    subscriptionStatus: status,
    trialEndsAt: 0,
    createdAt: 0,
  });
  it("may be removed only on the top plan, and shows again after a downgrade", () => {
    const now = Date.now();
    expect(mayRemovePoweredBy(state("aggressive", "active"), now)).toBe(true);
    expect(mayRemovePoweredBy(state("medium", "active"), now)).toBe(false);
    expect(mayRemovePoweredBy(state("aggressive", "canceled"), now)).toBe(false);
    expect(mayRemovePoweredBy(undefined, now)).toBe(false);
    expect(showsPoweredBy(false, state("aggressive", "active"), now)).toBe(false);
    expect(showsPoweredBy(false, state("soft", "active"), now)).toBe(true);
    expect(showsPoweredBy(true, state("aggressive", "active"), now)).toBe(true);
  });
});

describe("signature lines", () => {
  it("keeps lines, drops control characters, bounds the length", () => {
    expect(signatureLines("Ana Ruiz\r\nAcme Ltd\n+34 600")).toEqual(["Ana Ruiz", "Acme Ltd", "+34 600"]);
    expect(signatureLines("a\u0007b\u202ec")).toEqual(["abc"]);
    expect(signatureLines("x".repeat(900))[0]).toHaveLength(500);
    expect(signatureLines(null)).toEqual([]);
  });
});
