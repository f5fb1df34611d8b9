import { describe, expect, it } from "vitest";
import {
  get,
  latestLinkToken,
  location,
  outboxFor,
  postForm,
  requestLink,
  SESSION_COOKIE,
  SIGN_IN_SENT,
  sessionRow,
  setCookieFor,
  signIn,
  uniqueEmail,
  verify,
} from "./helpers";

describe("CSRF: state-changing requests must come from the site's own origin", () => {
  describe("POST / (magic-link request)", () => {
    it("is refused with 403 without an Origin header, and sends no e-mail", async () => {
      const email = uniqueEmail("csrf-none");
      const res = await requestLink(email, { originHeader: null });
      expect(res.status).toBe(403);
      expect(await outboxFor(email)).toHaveLength(0);
    });

    it("is refused with 403 from another origin, and sends no e-mail", async () => {
      const email = uniqueEmail("csrf-evil");
      const res = await requestLink(email, { originHeader: "https://evil.example" });
      expect(res.status).toBe(403);
      expect(await outboxFor(email)).toHaveLength(0);
    });

    it("is refused with 403 from the same host on another scheme or port", async () => {
      const email = uniqueEmail("csrf-near");
      expect((await requestLink(email, { originHeader: "https://localhost" })).status).toBe(403);
      expect((await requestLink(email, { originHeader: "http://localhost:8080" })).status).toBe(403);
      expect((await requestLink(email, { originHeader: "null" })).status).toBe(403);
      expect(await outboxFor(email)).toHaveLength(0);
    });

    it("passes from the same origin", async () => {
      const email = uniqueEmail("csrf-same");
      const res = await requestLink(email);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(SIGN_IN_SENT);
      expect(await outboxFor(email)).toHaveLength(1);
    });

    it("passes from the same https origin", async () => {
      const email = uniqueEmail("csrf-https");
      const res = await requestLink(email, { origin: "https://dunly.example" });
      expect(res.status).toBe(200);
      expect(await outboxFor(email)).toHaveLength(1);
    });
  });

  describe("POST /logout", () => {
    it("is refused with 403 without an Origin header, and keeps the session", async () => {
      const { token, cookie } = await signIn();
      const res = await postForm("/logout", {}, { cookie, originHeader: null });
      expect(res.status).toBe(403);
      expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
      expect(await sessionRow(token)).not.toBeNull();
    });

    it("is refused with 403 from another origin, and keeps the session", async () => {
      const { token, cookie } = await signIn();
      const res = await postForm("/logout", {}, { cookie, originHeader: "https://evil.example" });
      expect(res.status).toBe(403);
      expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
      expect(await sessionRow(token)).not.toBeNull();
      expect((await get("/dashboard", { cookie })).status).toBe(200);
    });

    it("passes from the same origin", async () => {
      const { token, cookie } = await signIn();
      const res = await postForm("/logout", {}, { cookie });
      expect(res.status).toBe(302);
      expect(await sessionRow(token)).toBeNull();
    });
  });

  it("refuses a cross-origin POST to /auth/verify without spending the token", async () => {
    const email = uniqueEmail("csrf-verify");
    await requestLink(email);
    const token = await latestLinkToken(email);
    const evil = await verify(token, { originHeader: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(setCookieFor(evil, SESSION_COOKIE)).toBeUndefined();
    const ok = await verify(token);
    expect(ok.status).toBe(302);
    expect(setCookieFor(ok, SESSION_COOKIE)).toBeDefined();
  });

  describe("GET requests are not affected", () => {
    it("serves / with a foreign Origin or none", async () => {
      expect((await get("/", { headers: { Origin: "https://evil.example" } })).status).toBe(200);
      expect((await get("/")).status).toBe(200);
    });

    it("serves a guarded page to a signed-in user with a foreign Origin", async () => {
      const { cookie } = await signIn();
      expect((await get("/dashboard", { cookie, headers: { Origin: "https://evil.example" } })).status).toBe(200);
    });

    it("GET /logout changes nothing and redirects to /", async () => {
      const { token, cookie } = await signIn();
      const res = await get("/logout", { cookie });
      expect(res.status).toBe(302);
      expect(location(res)!.pathname).toBe("/");
      expect(await sessionRow(token)).not.toBeNull();
    });
  });
});
