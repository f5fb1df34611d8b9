import { describe, expect, it } from "vitest";
import { themeBootScript } from "./theme";

function run(stored: string | null | Error, cookie = "") {
  const documentElement = { dataset: {} as Record<string, string> };
  const written: string[] = [];
  const document = {
    documentElement,
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      written.push(value);
    },
  };
  const saved: string[] = [];
  const localStorage = {
    getItem: () => {
      if (stored instanceof Error) throw stored;
      return stored;
    },
    setItem: (_key: string, value: string) => {
      if (stored instanceof Error) throw stored;
      saved.push(value);
    },
  };
  new Function("document", "localStorage", themeBootScript)(document, localStorage);
  return { theme: documentElement.dataset.theme, themeCookies: written.filter((c) => c.startsWith("theme=")), saved };
}

describe("theme boot script", () => {
  it("applies the stored theme before paint and keeps it in the cookie the server reads", () => {
    expect(run("light")).toEqual({
      theme: "light",
      themeCookies: [expect.stringMatching(/^theme=light;path=\//)],
      saved: [],
    });
    expect(run("dracula").theme).toBe("dracula");
  });
  it("prefers the cookie (set by the theme form) and brings localStorage in line", () => {
    expect(run("dracula", "tz=UTC; theme=light")).toEqual({ theme: "light", themeCookies: [], saved: ["light"] });
    expect(run("light", "theme=light")).toEqual({ theme: "light", themeCookies: [], saved: [] });
    expect(run(new Error("denied"), "theme=light").theme).toBe("light");
  });
  it("falls back to dracula for nothing, junk, or storage that throws, and writes no cookie for it", () => {
    expect(run(null)).toEqual({ theme: "dracula", themeCookies: [], saved: [] });
    expect(run("solarized", "theme=solarized")).toEqual({ theme: "dracula", themeCookies: [], saved: [] });
    expect(run(new Error("denied")).theme).toBe("dracula");
  });
});
