import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { oauthAccounts, users } from "~/db/schema";
import type { RawRow } from "../support/db-rows";
import {
  cookieAttributes,
  countAllSessions,
  countSessionsOf,
  get,
  location,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  sessionRow,
  sessionTokenFrom,
  setCookieFor,
  sha256Hex,
  signIn,
  uniqueEmail,
  userByEmail,
} from "./helpers";

const STATE_COOKIE = "google_oauth_state";
const TOKEN_ENDPOINT = "https://oauth2.googleapis.com/token";

interface Claims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

function base64url(bytes: Uint8Array) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** An unsigned-looking JWT: header.payload.signature, all base64url. */
function idToken(claims: Claims) {
  const enc = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));
  const payload = {
    iss: "https://accounts.google.com",
    aud: "test-google-client",
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
    ...claims,
  };
  return `${enc({ alg: "RS256", typ: "JWT" })}.${enc(payload)}.${base64url(new TextEncoder().encode("signature"))}`;
}

/**
 * Google's token endpoint, mocked: the built Worker runs in the tests' isolate, so it uses this
 * global fetch. Returns the token requests the app made.
 */
function mockGoogleTokenEndpoint(claims: Claims) {
  const realFetch = globalThis.fetch;
  const calls: { url: string; body: URLSearchParams; headers: Headers }[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const req = new Request(input, init);
    if (req.url !== TOKEN_ENDPOINT) return realFetch(input, init);
    calls.push({
      url: req.url,
      body: new URLSearchParams(new TextDecoder().decode(await req.arrayBuffer())),
      headers: req.headers,
    });
    return Response.json({
      access_token: "test-access-token",
      token_type: "Bearer",
      expires_in: 3599,
      scope: "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile",
      id_token: idToken(claims),
    });
  });
  return { calls, spy };
}

/** GET /auth/google: the state from Google's URL and the browser's state cookie. */
async function startGoogle(path = "/auth/google", origin?: string) {
  const res = await get(path, { origin });
  expect(res.status).toBe(302);
  const url = location(res)!;
  const header = setCookieFor(res, STATE_COOKIE);
  expect(header).toBeDefined();
  const cookieValue = header!.slice(STATE_COOKIE.length + 1).split(";")[0]!;
  return {
    res,
    url,
    state: url.searchParams.get("state")!,
    cookie: `${STATE_COOKIE}=${cookieValue}`,
    cookieHeader: header!,
  };
}

function callback(params: Record<string, string>, cookie?: string, origin?: string) {
  return get(`/auth/google/callback?${new URLSearchParams(params)}`, { cookie, origin });
}

async function oauthAccount(sub: string) {
  return env.DB.prepare("SELECT * FROM oauth_accounts WHERE provider = 'google' AND provider_user_id = ?")
    .bind(sub)
    .first<RawRow<typeof oauthAccounts>>();
}

function uniqueSub() {
  return String(100000000000000000000n + BigInt(Math.floor(Math.random() * 1e15)));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("GET /auth/google", () => {
  it("redirects to Google with state and a PKCE S256 challenge, and sets the state cookie", async () => {
    const { url, state, cookieHeader } = await startGoogle();
    expect(url.origin).toBe("https://accounts.google.com");
    expect(url.pathname).toBe("/o/oauth2/v2/auth");
    expect(url.searchParams.get("response_type")).toBe("code");
    expect(url.searchParams.get("client_id")).toBe("test-google-client");
    expect(url.searchParams.get("redirect_uri")).toBe("http://localhost/auth/google/callback");
    expect(url.searchParams.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["openid", "email", "profile"]));
    expect(state).toBeTruthy();
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");

    expect(cookieHeader.startsWith(`${STATE_COOKIE}=${state};`)).toBe(true);
    const attrs = cookieAttributes(cookieHeader);
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.samesite).toBe("Lax");
    expect(attrs.path).toBe("/auth/google");
    expect(Number(attrs["max-age"])).toBeGreaterThan(0);
    expect(attrs).not.toHaveProperty("secure");
  });

  it("stores only a hash of the state server-side", async () => {
    const { state } = await startGoogle();
    const hashed = await env.DB.prepare("SELECT count(*) AS n FROM oauth_states WHERE hash = ?")
      .bind(await sha256Hex(state))
      .first<{ n: number }>();
    const raw = await env.DB.prepare("SELECT count(*) AS n FROM oauth_states WHERE hash = ?")
      .bind(state)
      .first<{ n: number }>();
    expect(hashed!.n).toBe(1);
    expect(raw!.n).toBe(0);
  });

  it("uses a new state each time", async () => {
    const a = await startGoogle();
    const b = await startGoogle();
    expect(a.state).not.toBe(b.state);
    expect(a.url.searchParams.get("code_challenge")).not.toBe(b.url.searchParams.get("code_challenge"));
  });

  it("sets a Secure state cookie over https", async () => {
    const res = await get("/auth/google", { origin: "https://dunly.example" });
    expect(location(res)!.searchParams.get("redirect_uri")).toBe("https://dunly.example/auth/google/callback");
    expect(cookieAttributes(setCookieFor(res, STATE_COOKIE)!)).toHaveProperty("secure");
  });
});

