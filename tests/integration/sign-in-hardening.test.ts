import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  cookieAttributes,
  countSessionsOf,
  get,
  LINK_INVALID,
  latestLinkToken,
  location,
  outboxFor,
  PASSWORD_CHANGED_SUBJECT,
  pageText,
  passwordSignIn,
  requestLink,
  SECURE_SESSION_COOKIE,
  SESSION_COOKIE,
  savePassword,
  sessionRow,
  sessionTokenFrom,
  setCookieFor,
  sha256Hex,
  signIn,
  uniqueEmail,
  uniqueIp,
  verify,
} from "./helpers";

const HTTPS = "https://dunly.test";
const SIGNS_IN_AS = "This link signs you in as";
const SIGNED_IN_ELSEWHERE = "on this browser. Continuing signs you out of that account first.";

/** The address as the verify page shows it: first and last character of the local part, the domain in full. */
function masked(email: string) {
  const [local, domain] = email.split("@") as [string, string];
  return `${local[0]}•••${local.at(-1)}@${domain}`;
}

/** The text of every role="alert" element on the page, tags removed. */
function alerts(html: string) {
  return [...html.matchAll(/<p role="alert"[^>]*>([\s\S]*?)<\/p>/g)].map((m) =>
    m[1]!.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, ""),
  );
}

/** The page's HTML with tags (and React's text separators) removed, entities decoded. */
async function visibleText(res: Response) {
  return (await pageText(res)).replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "");
}

/** Requests a sign-in link for `email` from a client of its own and returns the raw token. */
async function linkFor(email: string, origin?: string) {
  const res = await requestLink(email, { origin });
  expect(res.status).toBe(200);
  return latestLinkToken(email);
}

async function loginTokenExists(token: string) {
  const row = await env.DB.prepare("SELECT hash FROM login_tokens WHERE hash = ?")
    .bind(await sha256Hex(token))
    .first();
  return row !== null;
}

/** GET /dashboard: 200 when the cookie is a live session there, else the guard's redirect to /404. */
async function dashboardStatus(cookie: string, origin?: string) {
  const res = await get("/dashboard", { cookie, origin });
  if (res.status === 302) expect(location(res, origin)!.pathname).toBe("/404");
  return res.status;
}

function passwordChangedMails(email: string) {
  return outboxFor(email).then((rows) => rows.filter((row) => row.subject === PASSWORD_CHANGED_SUBJECT));
}

describe("the verify page (GET /auth/verify)", () => {
  it("shows the masked address the link signs into, never the full one", async () => {
    const email = uniqueEmail("jane.doe");
    const token = await linkFor(email);
    const res = await get(`/auth/verify?token=${token}`);
    expect(res.status).toBe(200);
    const html = await pageText(res);
    const text = html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, "");
    expect(text).toContain(`${SIGNS_IN_AS} ${masked(email)}.`);
    expect(masked(email)).toMatch(/^j•••[a-z0-9]@example\.com$/);
    // Not anywhere in the document: not in the text, the form, nor the data the page hydrates from.
    expect(html).not.toContain(email);
    expect(html).not.toContain(email.split("@")[0]);
    expect(html).toContain("Continue to Dunly");
    expect(alerts(html)).toEqual([]);
  });

  it("warns with the masked current account when a different user is signed in on this browser", async () => {
    const current = await signIn(uniqueEmail("current"));
    const email = uniqueEmail("other");
    const token = await linkFor(email);

    const res = await get(`/auth/verify?token=${token}`, { cookie: current.cookie });
    expect(res.status).toBe(200);
    const html = await pageText(res);
    expect(alerts(html)).toEqual([
      `You are signed in as ${masked(current.email)} ${SIGNED_IN_ELSEWHERE} If you did not ask for this link, close this page.`,
    ]);
    expect(html).toContain(`${SIGNS_IN_AS} <strong class="break-all">${masked(email)}</strong>`);
    expect(html).not.toContain(email);
    // The page still offers to continue: the user decides.
    expect(html).toContain("Continue to Dunly");
    expect(html).toContain(`value="${token}"`);
  });

  it("shows no warning when the same user or nobody is signed in", async () => {
    const me = await signIn(uniqueEmail("same"));
    const token = await linkFor(me.email);

    const signedIn = await visibleText(await get(`/auth/verify?token=${token}`, { cookie: me.cookie }));
    expect(signedIn).toContain(`${SIGNS_IN_AS} ${masked(me.email)}.`);
    expect(signedIn).not.toContain("You are signed in as");
    expect(signedIn).toContain("Continue to Dunly");

    const nobody = await get(`/auth/verify?token=${token}`);
    const html = await pageText(nobody);
    expect(alerts(html)).toEqual([]);
    expect(html).not.toContain("You are signed in as");
    expect(html).toContain("Continue to Dunly");
  });

  it("shows the invalid-link message and no form for an unknown, used or expired token", async () => {
    const used = await linkFor(uniqueEmail("used"));
    expect((await verify(used)).status).toBe(302);
    const expired = await linkFor(uniqueEmail("expired"));
    await env.DB.prepare("UPDATE login_tokens SET expires_at = ? WHERE hash = ?")
      .bind(Date.now() - 1, await sha256Hex(expired))
      .run();
    const viewer = await signIn(uniqueEmail("viewer"));

    for (const [token, cookie] of [
      ["a".repeat(40), undefined],
      [used, undefined],
      [expired, undefined],
      [expired, viewer.cookie],
    ] as const) {
      const res = await get(`/auth/verify?token=${token}`, { cookie });
      expect(res.status).toBe(200);
      const html = await pageText(res);
      expect(alerts(html)).toEqual([LINK_INVALID]);
      expect(html).toContain("Request a new link");
      expect(html).not.toContain("Continue to Dunly");
      expect(html).not.toContain('name="token"');
      expect(html).not.toContain(SIGNS_IN_AS);
    }
    // Showing it spent nothing: the expired row is still there (only a POST consumes it).
    expect(await loginTokenExists(expired)).toBe(true);
  });

  it("never spends the token, nor ends the session the browser has", async () => {
    const current = await signIn(uniqueEmail("scanned-viewer"));
    const email = uniqueEmail("scanned");
    const token = await linkFor(email);

    for (const cookie of [undefined, current.cookie, undefined]) {
      const res = await get(`/auth/verify?token=${token}`, { cookie });
      expect(res.status).toBe(200);
      expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
      expect(await pageText(res)).toContain(`${SIGNS_IN_AS} <strong class="break-all">${masked(email)}</strong>`);
    }
    expect(await loginTokenExists(token)).toBe(true);
    expect(await sessionRow(current.token)).not.toBeNull();
    expect(await dashboardStatus(current.cookie)).toBe(200);

    // The link still signs in, once.
    const res = await verify(token);
    expect(res.status).toBe(302);
    expect(sessionTokenFrom(res)).toMatch(/^[a-z2-7]{40}$/);
    expect(await loginTokenExists(token)).toBe(false);
  });
});

