import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { loginTokens } from "~/db/schema";
import type { RawRow } from "../support/db-rows";
import {
  countSessionsOf,
  get,
  LINK_INVALID,
  latestLinkToken,
  latestLinkUrl,
  location,
  outboxFor,
  requestLink,
  SESSION_COOKIE,
  SIGN_IN_SENT,
  sessionTokenFrom,
  setCookieFor,
  sha256Hex,
  uniqueEmail,
  userByEmail,
  verify,
} from "./helpers";

const MINUTE = 60 * 1000;

async function loginTokenRows(email: string) {
  const { results } = await env.DB.prepare("SELECT * FROM login_tokens WHERE email = ?")
    .bind(email)
    .all<RawRow<typeof loginTokens>>();
  return results;
}

/** Requests a link and returns the raw token from the e-mail. */
async function linkFor(email: string, redirectTo?: string) {
  const res = await requestLink(email, { redirectTo });
  expect(res.status).toBe(200);
  expect(await res.text()).toContain(SIGN_IN_SENT);
  return latestLinkToken(email);
}

describe("requesting a magic link", () => {
  it("e-mails a link to /auth/verify on the same site", async () => {
    const email = uniqueEmail("link");
    await linkFor(email);
    const [mail] = await outboxFor(email);
    expect(mail!.subject).toBe("Your Dunly sign-in link");
    const url = await latestLinkUrl(email);
    expect(url.origin).toBe("http://localhost");
    expect(url.pathname).toBe("/auth/verify");
  });

  it("stores only the SHA-256 hash of the token, valid for 15 minutes", async () => {
    const email = uniqueEmail("hashed");
    const before = Date.now();
    const token = await linkFor(email);
    const after = Date.now();
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    const rows = await loginTokenRows(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hash).not.toBe(token);
    expect(rows[0]!.hash).toBe(await sha256Hex(token));
    expect(rows[0]!.expires_at).toBeGreaterThanOrEqual(before + 15 * MINUTE);
    expect(rows[0]!.expires_at).toBeLessThanOrEqual(after + 15 * MINUTE);
    const raw = await env.DB.prepare("SELECT count(*) AS n FROM login_tokens WHERE hash = ?")
      .bind(token)
      .first<{ n: number }>();
    expect(raw!.n).toBe(0);
  });
});

