import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recheckSendingDomains } from "~/account/index.server";
import { sendRecorded } from "~/mail/index.server";
import { readConfig } from "~/platform/config.server";
import { daytimeZone } from "../support/daytime-zone";
import { formAction, replyErrors } from "./data-helpers";
import { fireAndSend, resendDelivered } from "./engine-helpers";
import { db, makeDebtor, makeSchedule } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";

/**
 * Sending from the user's own domain (docs/decisions/059-sending-domains.md), through the mail
 * Worker's Domains methods and the fake Resend's Domains API (tests/support/fake-resend.ts).
 */

const fakeUrl = () => {
  const url = env.FAKE_RESEND_URL;
  if (!url) throw new Error("FAKE_RESEND_URL is not bound");
  return url;
};

/** What the fake Resend concludes about a domain's DNS ("verified", "failed"), or that it forgot it. */
async function resendSays(name: string, change: { status: string } | { remove: true }) {
  const res = await fetch(`${fakeUrl()}/__domain-status`, {
    method: "POST",
    body: JSON.stringify({ name, ...change }),
  });
  expect(res.status).toBe(200);
}

/** The fake's next answers to requests about the domain: a status, or a dropped connection. */
async function programDomain(name: string, responses: ({ status: number } | { fault: "reset" })[]) {
  const res = await fetch(`${fakeUrl()}/__domain-program`, {
    method: "POST",
    body: JSON.stringify({ name, responses }),
  });
  expect(res.status).toBe(200);
}

const domainRequests = async (name: string): Promise<{ method: string; path: string; status: number }[]> =>
  (await fetch(`${fakeUrl()}/__domain-requests?name=${encodeURIComponent(name)}`)).json();

