import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { debtorLink, replyAddress } from "~/links/signed-links.server";
import { handleReply } from "~/responses/replies.server";
import { formAction } from "./data-helpers";
import { fireAndSend, resendRequests } from "./engine-helpers";
import {
  db,
  debtorRow,
  eventsOf,
  makeDebtor,
  makeSchedule,
  makeSignedInUser,
  makeUser,
  scheduleRow,
  setSchedule,
} from "./fixtures";
import { DAY, get, ORIGIN, outboxFor, request, visibleText } from "./helpers";

/**
 * Replies come home (docs/decisions/020-inbound-replies.md): reminders' Reply-To is the debtor's
 * signed reply address; a reply posted to /dev/inbound (the same receiveReply as the Worker's
 * email() handler) is stored, shown, holds the reminders until the user handles it and is copied to
 * the user with Reply-To the debtor; automatic mail is recorded only; bad addresses are refused.
 */

const CONFIG = { OPT_OUT_SECRET: "test-opt-out-secret", INBOUND_DOMAIN: "inbound.localhost" };

function message(to: string, o: { from?: string; subject?: string; body?: string; headers?: string[] } = {}) {
  return [
    `From: Dan Debtor <${o.from ?? "dan@example.com"}>`,
    `To: ${to}`,
    `Subject: ${o.subject ?? "Re: Your invoice"}`,
    "Date: Tue, 24 Nov 2026 09:12:44 +0000",
    "MIME-Version: 1.0",
    ...(o.headers ?? []),
    "Content-Type: text/plain; charset=utf-8",
    "",
    o.body ?? "I paid yesterday, the transfer is on its way.",
    "",
  ].join("\r\n");
}

function postInbound(raw: string, to?: string) {
  const path = to ? `/dev/inbound?to=${encodeURIComponent(to)}` : "/dev/inbound";
  return request(path, { method: "POST", headers: { Origin: ORIGIN, "Content-Type": "message/rfc822" }, body: raw });
}

interface ReplyRow {
  id: number;
  subject: string;
  text: string;
  auto: number;
  handled_at: number | null;
  from_address: string;
}

async function repliesOf(debtorId: number) {
  const sql = "SELECT * FROM debtor_replies WHERE debtor_id = ? ORDER BY id";
  return (await env.DB.prepare(sql).bind(debtorId).all<ReplyRow>()).results;
}

/** `timeZone`: the debtor's, when the test fires at a fixed instant instead of the real time. */
async function setup({ timeZone }: { timeZone?: string } = {}) {
  const user = await makeUser("Sally Sender");
  const debtor = await makeDebtor(user.id, { fullName: "Ana Ruiz", ...(timeZone ? { timeZone } : {}) });
  const row = (await debtorRow(debtor.id))!;
  const address = (await replyAddress(db(), CONFIG, { id: debtor.id, ownerId: user.id, optOutKey: row.opt_out_key }))!;
  return { user, debtor, address };
}

