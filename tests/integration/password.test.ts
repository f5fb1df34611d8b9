import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashPassword, MAX_PBKDF2_ITERATIONS, verifyPassword } from "~/auth/password.server";
import type { passwordCredentials } from "~/db/schema";
import type { RawRow } from "../support/db-rows";
import {
  cookieAttributes,
  countSessionsOf,
  get,
  location,
  postForm,
  SESSION_COOKIE,
  savePassword,
  sessionTokenFrom,
  setCookieFor,
  signIn,
  passwordSignIn as signInWithPassword,
  uniqueEmail,
  uniqueIp,
} from "./helpers";

const WRONG = "Wrong e-mail or password.";
const TOO_SHORT = "Password must be at least 8 characters";
const CURRENT_WRONG = "The current password is not correct";
const TOO_MANY = "Too many attempts. Please wait a few minutes and try again.";

async function credentialOf(userId: string) {
  return env.DB.prepare("SELECT * FROM password_credentials WHERE user_id = ?")
    .bind(userId)
    .first<RawRow<typeof passwordCredentials>>();
}

/** A password sign-in from a client of its own, so per-client limits never interfere. */
function passwordSignIn(email: string, password: string, options: Parameters<typeof signInWithPassword>[2] = {}) {
  return signInWithPassword(email, password, { ip: uniqueIp(), ...options });
}

describe("PBKDF2 parameters", () => {
  it("refuses more than 100,000 iterations (the Workers limit)", async () => {
    expect(MAX_PBKDF2_ITERATIONS).toBe(100_000);
    await expect(hashPassword("correct horse battery", 100_001)).rejects.toThrow(/100000/);
  });

  it("hashes and verifies at 100,000 iterations", async () => {
    const stored = await hashPassword("correct horse battery", 100_000);
    expect(stored.iterations).toBe(100_000);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
  });

  it("refuses to verify against a stored row with too many iterations", async () => {
    const stored = await hashPassword("pw-pw-pw-pw", 1000);
    await expect(verifyPassword("pw-pw-pw-pw", { ...stored, iterations: 100_001 })).rejects.toThrow();
  });
});

