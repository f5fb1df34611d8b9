import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { formAction } from "./data-helpers";
import { resendDelivered } from "./engine-helpers";
import { deliveriesOfOwner, insertDelivery, makeDebtor, makeOrg } from "./fixtures";
import { get, location, pageText, postForm, type SignedIn, signIn, uniqueEmail } from "./helpers";
import { oneOpenInvoice } from "./invoice-helpers";

/**
 * The preview shows a chosen debtor's real values, and "Send me a test" e-mails
 * the previewed template to the user's own address, counted toward the daily quota. A debtor's
 * values are their statement: each debtor here gets one open invoice
 * (oneOpenInvoice); tests/integration/statement.test.ts has several.
 */

const CHOOSE_DEBTOR = "Choose a debtor to send a test for.";

/** The test e-mails the provider delivered to `to` (the sign-in e-mail is there too). */
async function testMails(to: string) {
  return (await resendDelivered(to)).filter((m) => m.idempotencyKey?.startsWith("test:"));
}

function testSend(user: SignedIn, fields: Record<string, string>) {
  return formAction(
    "/schedule",
    { intent: "schedule-test-send", template: "initial", tone: "2", ...fields },
    user.cookie,
  );
}

describe("/schedule/preview with a chosen debtor", () => {
  let a: SignedIn;
  let b: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("tsprev-a"));
    b = await signIn(uniqueEmail("tsprev-b"));
  });

  it("renders the debtor's name, their open invoice's balance, currency and due date, and the sender", async () => {
    const debtor = await makeDebtor(a.userId, {
      fullName: "Petra Preview",
      debtCents: 250_000,
      paidCents: 50_000,
      currency: "EUR",
    });
    await oneOpenInvoice(debtor, "2031-03-05", "PP-1");
    const html = await pageText(
      await get(`/schedule/preview?template=initial&tone=1&debtor_id=${debtor.id}`, {
        cookie: a.cookie,
      }),
    );
    expect(html).toContain("Petra Preview");
    expect(html).toContain("€2,000.00");
    expect(html).toContain("Mar 5, 2031");
    expect(html).toContain("PP-1");
    expect(html).not.toContain("John Doe");
    expect(html).toContain(a.email);
  });

  it("shows the organization as the sender when one of the user's is chosen", async () => {
    const debtor = await makeDebtor(a.userId, { fullName: "Olga Org" });
    await oneOpenInvoice(debtor, "2031-03-05");
    const org = await makeOrg(a.userId, "Preview Holdings", "1 Preview Road");
    const html = await pageText(
      await get(`/schedule/preview?template=single&tone=2&debtor_id=${debtor.id}&organization_id=${org}`, {
        cookie: a.cookie,
      }),
    );
    expect(html).toContain("Olga Org");
    expect(html).toContain("Preview Holdings");
  });

  it("another user's debtor is never shown: the sample is", async () => {
    const theirs = await makeDebtor(b.userId, { fullName: "Secret Sam", debtCents: 777_700 });
    const theirOrg = await makeOrg(b.userId, "Hidden Corp", "9 Hidden Way");
    const res = await get(
      `/schedule/preview?template=initial&tone=1&debtor_id=${theirs.id}&organization_id=${theirOrg}`,
      { cookie: a.cookie },
    );
    expect(res.status).toBe(200);
    const html = await pageText(res);
    expect(html).toContain("John Doe");
    expect(html).not.toContain("Secret Sam");
    expect(html).not.toContain("Hidden Corp");
    expect(html).not.toContain("7,777.00");
  });

  it("malformed debtor, organization and date values fall back to the sample, never a 500", async () => {
    for (const q of ["debtor_id=abc", "debtor_id=-1", "debtor_id=1e99", "organization_id=x&due_date=2031-02-31"]) {
      const res = await get(`/schedule/preview?template=initial&tone=1&${q}`, { cookie: a.cookie });
      expect(res.status, q).toBe(200);
      expect(await pageText(res), q).toContain("John Doe");
    }
  });
});