const uniqueDomain = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}.example.com`;

const domainRow = (ownerId: string) =>
  env.DB.prepare(
    "SELECT name, local_part, status, provider_id, records, checked_at FROM sending_domains WHERE owner_id = ?",
  )
    .bind(ownerId)
    .first<{
      name: string;
      local_part: string;
      status: string;
      provider_id: string;
      records: string;
      checked_at: number | null;
    }>();

/** A debtor who can be sent a reminder now, and the schedule to send it. */
async function reminderFor(ownerId: string) {
  const debtor = await makeDebtor(ownerId, { fullName: "Dora Debtor", timeZone: daytimeZone() });
  const schedule = await makeSchedule(ownerId, debtor.id, { frequency: "now" });
  return { debtor, schedule };
}

async function sendReminder(ownerId: string) {
  const { debtor, schedule } = await reminderFor(ownerId);
  const sent = await fireAndSend(schedule, Date.now() + 2 * 60_000);
  expect(sent).toMatchObject({ kind: "done", status: "sent" });
  const [message] = await resendDelivered(debtor.email);
  return String(message?.body.from ?? "");
}

/** Adds `name` as the user's domain; answers the action's status and data. */
const addDomain = (cookie: string, name: string, localPart = "billing") =>
  formAction("/iam/domain", { intent: "domain-add", domain: name, local_part: localPart }, cookie);

describe("sending domain", () => {
  it("is added with its DNS records, verified through Resend, and the next reminder goes from it", async () => {
    const a = await signIn(uniqueEmail("domain"));
    const page = await pageText(await get("/iam/domain", { cookie: a.cookie }));
    expect(page).toContain("Add your domain");
    expect(page).toContain("<reminders@dunly.test>");

    const name = uniqueDomain("acme");
    const added = await addDomain(a.cookie, name.toUpperCase(), "Billing");
    expect(added.status, JSON.stringify(added.data)).toBe(200);
    const row = await domainRow(a.userId);
    expect(row).toMatchObject({ name, local_part: "billing", status: "not_started" });
    const records = JSON.parse(row?.records ?? "[]") as { type: string; name: string; value: string }[];
    expect(records.map((r) => `${r.type} ${r.name}`)).toEqual(["MX send", "TXT send", "TXT resend._domainkey"]);

    // The records, the status and the address mail goes from now: still Dunly's.
    const listed = await pageText(await get("/iam/domain", { cookie: a.cookie }));
    expect(listed).toContain("Not verified yet");
    expect(listed).toContain("resend._domainkey");
    expect(listed).toContain("v=spf1 include:amazonses.com ~all");
    expect(listed).toContain(`billing@${name}`);
    expect(listed).toContain("Dunly's address, until your domain is verified.");
    expect(await sendReminder(a.userId)).toMatch(/<reminders@dunly\.test>$/);

    // Resend has not found the records yet: still pending, and mail still goes from Dunly's address.
    const pending = await formAction("/iam/domain", { intent: "domain-check" }, a.cookie);
    expect(pending.status).toBe(200);
    expect(pending.data.message).toContain("not verified yet");
    expect((await domainRow(a.userId))?.status).toBe("pending");
    expect(await domainRequests(name)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: "POST", path: "/domains", status: 201 }),
        expect.objectContaining({ method: "POST", path: `/domains/${row?.provider_id}/verify`, status: 200 }),
        expect.objectContaining({ method: "GET", path: `/domains/${row?.provider_id}`, status: 200 }),
      ]),
    );

    await resendSays(name, { status: "verified" });
    const verified = await formAction("/iam/domain", { intent: "domain-check" }, a.cookie);
    expect(verified.data.message).toBe(`${name} is verified: your e-mails go from it now.`);
    expect((await domainRow(a.userId))?.status).toBe("verified");
    const shown = await pageText(await get("/iam/domain", { cookie: a.cookie }));
    expect(shown).toContain("Verified");
    expect(shown).toContain("Your own domain, verified.");

    expect(await sendReminder(a.userId)).toMatch(new RegExp(`<billing@${name.replaceAll(".", "\\.")}>$`));

    // A receipt to a debtor goes from it too (read as it is sent).
    const debtorEmail = uniqueEmail("receipt-to");
    await sendRecorded(env, db(), {
      ownerId: a.userId,
      key: `receipt:test-${crypto.randomUUID()}`,
      email: {
        kind: "receipt",
        message: {
          to: debtorEmail,
          senderName: "Sally",
          replyTo: a.email,
          debtorName: "Dora",
          amount: "€1.00",
          paidOn: "1 November 2026",
          reference: "pi_1",
          portalUrl: "http://localhost/d/x",
        },
      },
    });
    const [receipt] = await resendDelivered(debtorEmail);
    expect(String(receipt?.body.from)).toContain(`<billing@${name}>`);
  });

  it("falls back to Dunly's address when the domain fails or Resend no longer has it, and tells the user", async () => {
    const a = await signIn(uniqueEmail("domain-fail"));
    const name = uniqueDomain("fails");
    expect((await addDomain(a.cookie, name)).status).toBe(200);
    await resendSays(name, { status: "verified" });
    await formAction("/iam/domain", { intent: "domain-check" }, a.cookie);
    expect((await domainRow(a.userId))?.status).toBe("verified");

    // A record was taken down: the watchdog's read finds it failed (its last check made old enough).
    await resendSays(name, { status: "failed" });
    await env.DB.prepare("UPDATE sending_domains SET checked_at = 0 WHERE owner_id = ?").bind(a.userId).run();
    await recheckSendingDomains(env, db(), readConfig(env));
    expect((await domainRow(a.userId))?.status).toBe("failed");
    expect(await sendReminder(a.userId)).toMatch(/<reminders@dunly\.test>$/);
    const told = (await resendDelivered(a.email)).filter((m) =>
      String(m.body.subject).startsWith("Your reminders no longer go from"),
    );
    expect(told).toHaveLength(1);
    expect(String(told[0]?.body.text)).toContain(`${name} failed its DNS check`);
    const page = await pageText(await get("/iam/domain", { cookie: a.cookie }));
    expect(page).toContain("Failed");
    expect(page).toContain("Resend could not find every record");

    // Verified again, then Resend no longer has it: removed, fallback, told again.
    await resendSays(name, { status: "verified" });
    await formAction("/iam/domain", { intent: "domain-check" }, a.cookie);
    expect((await domainRow(a.userId))?.status).toBe("verified");
    await resendSays(name, { remove: true });
    await env.DB.prepare("UPDATE sending_domains SET checked_at = 0 WHERE owner_id = ?").bind(a.userId).run();
    await recheckSendingDomains(env, db(), readConfig(env));
    expect((await domainRow(a.userId))?.status).toBe("removed");
    expect(await sendReminder(a.userId)).toMatch(/<reminders@dunly\.test>$/);
    const removedNotice = (await resendDelivered(a.email)).filter((m) =>
      String(m.body.text).includes("is no longer set up for sending"),
    );
    expect(removedNotice).toHaveLength(1);
    expect(await pageText(await get("/iam/domain", { cookie: a.cookie }))).toContain("Removed at Resend");
  });

  it("is removed at Resend and here: mail goes from Dunly's address again", async () => {
    const a = await signIn(uniqueEmail("domain-remove"));
    const name = uniqueDomain("gone");
    expect((await addDomain(a.cookie, name)).status).toBe(200);
    await resendSays(name, { status: "verified" });
    await formAction("/iam/domain", { intent: "domain-check" }, a.cookie);
    expect(await sendReminder(a.userId)).toContain(`<billing@${name}>`);

    const removed = await formAction("/iam/domain", { intent: "domain-remove" }, a.cookie);
    expect(removed.status).toBe(200);
    expect(removed.data.message).toContain("removed");
    expect(await domainRow(a.userId)).toBeNull();
    expect(await domainRequests(name)).toEqual(
      expect.arrayContaining([expect.objectContaining({ method: "DELETE", status: 200 })]),
    );
    expect(await sendReminder(a.userId)).toMatch(/<reminders@dunly\.test>$/);
    // Free to be added again (by anyone).
    expect((await addDomain(a.cookie, name)).status).toBe(200);
  });

  it("is the owner's own: another user sees none of it, cannot check or remove it, nor take its name", async () => {
    const a = await signIn(uniqueEmail("domain-owner"));
    const name = uniqueDomain("mine");
    expect((await addDomain(a.cookie, name)).status).toBe(200);
    const b = await signIn(uniqueEmail("domain-other"));
    expect(await pageText(await get("/iam/domain", { cookie: b.cookie }))).not.toContain(name);
    expect((await formAction("/iam/domain", { intent: "domain-check" }, b.cookie)).status).toBe(404);
    expect((await formAction("/iam/domain", { intent: "domain-remove" }, b.cookie)).status).toBe(404);
    const taken = await addDomain(b.cookie, name);
    expect(taken.status).toBe(400);
    expect(replyErrors(taken.data).domain?.[0]).toBe("This domain is already used by another Dunly account");
    expect(await domainRow(a.userId)).toMatchObject({ name });
    expect(await domainRow(b.userId)).toBeNull();
    // One per account.
    const second = await addDomain(a.cookie, uniqueDomain("second"));
    expect(second.status).toBe(409);
    expect(second.data.message).toContain(`You already send from ${name}`);
  });

  it("refuses bad input with field errors and keeps what was typed; Dunly's own domain is refused", async () => {
    const a = await signIn(uniqueEmail("domain-input"));
    const cases: [string, string, RegExp][] = [
      ["https://acme.com/", "billing", /no http/],
      ["acme", "billing", /full domain/],
      ["192.168.1.1", "billing", /not an address/],
      ["-acme.com", "billing", /hyphen/],
      ["dunly.app", "billing", /Dunly's own domain/],
      ["mail.dunly.app", "billing", /Dunly's own domain/],
      ["acme.com", "bill ing", /Use letters, digits/],
    ];
    for (const [domain, local, message] of cases) {
      const res = await addDomain(a.cookie, domain, local);
      expect(res.status, domain).toBe(400);
      const errors = replyErrors(res.data);
      expect([...(errors.domain ?? []), ...(errors.local_part ?? [])].join(" "), domain).toMatch(message);
      expect(res.data.result.initialValue).toMatchObject({ domain, local_part: local });
    }
    // The reply domain Dunly receives on is refused on the server.
    const inbound = await addDomain(a.cookie, "inbound.localhost");
    expect(inbound.status).toBe(400);
    expect(await domainRow(a.userId)).toBeNull();

    // An internationalized name is kept in its ASCII form.
    const idn = `bäckerei-${crypto.randomUUID().slice(0, 6)}.de`;
    expect((await addDomain(a.cookie, idn)).status).toBe(200);
    expect((await domainRow(a.userId))?.name).toMatch(/^xn--bckerei-.*\.de$/);
  });

  it("says clearly when Resend fails (500, a dropped connection), and loses nothing", async () => {
    const a = await signIn(uniqueEmail("domain-down"));
    const name = uniqueDomain("down");
    await programDomain(name, [{ status: 500 }]);
    const failed = await addDomain(a.cookie, name, "accounts");
    expect(failed.status).toBe(502);
    expect(failed.data.message).toMatch(
      /^Resend could not add the domain just now \(Resend 500: .*\)\. Nothing was changed\./,
    );
    expect(failed.data.result.initialValue).toMatchObject({ domain: name, local_part: "accounts" });
    expect(await domainRow(a.userId)).toBeNull();

    await programDomain(name, [{ fault: "reset" }]);
    const reset = await addDomain(a.cookie, name, "accounts");
    expect(reset.status).toBe(502);
    expect(reset.data.message).toContain("Please try again in a minute.");
    expect(await domainRow(a.userId)).toBeNull();

    expect((await addDomain(a.cookie, name, "accounts")).status).toBe(200);
    await resendSays(name, { status: "verified" });
    await formAction("/iam/domain", { intent: "domain-check" }, a.cookie);
    const before = await domainRow(a.userId);
    expect(before?.status).toBe("verified");

    // Checking while Resend answers 500 three times (the verify and its two retries): nothing changes.
    await programDomain(name, [{ status: 500 }, { status: 500 }, { status: 500 }]);
    const check = await formAction("/iam/domain", { intent: "domain-check" }, a.cookie);
    expect(check.status).toBe(502);
    expect(check.data.message).toContain("Resend could not check the domain just now");
    expect(await domainRow(a.userId)).toEqual(before);
    expect(await sendReminder(a.userId)).toContain(`<accounts@${name}>`);

    // Removing while the connection drops: still there, still sending from it.
    await programDomain(name, [{ fault: "reset" }, { fault: "reset" }, { fault: "reset" }]);
    const remove = await formAction("/iam/domain", { intent: "domain-remove" }, a.cookie);
    expect(remove.status).toBe(502);
    expect(remove.data.message).toContain("Resend could not remove the domain just now");
    expect(await domainRow(a.userId)).toEqual(before);
  });
});