describe("setting a password in Settings", () => {
  it("stores a salted PBKDF2 hash with at most 100,000 iterations", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("set"));
    const res = await savePassword(cookie, { newPassword: "hunter2hunter2" });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('"ok",true');
    expect(body).toContain("Password saved.");
    expect(body).not.toContain("hunter2hunter2");

    const row = await credentialOf(userId);
    expect(row).not.toBeNull();
    expect(row!.iterations).toBeLessThanOrEqual(100_000);
    expect(row!.iterations).toBeGreaterThan(0);
    expect(row!.hash).not.toContain("hunter2");
    expect(atob(row!.salt)).toHaveLength(16);
    expect(atob(row!.hash)).toHaveLength(32);
  });

  it("also works as a plain (no-JavaScript) form post", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("set-doc"));
    const res = await postForm(
      "/iam/info",
      { intent: "set-password", newPassword: "plainform-pass", confirmPassword: "plainform-pass" },
      { cookie },
    );
    expect(res.status).toBe(200);
    expect(await credentialOf(userId)).not.toBeNull();
  });

  it("requires a signed-in user", async () => {
    const res = await postForm("/iam/info", {
      intent: "set-password",
      newPassword: "no-session-pw",
      confirmPassword: "no-session-pw",
    });
    expect(res.status).toBe(302);
    expect(location(res)!.pathname).toBe("/404");
  });

  it("rejects a password shorter than 8 characters with 400", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("short"));
    const res = await savePassword(cookie, { newPassword: "seven77" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(TOO_SHORT);
    expect(await credentialOf(userId)).toBeNull();

    // The no-JavaScript document answer carries the same message.
    const doc = await postForm(
      "/iam/info",
      { intent: "set-password", newPassword: "short", confirmPassword: "short" },
      { cookie },
    );
    expect(doc.status).toBe(400);
    expect(await doc.text()).toContain(TOO_SHORT);
  });

  it("rejects a confirmation that does not match", async () => {
    const { cookie, userId } = await signIn(uniqueEmail("mismatch"));
    const res = await savePassword(cookie, { newPassword: "first-password", confirmPassword: "other-password" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The passwords do not match");
    expect(await credentialOf(userId)).toBeNull();
  });

  it("changing an existing password requires the current one", async () => {
    const { cookie, userId, email } = await signIn(uniqueEmail("change"));
    expect((await savePassword(cookie, { newPassword: "original-pass" })).status).toBe(200);
    const original = await credentialOf(userId);

    const missing = await savePassword(cookie, { newPassword: "replaced-pass" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain(CURRENT_WRONG);

    const wrong = await savePassword(cookie, { newPassword: "replaced-pass", currentPassword: "not-the-original" });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(CURRENT_WRONG);
    expect(await credentialOf(userId)).toEqual(original);
    expect((await passwordSignIn(email, "replaced-pass")).status).toBe(400);

    const right = await savePassword(cookie, { newPassword: "replaced-pass", currentPassword: "original-pass" });
    expect(right.status).toBe(200);
    const changed = await credentialOf(userId);
    expect(changed!.hash).not.toBe(original!.hash);
    expect(changed!.salt).not.toBe(original!.salt);
    expect(changed!.iterations).toBeLessThanOrEqual(100_000);

    expect(sessionTokenFrom(await passwordSignIn(email, "replaced-pass"))).toBeTruthy();
    const old = await passwordSignIn(email, "original-pass");
    expect(old.status).toBe(400);
    expect(sessionTokenFrom(old)).toBeUndefined();
  });
});

describe("POST /sign-in/password", () => {
  it("signs in with the password set in Settings", async () => {
    const { cookie, userId, email } = await signIn(uniqueEmail("pw-login"));
    expect((await savePassword(cookie, { newPassword: "my-secret-pass" })).status).toBe(200);
    const sessionsBefore = await countSessionsOf(userId);

    const res = await passwordSignIn(email.toUpperCase(), "my-secret-pass");
    expect(res.status).toBe(302);
    expect(location(res)!.href).toBe("http://localhost/welcome");
    const token = sessionTokenFrom(res)!;
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    const attrs = cookieAttributes(setCookieFor(res, SESSION_COOKIE)!);
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.samesite).toBe("Lax");
    expect(await countSessionsOf(userId)).toBe(sessionsBefore + 1);
    expect((await get("/dashboard", { cookie: `${SESSION_COOKIE}=${token}` })).status).toBe(200);
  });

  it("goes to a same-site redirectTo", async () => {
    const { cookie, email } = await signIn(uniqueEmail("pw-redirect"));
    await savePassword(cookie, { newPassword: "redirect-pass" });
    const res = await passwordSignIn(email, "redirect-pass", { fields: { redirectTo: "/pricing" } });
    expect(res.status).toBe(302);
    expect(location(res)!.href).toBe("http://localhost/pricing");
  });

  it("rejects a wrong password with 400 and no session", async () => {
    const { cookie, userId, email } = await signIn(uniqueEmail("pw-wrong"));
    await savePassword(cookie, { newPassword: "the-right-one" });
    const sessionsBefore = await countSessionsOf(userId);

    const res = await passwordSignIn(email, "the-wrong-one");
    expect(res.status).toBe(400);
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    expect(await res.text()).toContain(WRONG);
    expect(await countSessionsOf(userId)).toBe(sessionsBefore);
  });

  it("answers an unknown e-mail and a user without a password exactly like a wrong password", async () => {
    const unknown = await passwordSignIn(uniqueEmail("pw-unknown"), "whatever-pass");
    expect(unknown.status).toBe(400);
    expect(setCookieFor(unknown, SESSION_COOKIE)).toBeUndefined();
    expect(await unknown.text()).toContain(WRONG);

    const { email, userId } = await signIn(uniqueEmail("pw-none"));
    const none = await passwordSignIn(email, "whatever-pass");
    expect(none.status).toBe(400);
    expect(setCookieFor(none, SESSION_COOKIE)).toBeUndefined();
    expect(await none.text()).toContain(WRONG);
    expect(await countSessionsOf(userId)).toBe(1);
  });

  it("is refused cross-origin", async () => {
    const { cookie, email } = await signIn(uniqueEmail("pw-csrf"));
    await savePassword(cookie, { newPassword: "csrf-password" });
    const res = await postForm(
      "/sign-in/password",
      { email, password: "csrf-password" },
      { originHeader: "https://evil.example" },
    );
    expect(res.status).toBe(403);
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
  });

  it("slows down guessing: at most 10 attempts per address from one client per 15 minutes", async () => {
    const { cookie, email, userId } = await signIn(uniqueEmail("pw-limit"));
    await savePassword(cookie, { newPassword: "limited-pass" });
    const sessionsBefore = await countSessionsOf(userId);
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await passwordSignIn(email, `guess-${i}-xx`, { ip })).status).toBe(400);
    // Even the right password is refused from that client once the limit is reached.
    const res = await passwordSignIn(email, "limited-pass", { ip });
    expect(res.status).toBe(429);
    expect(await res.text()).toContain(TOO_MANY);
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    // The address is counted case-insensitively.
    expect((await passwordSignIn(email.toUpperCase(), "limited-pass", { ip })).status).toBe(429);
    expect(await countSessionsOf(userId)).toBe(sessionsBefore);
  });

  it("limits guesses of Settings' current password like a sign-in: 10 per account in 15 minutes, then 429", async () => {
    const { cookie, email, userId } = await signIn(uniqueEmail("pw-current-limit"));
    await savePassword(cookie, { newPassword: "current-pass" });
    const original = await credentialOf(userId);
    const sessionsBefore = await countSessionsOf(userId);
    // From changing clients: the limit is the account's, not the client's.
    for (let i = 0; i < 10; i++) {
      const wrong = await savePassword(
        cookie,
        { newPassword: "taken-over-pass", currentPassword: `guess-${i}-xx` },
        { ip: uniqueIp() },
      );
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain(CURRENT_WRONG);
    }
    // Even the right password is refused now, with the sign-in's message, and nothing changes.
    const refused = await savePassword(
      cookie,
      { newPassword: "taken-over-pass", currentPassword: "current-pass" },
      { ip: uniqueIp() },
    );
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(TOO_MANY);
    expect(await credentialOf(userId)).toEqual(original);
    expect(await countSessionsOf(userId)).toBe(sessionsBefore);
    // Another account's Settings are not affected.
    const other = await signIn(uniqueEmail("pw-current-other"));
    await savePassword(other.cookie, { newPassword: "other-pass-1" });
    const changed = await savePassword(other.cookie, { newPassword: "other-pass-2", currentPassword: "other-pass-1" });
    expect(changed.status).toBe(200);
    // The sign-in itself still works for the owner (its limit is per client and address).
    expect((await passwordSignIn(email, "current-pass")).status).toBe(302);
  });

  it("a stranger guessing from another client cannot lock the owner out", async () => {
    const { cookie, email, userId } = await signIn(uniqueEmail("pw-lockout"));
    await savePassword(cookie, { newPassword: "owners-pass" });
    const stranger = uniqueIp();
    for (let i = 0; i < 10; i++) {
      expect((await passwordSignIn(email, `stranger-${i}-xx`, { ip: stranger })).status).toBe(400);
    }
    expect((await passwordSignIn(email, "owners-pass", { ip: stranger })).status).toBe(429);

    const sessionsBefore = await countSessionsOf(userId);
    const owner = await passwordSignIn(email, "owners-pass", { ip: uniqueIp() });
    expect(owner.status).toBe(302);
    const token = sessionTokenFrom(owner)!;
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    expect(await countSessionsOf(userId)).toBe(sessionsBefore + 1);
    expect((await get("/dashboard", { cookie: `${SESSION_COOKIE}=${token}` })).status).toBe(200);
  });

  it("allows at most 30 attempts per client per hour, across addresses", async () => {
    const { cookie, email, userId } = await signIn(uniqueEmail("pw-client"));
    await savePassword(cookie, { newPassword: "client-pass" });
    const ip = uniqueIp();
    for (let i = 0; i < 30; i++) {
      expect((await passwordSignIn(uniqueEmail(`pw-client-${i}`), "some-password", { ip })).status).toBe(400);
    }
    // A 31st attempt from that client is refused, even with the right password for an address it has not tried.
    const sessionsBefore = await countSessionsOf(userId);
    const res = await passwordSignIn(email, "client-pass", { ip });
    expect(res.status).toBe(429);
    expect(await res.text()).toContain(TOO_MANY);
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    expect(await countSessionsOf(userId)).toBe(sessionsBefore);

    // Another client is not affected.
    expect((await passwordSignIn(email, "client-pass", { ip: uniqueIp() })).status).toBe(302);
  });
});