describe("Send me a test (schedule-test-send)", () => {
  let a: SignedIn;
  let b: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("tsend-a"));
    b = await signIn(uniqueEmail("tsend-b"));
  });

  it("sends the previewed template with the debtor's values to the user's own address and records it", async () => {
    const debtor = await makeDebtor(a.userId, { fullName: "Tina Testcase", debtCents: 42_000 });
    await oneOpenInvoice(debtor, "2031-01-15");
    const { status, data } = await testSend(a, { debtor_id: String(debtor.id) });
    expect(status, JSON.stringify(data)).toBe(200);
    expect(data).toMatchObject({ intent: "schedule-test-send", ok: true, message: `Test e-mail sent to ${a.email}.` });

    const mails = await testMails(a.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(String(mail.body.html)).toContain("Tina Testcase");
    expect(String(mail.body.html)).toContain("$420.00");
    expect(String(mail.body.html)).toContain("Jan 15, 2031");
    // Nothing went to the debtor.
    expect(await testMails(debtor.email)).toHaveLength(0);
    // The opt-out link is a test link: a click in the user's inbox cannot opt the debtor out.
    const headers = (mail.body.headers ?? {}) as Record<string, string>;
    expect(headers["List-Unsubscribe"]).toMatch(/\/u\/test-send>$/);

    const rows = await deliveriesOfOwner(a.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      schedule_id: null,
      debtor_id: debtor.id,
      template: "initial",
      tone: 2,
      status: "sent",
      recipient: a.email,
    });
    expect(rows[0]!.occurrence_key).toMatch(new RegExp(`^test:${a.userId}:\\d+:`));
    expect(mail.idempotencyKey).toBe(rows[0]!.occurrence_key);
    expect(String(mail.body.subject)).toMatch(/^\[Test\] /);

    // Shown as a test to the user, never as a reminder to the debtor: the report, its CSV, the timeline.
    const strip = (html: string) => html.replace(/<[^>]+>/g, "");
    const report = strip(await pageText(await get("/report", { cookie: a.cookie })));
    expect(report).toContain(`Test to you (${a.email})`);
    expect(report).toContain("Test: Initial Email");
    const csv = await (await get("/report.csv", { cookie: a.cookie })).text();
    expect(csv).toContain(`Test to you (${a.email}),Test: Initial Email`);
    expect(csv).not.toContain("Tina Testcase");
    const timeline = strip(await pageText(await get(`/debtors/${debtor.id}`, { cookie: a.cookie })));
    expect(timeline).toContain("Test e-mail sent to you · Initial Email");
    expect(timeline).not.toContain("Reminder sent");

    // It went to the user, not the debtor: 'Re-send reminders' to the debtor is not in a cooldown.
    const resend = await formAction(
      "/schedules/actions",
      { intent: "debtor-resend", ids: String(debtor.id) },
      a.cookie,
    );
    expect(resend.status, JSON.stringify(resend.data)).toBe(200);
  });

  it("refuses without a debtor, and for another user's debtor (nothing sent, nothing recorded)", async () => {
    const before = (await deliveriesOfOwner(b.userId)).length;
    const none = await testSend(b, {});
    expect(none.status).toBe(400);
    expect(none.data).toMatchObject({ ok: false, message: CHOOSE_DEBTOR });
    const blank = await testSend(b, { debtor_id: "" });
    expect(blank.status).toBe(400);

    const theirs = await makeDebtor(a.userId, { fullName: "Not Bs" });
    const other = await testSend(b, { debtor_id: String(theirs.id) });
    expect(other.status).toBe(404);
    expect(other.data).toMatchObject({ ok: false, message: CHOOSE_DEBTOR });
    expect(await deliveriesOfOwner(b.userId)).toHaveLength(before);
    expect(await testMails(b.email)).toHaveLength(0);
  });

  it("an unknown template is a 400, never a 500", async () => {
    const debtor = await makeDebtor(b.userId);
    for (const template of ["", "nope", "<script>"]) {
      const res = await testSend(b, { debtor_id: String(debtor.id), template });
      expect(res.status, template).toBe(400);
    }
  });

  it("counts toward the daily quota and is refused once it is used up", async () => {
    const c = await signIn(uniqueEmail("tsend-quota"));
    // Subscribed to Soft (during the trial the account is on Medium: docs/decisions/019).
    await env.DB.prepare("UPDATE users SET plan = 'soft', subscription_status = 'active' WHERE id = ?")
      .bind(c.userId)
      .run();
    const debtor = await makeDebtor(c.userId);
    await oneOpenInvoice(debtor, "2031-01-15");
    for (let i = 0; i < 9; i++) await insertDelivery(c.userId, debtor.id, "sent");
    // The tenth of the soft plan's 10 goes.
    const tenth = await testSend(c, { debtor_id: String(debtor.id) });
    expect(tenth.status, JSON.stringify(tenth.data)).toBe(200);
    // The eleventh is refused with the limits' message and leaves no row.
    const eleventh = await testSend(c, { debtor_id: String(debtor.id) });
    expect(eleventh.status).toBe(429);
    expect(eleventh.data.message).toMatch(
      /^Daily limit of 10 reminders reached for this account\. The next one can be sent after /,
    );
    const rows = await deliveriesOfOwner(c.userId);
    expect(rows).toHaveLength(10);
    expect(rows.filter((r) => r.occurrence_key.startsWith("test:"))).toHaveLength(1);
    expect(await testMails(c.email)).toHaveLength(1);
  });

  it("a visitor cannot send a test", async () => {
    const res = await postForm("/schedule", { intent: "schedule-test-send", template: "initial", debtor_id: "1" });
    expect(res.status).toBe(302);
    expect(location(res)?.pathname).toBe("/404");
  });
});