describe("reply addresses", () => {
  it("a reminder's Reply-To is the debtor's reply address; a reply between two firings holds the second until Resume", async () => {
    // Fired at a fixed instant: the debtor's zone is daytime then, whatever the hour the suite runs.
    const at = Date.UTC(2026, 10, 23, 10, 0);
    const { user, debtor } = await setup({ timeZone: "UTC" });
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    await setSchedule(id, { next_run_at: at });
    expect(await fireAndSend(id, at)).toMatchObject({ kind: "done", status: "sent" });
    const [sent] = await resendRequests(debtor.email);
    const replyTo = String(sent?.body.reply_to);
    expect(replyTo).toMatch(/^r-[0-9a-f]{32}-[0-9a-f]{26}@inbound\.localhost$/);

    // The debtor answers; mail systems may change the case of the address.
    const res = await postInbound(message(replyTo.toUpperCase(), { subject: "Re: can we split it?" }));
    expect(res.status).toBe(202);
    const [reply] = await repliesOf(debtor.id);
    expect(reply).toMatchObject({ subject: "Re: can we split it?", auto: 0, handled_at: null });
    expect(reply?.text).toContain("I paid yesterday");
    expect(await scheduleRow(id)).toMatchObject({ state: "DISABLED", stopped_reason: "replied", next_run_at: null });
    expect((await eventsOf(debtor.id)).map((e) => e.type)).toContain("replied");

    // The copy: to the user, Reply-To the debtor, the reply quoted, once.
    const copies = (await outboxFor(user.email)).filter((m) => m.subject.startsWith("Ana Ruiz replied"));
    expect(copies).toHaveLength(1);
    expect(copies[0]).toMatchObject({ replyTo: debtor.email, subject: "Ana Ruiz replied: Re: can we split it?" });
    expect(copies[0]?.idempotencyKey).toBe(`reply:${reply?.id}`);
    expect(copies[0]?.text).toContain("I paid yesterday");

    // The second firing sends nothing while the reply is unhandled.
    await fireAndSend(id, at + DAY);
    expect(await resendRequests(debtor.email)).toHaveLength(1);

    // Another user cannot handle it; the owner resumes.
    const other = await makeUser();
    const scope = (ownerId: string) => ({ env, db: db(), ownerId, now: Date.now() });
    expect(await handleReply(scope(other.id), reply!.id, "resume")).toEqual({ error: "not-found" });
    const handled = await handleReply(scope(user.id), reply!.id, "resume");
    expect(handled).toMatchObject({ debtorId: debtor.id });
    expect(await scheduleRow(id)).toMatchObject({ state: "ENABLED", stopped_reason: null });
    expect((await repliesOf(debtor.id))[0]?.handled_at).toEqual(expect.any(Number));
    expect(await handleReply(scope(user.id), reply!.id, "resume")).toEqual({ error: "handled" });
  });

  it("an out-of-office reply is recorded on the timeline only: no hold, no copy", async () => {
    const { user, debtor, address } = await setup();
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    const res = await postInbound(
      message(address, { subject: "Automatic reply: Your invoice", headers: ["Auto-Submitted: auto-replied"] }),
    );
    expect(res.status).toBe(202);
    expect(await repliesOf(debtor.id)).toMatchObject([{ auto: 1 }]);
    expect((await scheduleRow(id))?.state).toBe("ENABLED");
    expect((await eventsOf(debtor.id)).map((e) => e.type)).toContain("auto_replied");
    expect((await outboxFor(user.email)).filter((m) => m.subject.includes("replied"))).toHaveLength(0);
  });

  it("a delivery-status report counts as a bounce", async () => {
    const { user, debtor, address } = await setup();
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    const raw = [
      "From: Mail Delivery Subsystem <mailer-daemon@example.com>",
      `To: ${address}`,
      "Subject: Delivery Status Notification (Failure)",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "Address not found.",
      "--b",
      "Content-Type: message/delivery-status",
      "",
      "Final-Recipient: rfc822; dan@example.com",
      "Action: failed",
      "Status: 5.1.1",
      "--b--",
      "",
    ].join("\r\n");
    expect((await postInbound(raw)).status).toBe(202);
    expect((await debtorRow(debtor.id))?.status).toBe("bouncing");
    expect(await scheduleRow(id)).toMatchObject({ state: "DISABLED", stopped_reason: "bounced" });
    expect(await repliesOf(debtor.id)).toHaveLength(0);
  });
});

describe("the user handles a reply", () => {
  async function signedIn() {
    const user = await makeSignedInUser("Sally Sender");
    const debtor = await makeDebtor(user.id, { fullName: "Ana Ruiz", currency: "EUR", debtCents: 5000 });
    const row = (await debtorRow(debtor.id))!;
    const address = (await replyAddress(db(), CONFIG, {
      id: debtor.id,
      ownerId: user.id,
      optOutKey: row.opt_out_key,
    }))!;
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone: "UTC" });
    expect((await postInbound(message(address, { subject: "Re: wrong address", body: "<b>Not me</b>" }))).status).toBe(
      202,
    );
    return { user, debtor, id, cookie: `dunly_session=${user.token}` };
  }

  it("the dashboard and the timeline show it, held; Resume from the dashboard re-arms; another user's answers 404", async () => {
    const { debtor, id, cookie } = await signedIn();
    const page = await get(`/dashboard?debtor=${debtor.id}`, { cookie });
    expect(page.status).toBe(200);
    const dashboard = await visibleText(page);
    expect(dashboard).toContain("Ana Ruiz replied: Re: wrong address");
    const markup = await (await get(`/debtors/${debtor.id}`, { cookie })).text();
    expect(markup).toContain("Replied</strong>: Re: wrong address");
    expect(markup).toContain("&lt;b&gt;Not me&lt;/b&gt;"); // shown as text, never rendered
    expect(markup).toContain("reminders held");
    const [reply] = await repliesOf(debtor.id);

    const other = await makeSignedInUser();
    const refused = await formAction(
      "/dashboard",
      { intent: "reply-resume", reply_id: String(reply!.id) },
      `dunly_session=${other.token}`,
    );
    expect(refused.status).toBe(404);
    expect((await scheduleRow(id))?.stopped_reason).toBe("replied");

    const res = await formAction("/dashboard", { intent: "reply-resume", reply_id: String(reply!.id) }, cookie);
    expect(res.status).toBe(200);
    expect(res.data.message).toBe("Reply handled. Reminders resumed: 1 schedule runs again.");
    expect(await scheduleRow(id)).toMatchObject({ state: "ENABLED", stopped_reason: null });
    expect(await visibleText(await get(`/dashboard?debtor=${debtor.id}`, { cookie }))).not.toContain(
      "Ana Ruiz replied",
    );
    expect((await eventsOf(debtor.id)).map((e) => e.type)).toContain("reply_handled");
  });

  it("Mark handled resumes too; recording a payment handles the reply", async () => {
    const first = await signedIn();
    const [reply] = await repliesOf(first.debtor.id);
    const res = await formAction("/dashboard", { intent: "reply-handled", reply_id: String(reply!.id) }, first.cookie);
    expect(res.status).toBe(200);
    expect((await scheduleRow(first.id))?.state).toBe("ENABLED");

    const second = await signedIn();
    const paid = await formAction(
      `/debtors/${second.debtor.id}`,
      { intent: "payment-add", debtor_id: String(second.debtor.id), amount: "10", paid_on: "2026-01-02", note: "" },
      second.cookie,
    );
    expect(paid.status).toBe(200);
    expect((await repliesOf(second.debtor.id))[0]?.handled_at).toEqual(expect.any(Number));
    expect(await scheduleRow(second.id)).toMatchObject({ state: "ENABLED", stopped_reason: null });
  });
});

