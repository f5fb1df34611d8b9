import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { sessions } from "~/db/schema";
import type { RawRow } from "../support/db-rows";
import {
  cookieAttributes,
  countSessionsOf,
  DAY,
  get,
  location,
  postForm,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  sessionRow,
  sessionTokenFrom,
  setCookieFor,
  sha256Hex,
  signIn,
  uniqueEmail,
} from "./helpers";

describe("session tokens", () => {
  it("are 25 random bytes in lower-case base32 (40 characters, 200 bits)", async () => {
    const a = await signIn();
    const b = await signIn();
    expect(a.token).toMatch(/^[a-z2-7]{40}$/);
    expect(b.token).toMatch(/^[a-z2-7]{40}$/);
    expect(a.token).not.toBe(b.token);
  });

  it("are stored only as their SHA-256 hex digest", async () => {
    const { token, userId } = await signIn();
    const row = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?")
      .bind(userId)
      .first<Pick<RawRow<typeof sessions>, "id">>();
    expect(row).not.toBeNull();
    expect(row!.id).not.toBe(token);
    expect(row!.id).toBe(await sha256Hex(token));
    expect(row!.id).toMatch(/^[0-9a-f]{64}$/);
    const raw = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE id = ?")
      .bind(token)
      .first<{ n: number }>();
    expect(raw!.n).toBe(0);
  });
});

describe("session cookie", () => {
  it("is HttpOnly and SameSite=Lax, and not Secure on http://localhost", async () => {
    const { response } = await signIn();
    const header = setCookieFor(response, SESSION_COOKIE)!;
    const attrs = cookieAttributes(header);
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.samesite).toBe("Lax");
    expect(attrs.path).toBe("/");
    expect(attrs).not.toHaveProperty("secure");
  });

  it("is __Host-dunly_session, Secure, Path=/ and without Domain when the site is served over https", async () => {
    const origin = "https://dunly.example";
    const { response, token } = await signIn(uniqueEmail("https"), { origin });
    const header = setCookieFor(response, SECURE_SESSION_COOKIE)!;
    expect(header.startsWith(`${SECURE_SESSION_COOKIE}=${token};`)).toBe(true);
    const attrs = cookieAttributes(header);
    expect(attrs).toHaveProperty("secure");
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.samesite).toBe("Lax");
    expect(attrs.path).toBe("/");
    expect(attrs).not.toHaveProperty("domain");
    // No cookie under the plain name.
    expect(setCookieFor(response, SESSION_COOKIE)).toBeUndefined();
  });

  it("expires 30 days after sign-in", async () => {
    const before = Date.now();
    const { response, token } = await signIn();
    const after = Date.now();
    const row = await sessionRow(token);
    expect(row!.expires_at).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(row!.expires_at).toBeLessThanOrEqual(after + 30 * DAY);
    const expires = Date.parse(cookieAttributes(setCookieFor(response, SESSION_COOKIE)!).expires!);
    // The cookie's Expires has second precision.
    expect(Math.abs(expires - row!.expires_at)).toBeLessThan(1000);
  });
});

