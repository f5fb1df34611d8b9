import { describe, expect, it } from "vitest";
import { safeRedirect } from "./redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeRedirect("/dashboard")).toBe("/dashboard");
    expect(safeRedirect("/schedules-list?debtor=3")).toBe("/schedules-list?debtor=3");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "dashboard",
      "",
      null,
      undefined,
      "/a\nb",
    ]) {
      expect(safeRedirect(bad)).toBeNull();
    }
  });
});
