import { describe, expect, it } from "vitest";
import { themeBootScript } from "./theme";

function run(stored: string | null | Error) {
  const documentElement = { dataset: {} as Record<string, string> };
  const localStorage = {
    getItem: () => {
      if (stored instanceof Error) throw stored;
      return stored;
    },
  };
  new Function("document", "localStorage", themeBootScript)({ documentElement }, localStorage);
  return documentElement.dataset.theme;
}

describe("theme boot script", () => {
  it("applies the stored theme before paint", () => {
    expect(run("light")).toBe("light");
    expect(run("dracula")).toBe("dracula");
  });
  it("falls back to dracula for nothing, junk, or storage that throws", () => {
    expect(run(null)).toBe("dracula");
    expect(run("solarized")).toBe("dracula");
    expect(run(new Error("denied"))).toBeUndefined();
  });
});