describe("sliding expiry", () => {
  it("extends a session with less than 15 days left to 30 days and re-sends the cookie", async () => {
    const { token, cookie } = await signIn();
    const id = await sha256Hex(token);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() + 10 * DAY, id)
      .run();

    const before = Date.now();
    const res = await get("/dashboard", { cookie });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect(sessionTokenFrom(res)).toBe(token);
    const attrs = cookieAttributes(setCookieFor(res, SESSION_COOKIE)!);
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.samesite).toBe("Lax");
    expect(attrs).not.toHaveProperty("secure");

    const row = await sessionRow(token);
    expect(row!.expires_at).toBeGreaterThanOrEqual(before + 30 * DAY);
    expect(row!.expires_at).toBeLessThanOrEqual(after + 30 * DAY);
    expect(Math.abs(Date.parse(attrs.expires!) - row!.expires_at)).toBeLessThan(1000);
  });

  it("re-sends the Secure __Host- cookie when renewing over https", async () => {
    const origin = "https://dunly.example";
    const { token, cookie } = await signIn(uniqueEmail("https-renew"), { origin });
    expect(cookie).toBe(`${SECURE_SESSION_COOKIE}=${token}`);
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() + 2 * DAY, await sha256Hex(token))
      .run();
    const res = await get("/dashboard", { cookie, origin });
    expect(res.status).toBe(200);
    expect(sessionTokenFrom(res, origin)).toBe(token);
    const attrs = cookieAttributes(setCookieFor(res, SECURE_SESSION_COOKIE)!);
    expect(attrs).toHaveProperty("secure");
    expect(attrs.path).toBe("/");
    expect(attrs).not.toHaveProperty("domain");
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
  });

  it("leaves a session with more than 15 days left alone", async () => {
    const { token, cookie } = await signIn();
    const expiresAt = Date.now() + 20 * DAY;
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(expiresAt, await sha256Hex(token))
      .run();
    const res = await get("/dashboard", { cookie });
    expect(res.status).toBe(200);
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    expect((await sessionRow(token))!.expires_at).toBe(expiresAt);
  });

  it("rejects an expired session and deletes it", async () => {
    const { token, cookie, userId } = await signIn();
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, await sha256Hex(token))
      .run();
    const res = await get("/dashboard", { cookie });
    expect(res.status).toBe(302);
    expect(location(res)!.pathname).toBe("/404");
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    expect(await sessionRow(token)).toBeNull();
    expect(await countSessionsOf(userId)).toBe(0);
  });

  it("rejects a cookie whose token has no session", async () => {
    const res = await get("/dashboard", { cookie: `${SESSION_COOKIE}=${"a".repeat(40)}` });
    expect(res.status).toBe(302);
    expect(location(res)!.pathname).toBe("/404");
  });
});

describe("logout", () => {
  it("deletes the session row, clears the cookie and redirects to /", async () => {
    const { token, cookie } = await signIn();
    expect(await sessionRow(token)).not.toBeNull();

    const res = await postForm("/logout", {}, { cookie });
    expect(res.status).toBe(302);
    expect(location(res)!.href).toBe("http://localhost/");
    const header = setCookieFor(res, SESSION_COOKIE)!;
    expect(sessionTokenFrom(res)).toBe("");
    const attrs = cookieAttributes(header);
    expect(attrs["max-age"]).toBe("0");
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.samesite).toBe("Lax");
    expect(await sessionRow(token)).toBeNull();

    // The old cookie no longer opens guarded pages.
    const after = await get("/dashboard", { cookie });
    expect(after.status).toBe(302);
    expect(location(after)!.pathname).toBe("/404");
  });

  it("over https ends the __Host- session and clears that cookie", async () => {
    const origin = "https://dunly.example";
    const { token, cookie } = await signIn(uniqueEmail("https-logout"), { origin });
    const res = await postForm("/logout", {}, { cookie, origin });
    expect(res.status).toBe(302);
    expect(location(res, origin)!.href).toBe(`${origin}/`);
    expect(sessionTokenFrom(res, origin)).toBe("");
    const attrs = cookieAttributes(setCookieFor(res, SECURE_SESSION_COOKIE)!);
    expect(attrs["max-age"]).toBe("0");
    expect(attrs).toHaveProperty("secure");
    expect(attrs.path).toBe("/");
    expect(await sessionRow(token)).toBeNull();
    expect((await get("/dashboard", { cookie, origin })).status).toBe(302);
  });

  it("only ends the session it is sent with", async () => {
    const first = await signIn();
    const email = first.email;
    const second = await signIn(email);
    expect(await countSessionsOf(first.userId)).toBe(2);
    await postForm("/logout", {}, { cookie: first.cookie });
    expect(await sessionRow(first.token)).toBeNull();
    expect(await sessionRow(second.token)).not.toBeNull();
    expect((await get("/dashboard", { cookie: second.cookie })).status).toBe(200);
  });
});