describe("verifying a magic link", () => {
  it("GET shows a confirm button with Referrer-Policy: strict-origin (the token never in Referer) and does not spend the token", async () => {
    const email = uniqueEmail("get");
    const token = await linkFor(email);
    const hash = await sha256Hex(token);

    const page = await get(`/auth/verify?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Referrer-Policy")).toBe("strict-origin");
    expect(setCookieFor(page, SESSION_COOKIE)).toBeUndefined();
    const html = await page.text();
    expect(html).toContain("Continue to Dunly");
    expect(html).toContain(`value="${token}"`);

    // A second GET (a link scanner, say) changes nothing either.
    await get(`/auth/verify?token=${token}`);
    const row = await env.DB.prepare("SELECT hash FROM login_tokens WHERE hash = ?").bind(hash).first();
    expect(row).not.toBeNull();

    // The token still signs in afterwards.
    const res = await verify(token);
    expect(res.status).toBe(302);
    expect(sessionTokenFrom(res)).toMatch(/^[a-z2-7]{40}$/);
  });

  it("creates the user on first sign-in (lower-cased e-mail, a full name) and goes to /welcome", async () => {
    const email = uniqueEmail("First.Sign-In").replace("@example.com", "@Example.COM");
    const lower = email.toLowerCase();
    expect(await userByEmail(lower)).toBeNull();
    await requestLink(email);
    const token = await latestLinkToken(lower);

    const res = await verify(token);
    expect(res.status).toBe(302);
    expect(location(res)!.pathname).toBe("/welcome");
    const sessionToken = sessionTokenFrom(res);
    expect(sessionToken).toMatch(/^[a-z2-7]{40}$/);

    const user = await userByEmail(lower);
    expect(user).not.toBeNull();
    expect(user!.email).toBe(lower);
    expect(user!.full_name).toBe(lower.split("@")[0]);
    expect(user!.email_verified_at).toEqual(expect.any(Number));
    expect(await userByEmail(email)).toBeNull();
    expect(await countSessionsOf(user!.id)).toBe(1);

    // The new cookie opens guarded pages.
    expect((await get("/dashboard", { cookie: `${SESSION_COOKIE}=${sessionToken}` })).status).toBe(200);
  });

  it("signs an existing user in to the same account", async () => {
    const email = uniqueEmail("again");
    await verify(await linkFor(email));
    const first = await userByEmail(email);
    await verify(await linkFor(email));
    const { results } = await env.DB.prepare("SELECT id FROM users WHERE email = ?").bind(email).all();
    expect(results).toEqual([{ id: first!.id }]);
    expect(await countSessionsOf(first!.id)).toBe(2);
  });

  it("goes to the redirectTo the link was requested with", async () => {
    const email = uniqueEmail("redirect");
    const res = await verify(await linkFor(email, "/dashboard"));
    expect(res.status).toBe(302);
    expect(location(res)!.href).toBe("http://localhost/dashboard");
    expect(sessionTokenFrom(res)).toBeTruthy();
  });

  it("ignores a redirectTo to another site", async () => {
    const email = uniqueEmail("offsite");
    const res = await verify(await linkFor(email, "//evil.example/steal"));
    expect(res.status).toBe(302);
    expect(location(res)!.href).toBe("http://localhost/welcome");
  });

  it("works only once", async () => {
    const email = uniqueEmail("once");
    const token = await linkFor(email);
    const first = await verify(token);
    expect(first.status).toBe(302);
    const user = await userByEmail(email);

    const second = await verify(token);
    expect(second.status).toBe(200);
    expect(setCookieFor(second, SESSION_COOKIE)).toBeUndefined();
    expect(await second.text()).toContain(LINK_INVALID);
    expect(await countSessionsOf(user!.id)).toBe(1);
    expect(await loginTokenRows(email)).toHaveLength(0);
  });

  it("makes at most one session from two concurrent uses of the same token", async () => {
    const email = uniqueEmail("race");
    const token = await linkFor(email);
    const responses = await Promise.all([verify(token), verify(token)]);
    const withSession = responses.filter((r) => sessionTokenFrom(r));
    expect(withSession).toHaveLength(1);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 302]);
    const user = await userByEmail(email);
    expect(await countSessionsOf(user!.id)).toBe(1);
  });

  it("fails after the token expired (15 minutes)", async () => {
    const email = uniqueEmail("expired");
    const token = await linkFor(email);
    await env.DB.prepare("UPDATE login_tokens SET expires_at = ? WHERE hash = ?")
      .bind(Date.now() - 1, await sha256Hex(token))
      .run();
    const res = await verify(token);
    expect(res.status).toBe(200);
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    expect(await res.text()).toContain(LINK_INVALID);
    expect(await userByEmail(email)).toBeNull();
  });

  it("rejects an unknown or missing token", async () => {
    const unknown = await verify("a".repeat(40));
    expect(unknown.status).toBe(200);
    expect(setCookieFor(unknown, SESSION_COOKIE)).toBeUndefined();
    expect(await unknown.text()).toContain(LINK_INVALID);

    const missing = await verify("");
    expect(setCookieFor(missing, SESSION_COOKIE)).toBeUndefined();
    expect(await missing.text()).toContain(LINK_INVALID);
  });

  it("does not accept the stored hash in place of the token", async () => {
    const email = uniqueEmail("hash-as-token");
    await linkFor(email);
    const [row] = await loginTokenRows(email);
    const res = await verify(row!.hash);
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    expect(await res.text()).toContain(LINK_INVALID);
  });
});