describe("abuse and bad input", () => {
  it("a forged, altered, other-purpose or unknown token is refused before anything is stored", async () => {
    const { user, debtor, address } = await setup();
    const row = (await debtorRow(debtor.id))!;
    const key = row.opt_out_key!;
    const sig = address.split("@")[0]!.split("-")[2]!;
    const flipped = `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`;
    const portal = await debtorLink(
      db(),
      { ...CONFIG, APP_ENV: "test", APP_ORIGIN: undefined } as never,
      "portal",
      "/p/",
      {
        id: debtor.id,
        ownerId: user.id,
        optOutKey: key,
      },
    );
    const portalToken = portal.split("/p/")[1]!;
    for (const to of [
      `r-${key}-${flipped}@inbound.localhost`, // altered signature
      `r-${key}-${"0".repeat(26)}@inbound.localhost`, // forged
      `r-${"a".repeat(32)}-${sig}@inbound.localhost`, // another key
      `${portalToken}@inbound.localhost`, // another purpose's token
      `r-${key}-${sig}@elsewhere.example`, // another domain
      "sally@inbound.localhost",
    ]) {
      const res = await postInbound(message(to), to);
      expect(res.status, to).toBe(422);
    }
    expect(await repliesOf(debtor.id)).toHaveLength(0);
    expect((await eventsOf(debtor.id)).map((e) => e.type)).not.toContain("replied");
  });

  it("a reply for a deleted debtor is refused", async () => {
    const { debtor, address } = await setup();
    await env.DB.prepare("DELETE FROM debtors WHERE id = ?").bind(debtor.id).run();
    const res = await postInbound(message(address));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ ok: false, reason: "unknown-recipient" });
    expect(await repliesOf(debtor.id)).toHaveLength(0);
  });

  it("a message over the size cap is refused", async () => {
    const { debtor, address } = await setup();
    const res = await postInbound(message(address, { body: "x".repeat(1024 * 1024 + 10) }));
    expect(res.status).toBe(413);
    expect(await repliesOf(debtor.id)).toHaveLength(0);
  });

  it("at most 20 replies per debtor per day are stored; the 21st is rejected", async () => {
    const { debtor, address } = await setup();
    for (let i = 0; i < 20; i++) {
      expect((await postInbound(message(address, { subject: `Re: ${i}`, headers: ["X-Autoreply: yes"] }))).status).toBe(
        202,
      );
    }
    const res = await postInbound(message(address, { subject: "Re: 21" }));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ reason: "over-daily-cap" });
    expect(await repliesOf(debtor.id)).toHaveLength(20);
  });

  it("an HTML-only reply is stored as text, never as HTML", async () => {
    const { debtor, address } = await setup();
    const raw = message(address, {
      body: '<p>I will pay <b>Friday</b></p><script>alert(1)</script><img src="x" onerror="alert(2)">',
    }).replace("Content-Type: text/plain; charset=utf-8", "Content-Type: text/html; charset=utf-8");
    expect((await postInbound(raw)).status).toBe(202);
    const [reply] = await repliesOf(debtor.id);
    expect(reply?.text).toBe("I will pay Friday");
  });
});