describe("GET /auth/google/callback", () => {
  it("creates the user from Google's name and e-mail, links the account, and starts a session", async () => {
    const email = uniqueEmail("Google.New");
    const sub = uniqueSub();
    const { calls } = mockGoogleTokenEndpoint({ sub, email, email_verified: true, name: "Ada Lovelace" });
    const { url, state, cookie } = await startGoogle();

    const res = await callback({ state, code: "google-auth-code" }, cookie);
    expect(res.status).toBe(302);
    expect(location(res)!.href).toBe("http://localhost/welcome");

    // The code was exchanged once, with the PKCE verifier matching the challenge sent to Google.
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body.get("grant_type")).toBe("authorization_code");
    expect(calls[0]!.body.get("code")).toBe("google-auth-code");
    expect(calls[0]!.body.get("redirect_uri")).toBe("http://localhost/auth/google/callback");
    const verifier = calls[0]!.body.get("code_verifier")!;
    const challenge = base64url(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
    );
    expect(challenge).toBe(url.searchParams.get("code_challenge"));

    const user = await userByEmail(email.toLowerCase());
    expect(user).not.toBeNull();
    expect(user!.full_name).toBe("Ada Lovelace");
    expect(user!.email_verified_at).toEqual(expect.any(Number));
    expect((await oauthAccount(sub))!.user_id).toBe(user!.id);

    const token = sessionTokenFrom(res)!;
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    const attrs = cookieAttributes(setCookieFor(res, SESSION_COOKIE)!);
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.samesite).toBe("Lax");
    // The state cookie is cleared.
    expect(cookieAttributes(setCookieFor(res, STATE_COOKIE)!)["max-age"]).toBe("0");
    expect(await countSessionsOf(user!.id)).toBe(1);
    expect((await get("/dashboard", { cookie: `${SESSION_COOKIE}=${token}` })).status).toBe(200);
  });

  it("goes to the redirectTo the flow was started with", async () => {
    mockGoogleTokenEndpoint({
      sub: uniqueSub(),
      email: uniqueEmail("google-redirect"),
      email_verified: true,
      name: "R",
    });
    const { state, cookie } = await startGoogle("/auth/google?redirectTo=%2Fschedule");
    const res = await callback({ state, code: "c" }, cookie);
    expect(res.status).toBe(302);
    expect(location(res)!.href).toBe("http://localhost/schedule");
    expect(sessionTokenFrom(res)).toBeTruthy();
  });

  it("links to an existing magic-link user with the same verified e-mail", async () => {
    const existing = await signIn(uniqueEmail("linked"));
    const sub = uniqueSub();
    mockGoogleTokenEndpoint({ sub, email: existing.email.toUpperCase(), email_verified: true, name: "Someone Else" });
    const { state, cookie } = await startGoogle();

    const res = await callback({ state, code: "c" }, cookie);
    expect(res.status).toBe(302);
    expect(location(res)!.pathname).toBe("/welcome");
    expect(sessionTokenFrom(res)).toBeTruthy();
    expect((await oauthAccount(sub))!.user_id).toBe(existing.userId);
    const { results } = await env.DB.prepare("SELECT id, full_name FROM users WHERE email = ?")
      .bind(existing.email)
      .all<Pick<RawRow<typeof users>, "id" | "full_name">>();
    expect(results).toHaveLength(1);
    expect(results[0]!.id).toBe(existing.userId);
    expect(await countSessionsOf(existing.userId)).toBe(2);
  });

  it("signs a returning Google user in to the same account", async () => {
    const email = uniqueEmail("returning");
    const sub = uniqueSub();
    mockGoogleTokenEndpoint({ sub, email, email_verified: true, name: "Returning User" });
    const first = await startGoogle();
    expect((await callback({ state: first.state, code: "c1" }, first.cookie)).status).toBe(302);
    const userId = (await oauthAccount(sub))!.user_id;

    const second = await startGoogle();
    const res = await callback({ state: second.state, code: "c2" }, second.cookie);
    expect(sessionTokenFrom(res)).toBeTruthy();
    expect((await oauthAccount(sub))!.user_id).toBe(userId);
    expect(await countSessionsOf(userId)).toBe(2);
  });

  it("ends the session this browser's cookie carried, even another account's", async () => {
    const previous = await signIn(uniqueEmail("google-previous"));
    const elsewhere = await signIn(previous.email);
    const email = uniqueEmail("google-next");
    mockGoogleTokenEndpoint({ sub: uniqueSub(), email, email_verified: true, name: "Next" });
    const { state, cookie } = await startGoogle();

    const res = await callback({ state, code: "c" }, `${cookie}; ${previous.cookie}`);
    expect(res.status).toBe(302);
    const token = sessionTokenFrom(res)!;
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    expect(await sessionRow(previous.token)).toBeNull();
    expect((await get("/dashboard", { cookie: previous.cookie })).status).toBe(302);
    // The previous account's session on another browser is not this browser's: it stays.
    expect(await sessionRow(elsewhere.token)).not.toBeNull();
    expect(await countSessionsOf(previous.userId)).toBe(1);

    const user = await userByEmail(email.toLowerCase());
    expect(await countSessionsOf(user!.id)).toBe(1);
    expect((await get("/dashboard", { cookie: `${SESSION_COOKIE}=${token}` })).status).toBe(200);
  });

  it("sets the Secure __Host-dunly_session cookie over https", async () => {
    const origin = "https://dunly.example";
    mockGoogleTokenEndpoint({ sub: uniqueSub(), email: uniqueEmail("google-https"), email_verified: true, name: "S" });
    const { state, cookie } = await startGoogle("/auth/google", origin);
    const res = await callback({ state, code: "c" }, cookie, origin);
    expect(res.status).toBe(302);
    expect(location(res, origin)!.href).toBe(`${origin}/welcome`);
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    const header = setCookieFor(res, SECURE_SESSION_COOKIE)!;
    const attrs = cookieAttributes(header);
    expect(attrs).toHaveProperty("secure");
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.path).toBe("/");
    expect(attrs).not.toHaveProperty("domain");
    const token = sessionTokenFrom(res, origin)!;
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    expect((await get("/dashboard", { cookie: `${SECURE_SESSION_COOKIE}=${token}`, origin })).status).toBe(200);
  });

  describe("makes no session", () => {
    async function expectNoSession(res: Response, sessionsBefore: number, error = "google-failed") {
      expect(res.status).toBe(302);
      const to = location(res)!;
      expect(to.pathname).toBe("/");
      expect(to.searchParams.get("error")).toBe(error);
      expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
      expect(await countAllSessions()).toBe(sessionsBefore);
    }

    it("without a state in the query", async () => {
      const { calls } = mockGoogleTokenEndpoint({
        sub: uniqueSub(),
        email: uniqueEmail("g"),
        email_verified: true,
        name: "N",
      });
      const { cookie } = await startGoogle();
      const before = await countAllSessions();
      await expectNoSession(await callback({ code: "c" }, cookie), before);
      expect(calls).toHaveLength(0);
    });

    it("without the state cookie", async () => {
      const { calls } = mockGoogleTokenEndpoint({
        sub: uniqueSub(),
        email: uniqueEmail("g"),
        email_verified: true,
        name: "N",
      });
      const { state } = await startGoogle();
      const before = await countAllSessions();
      await expectNoSession(await callback({ state, code: "c" }), before);
      expect(calls).toHaveLength(0);
    });

    it("when the state cookie does not match the query (another flow's state)", async () => {
      const { calls } = mockGoogleTokenEndpoint({
        sub: uniqueSub(),
        email: uniqueEmail("g"),
        email_verified: true,
        name: "N",
      });
      const mine = await startGoogle();
      const theirs = await startGoogle();
      const before = await countAllSessions();
      await expectNoSession(await callback({ state: theirs.state, code: "c" }, mine.cookie), before);
      expect(calls).toHaveLength(0);
    });

    it("for a state the server never issued, even if the cookie matches", async () => {
      const { calls } = mockGoogleTokenEndpoint({
        sub: uniqueSub(),
        email: uniqueEmail("g"),
        email_verified: true,
        name: "N",
      });
      const forged = "forged-state-value";
      const before = await countAllSessions();
      await expectNoSession(await callback({ state: forged, code: "c" }, `${STATE_COOKIE}=${forged}`), before);
      expect(calls).toHaveLength(0);
    });

    it("when the callback is replayed (same state, code and cookie)", async () => {
      const email = uniqueEmail("replay");
      const { calls } = mockGoogleTokenEndpoint({ sub: uniqueSub(), email, email_verified: true, name: "Replay" });
      const { state, cookie } = await startGoogle();
      const first = await callback({ state, code: "c" }, cookie);
      expect(sessionTokenFrom(first)).toBeTruthy();
      const userId = (await userByEmail(email))!.id;

      const before = await countAllSessions();
      await expectNoSession(await callback({ state, code: "c" }, cookie), before);
      expect(await countSessionsOf(userId)).toBe(1);
      expect(calls).toHaveLength(1);
    });

    it("when the state has expired", async () => {
      mockGoogleTokenEndpoint({ sub: uniqueSub(), email: uniqueEmail("late"), email_verified: true, name: "Late" });
      const { state, cookie } = await startGoogle();
      await env.DB.prepare("UPDATE oauth_states SET expires_at = ? WHERE hash = ?")
        .bind(Date.now() - 1, await sha256Hex(state))
        .run();
      const before = await countAllSessions();
      await expectNoSession(await callback({ state, code: "c" }, cookie), before);
    });

    it("when Google's e-mail is not verified and no account is linked", async () => {
      const email = uniqueEmail("unverified");
      const sub = uniqueSub();
      mockGoogleTokenEndpoint({ sub, email, email_verified: false, name: "Unverified" });
      const { state, cookie } = await startGoogle();
      const before = await countAllSessions();
      await expectNoSession(await callback({ state, code: "c" }, cookie), before, "google-unverified");
      expect(await userByEmail(email)).toBeNull();
      expect(await oauthAccount(sub)).toBeNull();
    });

    it("when an unverified Google e-mail matches an existing user (no takeover)", async () => {
      const existing = await signIn(uniqueEmail("victim"));
      const sub = uniqueSub();
      mockGoogleTokenEndpoint({ sub, email: existing.email, email_verified: false, name: "Attacker" });
      const { state, cookie } = await startGoogle();
      const before = await countAllSessions();
      await expectNoSession(await callback({ state, code: "c" }, cookie), before, "google-unverified");
      expect(await oauthAccount(sub)).toBeNull();
      expect(await countSessionsOf(existing.userId)).toBe(1);
    });

    it("when Google's token endpoint rejects the code", async () => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const realFetch = globalThis.fetch;
      vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const req = new Request(input, init);
        if (req.url !== TOKEN_ENDPOINT) return realFetch(input, init);
        return Response.json({ error: "invalid_grant", error_description: "Bad Request" }, { status: 400 });
      });
      const { state, cookie } = await startGoogle();
      const before = await countAllSessions();
      await expectNoSession(await callback({ state, code: "bad" }, cookie), before);
      expect(logged).toHaveBeenCalled();
    });
  });
});
