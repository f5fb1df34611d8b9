import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { todayIn } from "~/domain/statement";
import { STOPPED_MESSAGES } from "~/reminders/engine.server";
import { formAction } from "./data-helpers";
import { alarmAt, fireAndSend, fireAt, MINUTE, resendDelivered } from "./engine-helpers";
import {
  deliveriesOf,
  deliveriesOfOwner,
  makeDebtor,
  makeSchedule,
  makeUser,
  scheduleRow,
  setSchedule,
} from "./fixtures";
import { get, outboxFor, pageText, type SignedIn, signIn, uniqueEmail } from "./helpers";
import { addDays, setInvoices } from "./invoice-helpers";

/**
 * One reminder is a statement: the engine sends a debtor one e-mail per
 * occurrence listing every open invoice (never a disputed, paid or void one) with the totals per
 * currency, the preview and the test send show the same, and a debtor with no open invoice left
 * gets no reminder at all.
 */

/** app/actions/test-send-action.server.ts NO_OPEN_INVOICE (a route module: not imported here). */
const NO_OPEN_INVOICE =
  "No reminder would be sent: this debtor has no open invoice (disputed invoices are left out of reminders).";

/** "Mar 5, 2027", as the reminder writes a due date. */
const longDate = (date: string) =>
  new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A row of the text part's statement table, its cells in columns. */
const textRow = (...cells: string[]) => new RegExp(cells.map(escapeRegExp).join(" +"));

/** The same reminder whoever's links it carries: every href and every <url> in the text alike. */
const withoutLinks = (s: string) => s.replace(/href="[^"]*"/g, 'href=""').replace(/<https?:\/\/[^>\s]+>/g, "<link>");

/** Whole seconds, a minute ago: an occurrence that is due. */
const dueNow = () => Math.floor((Date.now() - MINUTE) / 1000) * 1000;

async function testSend(user: SignedIn, debtorId: number) {
  return formAction(
    "/schedule",
    { intent: "schedule-test-send", template: "single", tone: "1", debtor_id: String(debtorId) },
    user.cookie,
  );
}

describe("a reminder is the debtor's statement", () => {
  it("one e-mail lists every open invoice with its balance and days overdue and a total per currency, never a disputed, paid or void one; the preview and the test send show the same", async () => {
    const a = await signIn(uniqueEmail("statement"));
    const debtor = await makeDebtor(a.userId, { fullName: "Stella Statement", currency: "USD" });
    const today = todayIn(debtor.timeZone, Date.now());
    await setInvoices(debtor, [
      { number: "ST-OPEN-2", amountCents: 30_000, dueOn: addDays(today, 14) },
      { number: "ST-OPEN-1", amountCents: 50_000, paidCents: 10_000, dueOn: addDays(today, -30) },
      { number: null, amountCents: 12_345, dueOn: today },
      { number: "ST-EUR-1", amountCents: 5_000, currency: "EUR", dueOn: addDays(today, -1) },
      { number: "ST-DISPUTED", amountCents: 70_000, dueOn: addDays(today, -60), status: "disputed" },
      { number: "ST-PAID", amountCents: 20_000, paidCents: 20_000, dueOn: addDays(today, -90), status: "paid" },
      { number: "ST-VOID", amountCents: 99_900, dueOn: addDays(today, -10), status: "void" },
    ]);
    // A single reminder (template 'single'), Polite (the debtor's strategy 1), daily.
    const id = await makeSchedule(a.userId, debtor.id);
    const due = dueNow();
    await fireAt(id, due);

    // Exactly one e-mail for the occurrence, however many invoices.
    const mails = await outboxFor(debtor.email);
    expect(mails).toHaveLength(1);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["sent"]);
    const mail = mails[0]!;
    expect(mail.subject).toBe("Reminder: 4 invoices, open balance of $823.45 + €50.00");
    expect(mail.text).toContain("$823.45 + €50.00 for the 4 invoices listed below");
    // Oldest due first, each with its balance and how overdue it is.
    const rows = [
      textRow("ST-OPEN-1", longDate(addDays(today, -30)), "$400.00", "30 days overdue"),
      textRow("ST-EUR-1", longDate(addDays(today, -1)), "€50.00", "1 day overdue"),
      textRow(`Invoice due ${longDate(today)}`, longDate(today), "$123.45", "due today"),
      textRow("ST-OPEN-2", longDate(addDays(today, 14)), "$300.00", "due in 14 days"),
    ];
    const at = rows.map((row) => mail.text.search(row));
    for (const [i, index] of at.entries()) expect(index, String(rows[i])).toBeGreaterThan(-1);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    expect(mail.text).toMatch(textRow("Total due in USD", "$823.45"));
    expect(mail.text).toMatch(textRow("Total due in EUR", "€50.00"));
    for (const out of [mail.subject, mail.html, mail.text]) {
      for (const gone of ["ST-DISPUTED", "ST-PAID", "ST-VOID", "$700.00", "$200.00", "$999.00"]) {
        expect(out, gone).not.toContain(gone);
      }
    }

    // The preview of the same template, tone and frequency for this debtor: the same e-mail, but
    // its sample links.
    // (Its HTML as served: pageText would decode its entities.)
    const preview = await (
      await get(`/schedule/preview?template=single&tone=1&frequency=daily&debtor_id=${debtor.id}`, {
        cookie: a.cookie,
      })
    ).text();
    expect(preview).toContain("ST-OPEN-1");
    expect(withoutLinks(preview)).toBe(withoutLinks(mail.html));

    // The test send: the same again, to the user, with "[Test] " before the subject.
    const sent = await testSend(a, debtor.id);
    expect(sent.status, JSON.stringify(sent.data)).toBe(200);
    const tests = (await resendDelivered(a.email)).filter((m) => m.idempotencyKey?.startsWith("test:"));
    expect(tests).toHaveLength(1);
    const test = tests[0]!.body;
    expect(test.subject).toBe(`[Test] ${mail.subject}`);
    expect(withoutLinks(String(test.html))).toBe(withoutLinks(mail.html));
    expect(withoutLinks(String(test.text))).toBe(withoutLinks(mail.text));
  });

  it("a debtor whose only open balance is disputed gets no reminder: the occurrence is given up with the reason and the schedule held 'disputed'; the preview and the test send say so", async () => {
    const a = await signIn(uniqueEmail("statement-disputed"));
    const debtor = await makeDebtor(a.userId, { fullName: "Dora Disputed", currency: "USD" });
    const today = todayIn(debtor.timeZone, Date.now());
    await setInvoices(debtor, [
      { number: "SD-DISPUTED", amountCents: 40_000, dueOn: addDays(today, -5), status: "disputed" },
      { number: "SD-PAID", amountCents: 10_000, paidCents: 10_000, dueOn: addDays(today, -50), status: "paid" },
    ]);
    const id = await makeSchedule(a.userId, debtor.id);
    const due = dueNow();
    // The occurrence was waiting (a sending limit held it back): it is given up, with why.
    await env.DB.prepare(
      "INSERT INTO deliveries (owner_id, schedule_id, debtor_id, occurrence_key, template, tone, status, recipient) VALUES (?, ?, ?, ?, 'single', 1, 'deferred', ?)",
    )
      .bind(a.userId, id, debtor.id, `${id}:${due}`, debtor.email.toLowerCase())
      .run();
    await fireAt(id, due);

    expect(await outboxFor(debtor.email)).toEqual([]);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "skipped", error: STOPPED_MESSAGES.disputed }]);
    expect(await scheduleRow(id)).toMatchObject({ state: "DISABLED", stopped_reason: "disputed", next_run_at: null });
    expect(await alarmAt(id)).toBeNull();

    const preview = await pageText(
      await get(`/schedule/preview?template=single&tone=1&debtor_id=${debtor.id}`, { cookie: a.cookie }),
    );
    expect(preview).toContain(NO_OPEN_INVOICE);
    expect(preview).not.toContain("SD-DISPUTED");
    const before = (await deliveriesOfOwner(a.userId)).length;
    const refused = await testSend(a, debtor.id);
    expect(refused.status).toBe(409);
    expect(refused.data).toMatchObject({ ok: false, message: NO_OPEN_INVOICE });
    expect((await deliveriesOfOwner(a.userId)).length).toBe(before);
    expect((await resendDelivered(a.email)).filter((m) => m.idempotencyKey?.startsWith("test:"))).toEqual([]);
  });
});