describe("signing in ends the session this browser had", () => {
  it("with a magic link: another account's session is deleted and its cookie stops working", async () => {
    const previous = await signIn(uniqueEmail("previous"));
    const elsewhere = await signIn(previous.email);
    const email = uniqueEmail("next");

    const res = await verify(await linkFor(email), { cookie: previous.cookie });
    expect(res.status).toBe(302);
    const token = sessionTokenFrom(res)!;
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    expect(await sessionRow(previous.token)).toBeNull();
    expect(await dashboardStatus(previous.cookie)).toBe(302);
    // Only this browser's session ended: the same account's session on another browser stays.
    expect(await sessionRow(elsewhere.token)).not.toBeNull();
    expect(await countSessionsOf(previous.userId)).toBe(1);

    const next = await sessionRow(token);
    expect(next).not.toBeNull();
    expect(next!.user_id).not.toBe(previous.userId);
    expect(await countSessionsOf(next!.user_id)).toBe(1);
    expect(await dashboardStatus(`${SESSION_COOKIE}=${token}`)).toBe(200);
  });

  it("with a magic link for the same account: the old session is replaced, not kept beside the new one", async () => {
    const first = await signIn(uniqueEmail("again"));
    const res = await verify(await linkFor(first.email), { cookie: first.cookie });
    expect(res.status).toBe(302);
    const token = sessionTokenFrom(res)!;
    expect(token).not.toBe(first.token);
    expect(await sessionRow(first.token)).toBeNull();
    expect(await countSessionsOf(first.userId)).toBe(1);
    expect(await dashboardStatus(first.cookie)).toBe(302);
    expect(await dashboardStatus(`${SESSION_COOKIE}=${token}`)).toBe(200);
  });

  it("with a password: another account's session is deleted and its cookie stops working", async () => {
    const owner = await signIn(uniqueEmail("pw-owner"));
    expect((await savePassword(owner.cookie, { newPassword: "owner-password" })).status).toBe(200);
    const previous = await signIn(uniqueEmail("pw-previous"));

    const res = await passwordSignIn(owner.email, "owner-password", { cookie: previous.cookie, ip: uniqueIp() });
    expect(res.status).toBe(302);
    const token = sessionTokenFrom(res)!;
    expect(token).toMatch(/^[a-z2-7]{40}$/);
    expect(await sessionRow(previous.token)).toBeNull();
    expect(await countSessionsOf(previous.userId)).toBe(0);
    expect(await dashboardStatus(previous.cookie)).toBe(302);
    expect((await sessionRow(token))!.user_id).toBe(owner.userId);
    expect(await dashboardStatus(`${SESSION_COOKIE}=${token}`)).toBe(200);
  });

  it("a failed sign-in leaves the browser's session alone", async () => {
    const owner = await signIn(uniqueEmail("fail-owner"));
    await savePassword(owner.cookie, { newPassword: "owner-password" });
    const current = await signIn(uniqueEmail("fail-current"));

    const badLink = await verify("a".repeat(40), { cookie: current.cookie });
    expect(badLink.status).toBe(200);
    expect(setCookieFor(badLink, SESSION_COOKIE)).toBeUndefined();
    const sessionsOfOwner = await countSessionsOf(owner.userId);
    const badPassword = await passwordSignIn(owner.email, "not-the-password", { cookie: current.cookie });
    // The document answer after the refused action re-runs the page's loader, which sends a
    // signed-in browser on to /welcome; either way no session starts and none ends.
    expect([400, 302]).toContain(badPassword.status);
    expect(setCookieFor(badPassword, SESSION_COOKIE)).toBeUndefined();
    expect(await countSessionsOf(owner.userId)).toBe(sessionsOfOwner);

    expect(await sessionRow(current.token)).not.toBeNull();
    expect(await dashboardStatus(current.cookie)).toBe(200);
  });

  it("over https: the __Host- cookie's session is the one that ends", async () => {
    const previous = await signIn(uniqueEmail("https-previous"), { origin: HTTPS });
    expect(previous.cookie.startsWith(`${SECURE_SESSION_COOKIE}=`)).toBe(true);
    const res = await verify(await linkFor(uniqueEmail("https-next"), HTTPS), {
      origin: HTTPS,
      cookie: previous.cookie,
    });
    expect(res.status).toBe(302);
    expect(sessionTokenFrom(res, HTTPS)).toMatch(/^[a-z2-7]{40}$/);
    expect(await sessionRow(previous.token)).toBeNull();
    expect(await dashboardStatus(previous.cookie, HTTPS)).toBe(302);
  });
});

