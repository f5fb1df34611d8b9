import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { EMAIL_MAX_ATTEMPTS, retryRecordedEmails, sendRecorded } from "~/mail/index.server";
import { programResend, resendDelivered, resendRequests } from "./engine-helpers";
import { db, makeSignedInUser, makeUser } from "./fixtures";
import { get, SESSION_COOKIE, uniqueEmail, visibleText } from "./helpers";
import { connectSetup, pay, postStripeEvent, session, stripeEvent } from "./stripe-helpers";

/**
 * Every e-mail other than a reminder or a notice is recorded before it is sent (issue 39): one that
 * could not be sent waits with its error and is sent by the watchdog under the same key, a bounded
 * number of times; one the provider refuses is 'failed' at once; a replayed event sends nothing
 * more; nothing of an account being deleted is retried; the user sees each in Settings → E-mails,
 * and no one else does.
 */

const MINUTE = 60_000;

const emailRows = (ownerId: string) =>
  env.DB.prepare("SELECT kind, status, error, attempts, idem_key FROM emails WHERE owner_id = ? ORDER BY id")
    .bind(ownerId)
    .all<{ kind: string; status: string; error: string | null; attempts: number; idem_key: string }>()
    .then((r) => r.results);

const emailsTab = async (token: string, query = "") =>
  visibleText(await get(`/iam/emails${query}`, { cookie: `${SESSION_COOKIE}=${token}` }));

const notice = (to: string) =>
  ({
    kind: "account-notice",
    message: { to, kind: "payment_failed", date: "Dec 2, 2026", actionUrl: "http://localhost/iam/subscription" },
  }) as const;

