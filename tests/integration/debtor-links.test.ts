import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { updateDebtor } from "~/debtors/debtors.server";
import { paidClaimLink, portalLink } from "~/links/debtor-pages.server";
import { optOutLink, replyAddress, verifyReplyAddress } from "~/links/signed-links.server";
import { readConfig } from "~/platform/config.server";
import { db, debtorRow, makeDebtor, makeUser, optOutRows } from "./fixtures";
import { ORIGIN, postForm, request, uniqueEmail, uniqueIp, visibleText } from "./helpers";

/**
 * The debtor's signed links follow the address they were sent to: after the debtor's address changes, a link sent to the old one answers like an unknown
 * link and never shows or acts on the new address; the RFC 8058 one-click opt-out works whatever
 * Origin the mail provider sends.
 */

const config = () => readConfig(env);
const INVALID_TEXT = "This link is no longer valid.";

function oneClick(path: string, origin?: string) {
  return request(path, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "CF-Connecting-IP": uniqueIp(),
      ...(origin === undefined ? {} : { Origin: origin }),
    },
    body: "List-Unsubscribe=One-Click",
  });
}

async function linksOf(ownerId: string, debtorId: number) {
  const row = (await debtorRow(debtorId))!;
  const debtor = { id: debtorId, ownerId, optOutKey: row.opt_out_key };
  return {
    optOut: new URL(await optOutLink(db(), config(), debtor)).pathname,
    paid: new URL(await paidClaimLink(db(), config(), debtor)).pathname,
    portal: new URL(await portalLink(db(), config(), debtor)).pathname,
    reply: (await replyAddress(db(), config(), debtor))!,
  };
}

async function edit(ownerId: string, debtorId: number, email: string) {
  const updated = await updateDebtor({ env, db: db() }, ownerId, debtorId, {
    kind: "person",
    full_name: "Dan Debtor",
    email,
    debt: 1234.5,
    active_strategy: 1,
    time_zone: undefined,
    invoice_number: undefined,
    currency: undefined,
    due_on: undefined,
  } as Parameters<typeof updateDebtor>[3]);
  expect(updated).toBeDefined();
}

describe("a debtor's links after their address changes", () => {
  it("old opt-out, I've paid, portal and reply links answer like unknown links and never name or act on the new address", async () => {
    const user = await makeUser("Sally Sender");
    const oldEmail = uniqueEmail("old-debtor");
    const debtor = await makeDebtor(user.id, { email: oldEmail });
    const old = await linksOf(user.id, debtor.id);
    // Valid before the change.
    expect((await request(old.optOut)).status).toBe(200);
    expect((await request(old.portal)).status).toBe(200);
    expect(await verifyReplyAddress(db(), config(), old.reply)).not.toBeNull();

    const newEmail = uniqueEmail("new-debtor");
    await edit(user.id, debtor.id, newEmail);

    for (const path of [old.optOut, old.paid, old.portal]) {
      const res = await request(path);
      expect(res.status, path).toBe(404);
      const text = await visibleText(res);
      expect(text).toContain(INVALID_TEXT);
      expect(text).not.toContain(newEmail.split("@")[0]!.slice(0, 6));
    }
    // Acting on it: nothing is opted out.
    expect((await oneClick(old.optOut)).status).toBe(404);
    expect((await oneClick(old.optOut, "https://mail.example")).status).toBe(404);
    // The "I've paid" and the debtor's page's forms (same-origin POSTs, as their buttons send them).
    const paid = await postForm(old.paid, {});
    expect(paid.status).toBe(404);
    const promise = await postForm(old.portal, { intent: "portal-promise", promised_on: "2099-01-01" });
    expect(promise.status).toBe(404);
    expect(await optOutRows(user.id)).toEqual([]);
    const row = await debtorRow(debtor.id);
    expect({ status: row?.status, claimed: row?.paid_claimed_at, promised: row?.promised_on }).toEqual({
      status: "active",
      claimed: null,
      promised: null,
    });
    // The old reply address is no one's any more.
    expect(await verifyReplyAddress(db(), config(), old.reply)).toBeNull();

    // The links made now (for the new address) work.
    const current = await linksOf(user.id, debtor.id);
    expect(current.optOut).not.toBe(old.optOut);
    expect((await request(current.portal)).status).toBe(200);
    expect((await verifyReplyAddress(db(), config(), current.reply))?.email).toBe(newEmail.toLowerCase());
  });

  it("an edit that keeps the address (in any case) keeps the links", async () => {
    const user = await makeUser();
    const email = uniqueEmail("same-debtor");
    const debtor = await makeDebtor(user.id, { email });
    const before = await linksOf(user.id, debtor.id);
    await edit(user.id, debtor.id, email.toUpperCase());
    expect(await linksOf(user.id, debtor.id)).toEqual(before);
    expect((await request(before.optOut)).status).toBe(200);
  });
});

describe("the one-click opt-out POST with an Origin of its own", () => {
  for (const origin of ["https://mail.google.com", "null", "https://evil.example", ORIGIN]) {
    it(`opts out with Origin: ${origin}`, async () => {
      const user = await makeUser("Sally Sender");
      const debtor = await makeDebtor(user.id);
      const { optOut } = await linksOf(user.id, debtor.id);
      const res = await oneClick(optOut, origin);
      expect(res.status).toBe(200);
      expect(res.headers.get("Set-Cookie")).toBeNull();
      expect(await visibleText(res)).toContain("You will not get any more reminders from Sally Sender");
      expect((await optOutRows(user.id)).map((r) => r.email)).toEqual([debtor.email.toLowerCase()]);
    });
  }

  it("only that POST: other actions with a foreign Origin are still refused", async () => {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id);
    const { paid, portal } = await linksOf(user.id, debtor.id);
    for (const path of [paid, portal, "/iam/info", "/u"]) {
      const res = await oneClick(path, "https://evil.example");
      expect(res.status, path).toBe(403);
    }
    expect((await debtorRow(debtor.id))?.paid_claimed_at).toBeNull();
  });
});