describe("the session cookie over https", () => {
  function expectHostCookie(res: Response) {
    expect(setCookieFor(res, SESSION_COOKIE)).toBeUndefined();
    const header = setCookieFor(res, SECURE_SESSION_COOKIE)!;
    expect(header).toBeDefined();
    const attrs = cookieAttributes(header);
    expect(attrs).toHaveProperty("secure");
    expect(attrs).toHaveProperty("httponly");
    expect(attrs.samesite).toBe("Lax");
    expect(attrs.path).toBe("/");
    expect(attrs).not.toHaveProperty("domain");
    return header.slice(SECURE_SESSION_COOKIE.length + 1).split(";")[0]!;
  }

  it("is __Host-dunly_session, Secure, Path=/, without Domain, for a magic link and a password", async () => {
    const email = uniqueEmail("https-cookie");
    const viaLink = await verify(await linkFor(email, HTTPS), { origin: HTTPS });
    expect(viaLink.status).toBe(302);
    expect(location(viaLink, HTTPS)!.href).toBe(`${HTTPS}/welcome`);
    const linkToken = expectHostCookie(viaLink);
    expect(linkToken).toMatch(/^[a-z2-7]{40}$/);

    const cookie = `${SECURE_SESSION_COOKIE}=${linkToken}`;
    expect((await savePassword(cookie, { newPassword: "https-password" }, { origin: HTTPS })).status).toBe(200);
    const viaPassword = await passwordSignIn(email, "https-password", { origin: HTTPS });
    expect(viaPassword.status).toBe(302);
    expect(expectHostCookie(viaPassword)).toMatch(/^[a-z2-7]{40}$/);
  });

  it("is named by the connection: plain on http://localhost and 127.0.0.1, __Host- on any other host", async () => {
    for (const origin of ["http://localhost", "http://127.0.0.1"]) {
      const { response } = await signIn(uniqueEmail("plain"), { origin });
      expect(setCookieFor(response, SECURE_SESSION_COOKIE)).toBeUndefined();
      expect(cookieAttributes(setCookieFor(response, SESSION_COOKIE)!)).not.toHaveProperty("secure");
    }
    const { response } = await signIn(uniqueEmail("other-host"), { origin: "http://dunly.test" });
    expectHostCookie(response);
  });

  it("does not accept a plain dunly_session cookie on https; __Host-dunly_session works", async () => {
    const { token, cookie } = await signIn(uniqueEmail("https-plain"), { origin: HTTPS });
    const plain = `${SESSION_COOKIE}=${token}`;

    expect(await dashboardStatus(plain, HTTPS)).toBe(302);
    expect(await dashboardStatus(cookie, HTTPS)).toBe(200);
    // The verify page warns about a signed-in account only for the __Host- cookie.
    const other = uniqueEmail("https-plain-link");
    const token2 = await linkFor(other, HTTPS);
    const asPlain = await pageText(await get(`/auth/verify?token=${token2}`, { cookie: plain, origin: HTTPS }));
    expect(asPlain).not.toContain("You are signed in as");
    const asHost = await pageText(await get(`/auth/verify?token=${token2}`, { cookie, origin: HTTPS }));
    expect(asHost).toContain("You are signed in as");
    // Nor is a plain cookie the browser's session when signing in: it is left alone.
    expect((await verify(token2, { origin: HTTPS, cookie: plain })).status).toBe(302);
    expect(await sessionRow(token)).not.toBeNull();
  });

  it("does not accept a __Host-dunly_session cookie on plain-http localhost", async () => {
    const { token, cookie } = await signIn(uniqueEmail("http-host"));
    expect(await dashboardStatus(`${SECURE_SESSION_COOKIE}=${token}`)).toBe(302);
    expect(await dashboardStatus(cookie)).toBe(200);
  });
});