describe("recorded e-mails", () => {
  it("a receipt the provider could not take waits with its error, shows as not sent yet, and goes out once on the watchdog's retry; a replayed event sends nothing more", async () => {
    const { user, account, debtor, portal } = await connectSetup();
    const other = await makeSignedInUser("Olly Other");
    const sessionId = await pay(portal);
    // Three 500s: the mail Worker's own three tries of the first attempt all fail.
    await programResend(debtor.email, [500, 500, 500]);
    const completed = stripeEvent(
      "checkout.session.completed",
      session(sessionId, {
        payment_status: "paid",
        payment_intent: `pi_rec_${sessionId.slice(-8)}`,
        amount_total: 4200,
      }),
      { account },
    );
    expect((await postStripeEvent("connect", completed)).status).toBe(200);

    const [waiting] = await emailRows(user.id);
    expect(waiting).toMatchObject({ kind: "receipt", status: "pending", attempts: 1 });
    expect(waiting?.error).toMatch(/500/);
    expect(await resendDelivered(debtor.email)).toEqual([]);
    const before = await emailsTab(user.token);
    expect(before).toContain("Receipt: €42.00 paid to Sally Sender");
    expect(before).toContain("Not sent yet");
    expect(before).toContain(`Attempt 1 of ${EMAIL_MAX_ATTEMPTS} failed`);
    expect(before).toContain(`To ${debtor.email.toLowerCase()}`);

    // Not due yet: nothing is tried. Due: sent, under the receipt's key.
    expect(await retryRecordedEmails(env, db(), Date.now())).toMatchObject({ sent: 0 });
    const counts = await retryRecordedEmails(env, db(), Date.now() + 6 * MINUTE);
    expect(counts.sent).toBeGreaterThanOrEqual(1);
    expect(await emailRows(user.id)).toMatchObject([{ status: "sent", error: null, attempts: 2 }]);
    const delivered = await resendDelivered(debtor.email);
    expect(delivered.map((d) => d.idempotencyKey)).toEqual([waiting?.idem_key]);
    expect(await emailsTab(user.token)).toContain("Sent");

    // Stripe delivers the event again: the receipt is not sent again.
    const again = stripeEvent("checkout.session.completed", completed.data.object, { account });
    expect((await postStripeEvent("connect", again)).status).toBe(200);
    expect(await resendDelivered(debtor.email)).toHaveLength(1);
    expect(await emailRows(user.id)).toHaveLength(1);

    // Another user's Settings → E-mails shows none of it.
    const theirs = await emailsTab(other.token);
    expect(theirs).toContain("No e-mails yet.");
    expect(theirs).not.toContain("Receipt:");
  });

  it("one the provider refuses is 'failed' with its reason and never tried again; the last allowed attempt gives up with the error", async () => {
    const user = await makeUser("Rita Refused");
    const refused = uniqueEmail("refused");
    await programResend(refused, [
      { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } },
    ]);
    expect(
      await sendRecorded(env, db(), { ownerId: user.id, key: `payment_failed:${user.id}`, email: notice(refused) }),
    ).toBe("failed");
    const flaky = uniqueEmail("flaky");
    await programResend(flaky, [500, 500, 500]);
    expect(
      await sendRecorded(env, db(), { ownerId: user.id, key: `trial_ended:${user.id}`, email: notice(flaky) }),
    ).toBe("pending");
    // As if every earlier attempt had failed too: the next failure is the last.
    await env.DB.prepare("UPDATE emails SET attempts = ? WHERE idem_key = ?")
      .bind(EMAIL_MAX_ATTEMPTS - 1, `trial_ended:${user.id}`)
      .run();
    await programResend(flaky, [500, 500, 500]);
    await retryRecordedEmails(env, db(), Date.now() + 10 * 60 * MINUTE);

    const rows = await emailRows(user.id);
    expect(rows[0]).toMatchObject({ status: "failed", attempts: 1 });
    expect(rows[0]?.error).toMatch(/422|Invalid/);
    expect(rows[1]).toMatchObject({ status: "failed", attempts: EMAIL_MAX_ATTEMPTS });
    expect(rows[1]?.error).toMatch(new RegExp(`^Gave up after ${EMAIL_MAX_ATTEMPTS} attempts: .*500`));
    // Failed ones are not tried again, however late the watchdog runs.
    const requests = (await resendRequests(refused)).length + (await resendRequests(flaky)).length;
    await retryRecordedEmails(env, db(), Date.now() + 48 * 60 * MINUTE);
    expect((await resendRequests(refused)).length + (await resendRequests(flaky)).length).toBe(requests);
  });

  it("nothing of an account being deleted is retried", async () => {
    const user = await makeUser("Dora Deleting");
    const to = uniqueEmail("deleting");
    await programResend(to, [500, 500, 500]);
    await sendRecorded(env, db(), { ownerId: user.id, key: `trial_ending:${user.id}`, email: notice(to) });
    await env.DB.prepare("UPDATE users SET deleting_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    await retryRecordedEmails(env, db(), Date.now() + 60 * MINUTE);
    expect(await emailRows(user.id)).toMatchObject([{ status: "pending", attempts: 1 }]);
    expect(await resendDelivered(to)).toEqual([]);
  });

  it("Settings → E-mails lists 25 a page, newest first, and a page past the end leads to the last", async () => {
    const user = await makeSignedInUser("Paula Pages");
    const now = Date.now();
    await env.DB.prepare(
      `INSERT INTO emails (owner_id, kind, recipient, idem_key, payload, status, attempts, created_at, sent_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30)
       SELECT ?1, 'password-changed', 'paula@example.com', ?1 || ':pw:' || i,
              '{"kind":"password-changed","message":{"to":"paula@example.com","changedAt":"x","signedOut":0,"signInUrl":"/"}}',
              'sent', 1, ?2 + i, ?2 + i FROM n`,
    )
      .bind(user.id, now)
      .run();
    const first = await emailsTab(user.token);
    expect(first.match(/Your Dunly password was changed/g)).toHaveLength(25);
    expect(first).toContain("Page 1 of 2");
    // A page past the end leads to the last one.
    const past = await get("/iam/emails?page=999999", { cookie: `${SESSION_COOKIE}=${user.token}` });
    expect(past.status).toBe(302);
    expect(past.headers.get("Location")).toBe("/iam/emails?page=2");
    const last = await emailsTab(user.token, "?page=2");
    expect(last.match(/Your Dunly password was changed/g)).toHaveLength(5);
    expect(last).toContain("Page 2 of 2");
  });
});
