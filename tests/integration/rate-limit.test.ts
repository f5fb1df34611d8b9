import { describe, expect, it } from "vitest";
import { outboxFor, requestLink, SIGN_IN_LIMITED, SIGN_IN_SENT, signIn, uniqueEmail, uniqueIp } from "./helpers";

describe("sign-in e-mail rate limits", () => {
  it("sends at most 3 e-mails per address per 15 minutes", async () => {
    const email = uniqueEmail("per-address");
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) {
      const res = await requestLink(email, { ip });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(SIGN_IN_SENT);
    }
    const fourth = await requestLink(email, { ip });
    expect(fourth.status).toBe(429);
    const body = await fourth.text();
    expect(body).toContain(SIGN_IN_LIMITED);
    expect(body).not.toContain(SIGN_IN_SENT);
    expect(await outboxFor(email)).toHaveLength(3);
  });

  it("a stranger from another client cannot lock the owner out", async () => {
    const email = uniqueEmail("per-address-many-ips");
    const stranger = uniqueIp();
    for (let i = 0; i < 3; i++) expect((await requestLink(email, { ip: stranger })).status).toBe(200);
    // The stranger's own client is still limited at 3 for that address.
    const refused = await requestLink(email, { ip: stranger });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(SIGN_IN_LIMITED);
    expect(await outboxFor(email)).toHaveLength(3);

    // The owner, from their own client, still gets a link, and has an allowance of 3 of their own.
    const owner = uniqueIp();
    for (let i = 0; i < 3; i++) {
      const res = await requestLink(email, { ip: owner });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(SIGN_IN_SENT);
    }
    expect(await outboxFor(email)).toHaveLength(6);
    expect((await requestLink(email, { ip: owner })).status).toBe(429);
    expect(await outboxFor(email)).toHaveLength(6);
  });

  it("counts addresses case-insensitively", async () => {
    const email = uniqueEmail("case");
    const ip = uniqueIp();
    for (const variant of [email, email.toUpperCase(), email.replace("case", "CASE")]) {
      expect((await requestLink(variant, { ip })).status).toBe(200);
    }
    expect((await requestLink(email, { ip })).status).toBe(429);
    expect(await outboxFor(email)).toHaveLength(3);
  });

  it("sends at most 20 e-mails per client per hour", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 20; i++) {
      const res = await requestLink(uniqueEmail(`client-${i}`), { ip });
      expect(res.status).toBe(200);
    }
    const email = uniqueEmail("client-21");
    const res = await requestLink(email, { ip });
    expect(res.status).toBe(429);
    expect(await res.text()).toContain(SIGN_IN_LIMITED);
    expect(await outboxFor(email)).toHaveLength(0);

    // Another client is not affected.
    const other = uniqueEmail("other-client");
    expect((await requestLink(other, { ip: uniqueIp() })).status).toBe(200);
    expect(await outboxFor(other)).toHaveLength(1);
  });

  it("answers the same for an unknown address and an existing user's address", async () => {
    const existing = await signIn(uniqueEmail("known"));
    const unknown = uniqueEmail("unknown");

    const forExisting = await requestLink(existing.email, { ip: uniqueIp() });
    const forUnknown = await requestLink(unknown, { ip: uniqueIp() });
    expect(forExisting.status).toBe(200);
    expect(forUnknown.status).toBe(forExisting.status);
    // Each page has its own script nonce (Content-Security-Policy); everything else is the same.
    const withoutNonce = (html: string) => html.replace(/ nonce="[^"]*"/g, "");
    const existingBody = withoutNonce(await forExisting.text());
    const unknownBody = withoutNonce(await forUnknown.text());
    expect(existingBody).toContain(SIGN_IN_SENT);
    expect(unknownBody).toBe(existingBody);
    // Both really got an e-mail.
    expect(await outboxFor(unknown)).toHaveLength(1);
    expect(await outboxFor(existing.email)).toHaveLength(2);
  });
});