describe("changing the password in Settings", () => {
  it("ends every other session of the user, keeps this one, and e-mails how many ended", async () => {
    const email = uniqueEmail("pw-change");
    const one = await signIn(email);
    const two = await signIn(email);
    const three = await signIn(email);
    expect(await countSessionsOf(one.userId)).toBe(3);
    expect(await passwordChangedMails(email)).toHaveLength(0);

    const res = await savePassword(one.cookie, { newPassword: "first-password" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Password saved.");

    expect(await countSessionsOf(one.userId)).toBe(1);
    expect(await sessionRow(one.token)).not.toBeNull();
    expect(await sessionRow(two.token)).toBeNull();
    expect(await sessionRow(three.token)).toBeNull();
    expect(await dashboardStatus(one.cookie)).toBe(200);
    expect(await dashboardStatus(two.cookie)).toBe(302);
    expect(await dashboardStatus(three.cookie)).toBe(302);

    const mails = await passwordChangedMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(email);
    expect(mails[0]!.text).toContain("2 other sessions were signed out.");
    expect(mails[0]!.text).not.toContain("first-password");
    expect(mails[0]!.html).not.toContain("first-password");
  });

  it("says how many ended each time it changes: one, then none", async () => {
    const email = uniqueEmail("pw-again");
    const one = await signIn(email);
    expect((await savePassword(one.cookie, { newPassword: "first-password" })).status).toBe(200);
    expect((await passwordChangedMails(email)).at(-1)!.text).toContain("No other device was signed in.");

    const two = await signIn(email);
    const changed = await savePassword(one.cookie, {
      newPassword: "second-password",
      currentPassword: "first-password",
    });
    expect(changed.status).toBe(200);
    expect(await sessionRow(two.token)).toBeNull();
    expect(await countSessionsOf(one.userId)).toBe(1);
    const mails = await passwordChangedMails(email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain("1 other session was signed out.");
  });

  it("ends nothing and sends nothing when the current password is wrong or missing, or the new one is refused", async () => {
    const email = uniqueEmail("pw-wrong-current");
    const one = await signIn(email);
    expect((await savePassword(one.cookie, { newPassword: "the-password" })).status).toBe(200);
    const two = await signIn(email);
    expect(await passwordChangedMails(email)).toHaveLength(1);

    const refused = [
      await savePassword(one.cookie, { newPassword: "new-password", currentPassword: "wrong-password" }),
      await savePassword(one.cookie, { newPassword: "new-password" }),
      await savePassword(one.cookie, { newPassword: "short", currentPassword: "the-password" }),
      await savePassword(one.cookie, {
        newPassword: "new-password",
        confirmPassword: "other-password",
        currentPassword: "the-password",
      }),
    ];
    for (const res of refused) expect(res.status).toBe(400);

    expect(await countSessionsOf(one.userId)).toBe(2);
    expect(await dashboardStatus(two.cookie)).toBe(200);
    expect(await passwordChangedMails(email)).toHaveLength(1);
    // The password is the old one still.
    expect((await passwordSignIn(email, "the-password", { ip: uniqueIp() })).status).toBe(302);
  });

  it("over https keeps the __Host- session it was made from", async () => {
    const email = uniqueEmail("pw-https");
    const one = await signIn(email, { origin: HTTPS });
    const two = await signIn(email, { origin: HTTPS });
    const res = await savePassword(one.cookie, { newPassword: "https-password" }, { origin: HTTPS });
    expect(res.status).toBe(200);
    expect(await sessionRow(one.token)).not.toBeNull();
    expect(await sessionRow(two.token)).toBeNull();
    expect(await dashboardStatus(one.cookie, HTTPS)).toBe(200);
    expect(await dashboardStatus(two.cookie, HTTPS)).toBe(302);
    const mails = await passwordChangedMails(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("1 other session was signed out.");
  });
});
