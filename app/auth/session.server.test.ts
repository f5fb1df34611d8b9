import { describe, expect, it } from "vitest";
import { readCookie } from "~/platform/cookies.server";
import { readSessionToken, SECURE_SESSION_COOKIE, SESSION_COOKIE } from "./session.server";

const withCookie = (cookie: string | null, url = "https://dunly.example/dashboard") =>
  new Request(url, cookie === null ? {} : { headers: { Cookie: cookie } });

describe("readCookie", () => {
  it("finds a cookie among others, names trimmed, the first of a repeated name", () => {
    const request = withCookie(" a=1;tz=Europe/Berlin ;  b = two ; a=3");
    expect(readCookie(request, "a")).toBe("1");
    expect(readCookie(request, "tz")).toBe("Europe/Berlin");
    expect(readCookie(request, "b")).toBe("two");
    expect(readCookie(request, "c")).toBeNull();
    expect(readCookie(withCookie(null), "a")).toBeNull();
  });

  it("skips pairs without '=', keeps '=' inside a value, decodes percent-escapes", () => {
    const request = withCookie("flag; x=a=b; enc=Europe%2FBerlin; last=");
    expect(readCookie(request, "flag")).toBeNull();
    expect(readCookie(request, "x")).toBe("a=b");
    expect(readCookie(request, "enc")).toBe("Europe/Berlin");
    expect(readCookie(request, "last")).toBe("");
  });

  it("treats a malformed escape as absent, and a name that only ends like another as different", () => {
    expect(readCookie(withCookie("bad=%E0%A4%A"), "bad")).toBeNull();
    expect(readCookie(withCookie("xtz=1; tz=2"), "tz")).toBe("2");
  });
});

describe("readSessionToken", () => {
  it("reads the __Host- cookie over https and the plain one on plain-http localhost", () => {
    const both = `${SESSION_COOKIE}=plain; ${SECURE_SESSION_COOKIE}=secure`;
    expect(readSessionToken(withCookie(both))).toBe("secure");
    expect(readSessionToken(withCookie(both, "http://localhost:5173/"))).toBe("plain");
    expect(readSessionToken(withCookie(both, "http://127.0.0.1:8872/api/x"))).toBe("plain");
    expect(readSessionToken(withCookie(`${SESSION_COOKIE}=plain`))).toBeNull();
  });
});

describe("readCookie, read again", () => {
  it("answers the same for every name of one request, and each request its own", () => {
    const first = withCookie("a=1; b=2");
    const second = withCookie("a=3");
    expect([readCookie(first, "a"), readCookie(first, "b"), readCookie(first, "a")]).toEqual(["1", "2", "1"]);
    expect([readCookie(second, "a"), readCookie(second, "b")]).toEqual(["3", null]);
  });
});
