import { describe, expect, it } from "vitest";
import { isSecureHref, isSecureOrigin } from "./secure-origin";

describe("isSecureHref", () => {
  const urls = [
    "http://localhost/",
    "http://localhost:5173/dashboard?debtor=1",
    "http://localhost?x=1",
    "http://localhost#top",
    "http://127.0.0.1:8872/api/does-not-exist",
    "http://127.0.0.1/",
    "https://localhost/",
    "https://127.0.0.1:8443/",
    "https://dunly.example/",
    "http://dunly.example/",
    "http://localhost.example.com/",
    "http://127.0.0.10/",
    "http://127.0.0.1.example/",
    "http://LOCALHOST:8080/",
    "HTTP://localhost/",
  ];
  it("says what isSecureOrigin says of the parsed URL, for the URLs a Request carries", () => {
    for (const url of urls) {
      // A Request's URL is serialized: what `new URL(...).href` gives.
      const href = new URL(url).href;
      expect(isSecureHref(href), href).toBe(isSecureOrigin(new URL(href)));
    }
  });
  it("plain-http localhost is not secure, anything over https or elsewhere is", () => {
    expect(isSecureHref("http://localhost:5173/")).toBe(false);
    expect(isSecureHref("http://127.0.0.1:8872/x")).toBe(false);
    expect(isSecureHref("https://localhost/")).toBe(true);
    expect(isSecureHref("http://localhost.example.com/")).toBe(true);
  });
});