describe("the e-mail tells the truth about time", () => {
  /** Fires a daily single reminder for a debtor in `timeZone` with one invoice due `dueOn`, at `at`. */
  async function fireFor(timeZone: string, dueOn: string, at: number) {
    const user = await makeUser();
    const debtor = await makeDebtor(user.id, { timeZone, fullName: "Tess Time" });
    await setInvoices(debtor, [{ number: "TZ-1", amountCents: 12_345, dueOn }]);
    const id = await makeSchedule(user.id, debtor.id, { frequency: "daily", timeZone });
    await setSchedule(id, { next_run_at: at });
    expect(await fireAndSend(id, at)).toMatchObject({ kind: "done", status: "sent" });
    const mails = await outboxFor(debtor.email);
    expect(mails).toHaveLength(1);
    return mails[0]!;
  }

  it("counts days overdue in the debtor's zone: due yesterday there while it is still the due date in UTC", async () => {
    // 2026-11-17 19:00 UTC: already 09:00 on November 18 on Kiritimati (UTC+14).
    const at = Date.UTC(2026, 10, 17, 19, 0);
    expect(todayIn("UTC", at)).toBe("2026-11-17");
    const mail = await fireFor("Pacific/Kiritimati", "2026-11-17", at);
    expect(mail.text).toContain("$123.45, due on Nov 17, 2026, is still open and now 1 day overdue.");
    expect(mail.text).toMatch(textRow("TZ-1", "Nov 17, 2026", "$123.45", "1 day overdue"));
    expect(mail.text).not.toContain("due today");
  });

  it("and the other way round: due today there while UTC is a day on, so nothing says overdue", async () => {
    // 2026-11-18 05:00 UTC: still 18:00 on November 17 in Pago Pago (UTC-11).
    const at = Date.UTC(2026, 10, 18, 5, 0);
    expect(todayIn("UTC", at)).toBe("2026-11-18");
    const mail = await fireFor("Pacific/Pago_Pago", "2026-11-17", at);
    for (const out of [mail.subject, mail.html, mail.text]) {
      expect(out).not.toMatch(/overdue|past due|as soon as possible/i);
    }
    expect(mail.text).toContain("$123.45 is due on Nov 17, 2026.");
    expect(mail.text).toMatch(textRow("TZ-1", "Nov 17, 2026", "$123.45", "due today"));
  });
});
