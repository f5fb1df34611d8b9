import { describe, expect, it } from "vitest";
import { agingBucket } from "~/domain/aging";
import { localDateString } from "~/domain/schedule-time";
import { loadMoney } from "~/ledger/money.server";
import { decodeTurbo } from "./data-helpers";
import { db, makeDebtor, makeInvoice, makeSignedInUser, makeUser, payInvoice } from "./fixtures";
import { get, SESSION_COOKIE } from "./helpers";
import { addDays } from "./invoice-helpers";

/**
 * The money figures: receivables by age, counted on the user's
 * calendar (their zone), collected this month and the average days late, from the account's own
 * rows. A fixed `now` in zones where the user's date is not UTC's: Kiritimati (UTC+14) is a day
 * ahead, Pago Pago (UTC−11) a day behind.
 */

const ZONES = [
  // 2026-02-28 12:00 UTC is already 1 March in Kiritimati.
  { zone: "Pacific/Kiritimati", now: Date.UTC(2026, 1, 28, 12) },
  // 2026-03-01 05:00 UTC is still 28 February in Pago Pago.
  { zone: "Pacific/Pago_Pago", now: Date.UTC(2026, 2, 1, 5) },
];

/** An owner with invoices due today and 30, 31, 90 and 91 days overdue on `today`, and payments around the window. */
async function seedAccount(today: string) {
  const owner = await makeUser("Mona Money");
  const debtor = await makeDebtor(owner.id, { fullName: "Otto Oldest", invoice: false });
  const due = async (days: number, amountCents: number, extra: { currency?: string; status?: "disputed" } = {}) =>
    makeInvoice(owner.id, debtor.id, {
      number: `AGE-${days}-${extra.currency ?? "USD"}`,
      amountCents,
      dueOn: addDays(today, -days),
      ...extra,
    });
  await due(0, 1_000);
  await due(30, 2_000);
  await due(31, 4_000, { status: "disputed" });
  await due(90, 8_000);
  const over90 = await due(91, 16_000);
  await due(5, 500, { currency: "EUR" });
  // Partly paid, long before the window: its balance is what ages.
  await payInvoice(owner.id, debtor.id, over90, 1_000, "USD", { paidOn: addDays(today, -200) });
  // Neither a void nor a paid invoice is owed.
  await makeInvoice(owner.id, debtor.id, { amountCents: 99_000, dueOn: addDays(today, -45), status: "void" });

  // Payments: each pays a whole invoice of its own (paid, so it ages nowhere).
  const paidInvoice = async (dueDaysAgo: number, paidDaysAgo: number, cents: number) => {
    const id = await makeInvoice(owner.id, debtor.id, { amountCents: cents, dueOn: addDays(today, -dueDaysAgo) });
    await payInvoice(owner.id, debtor.id, id, cents, "USD", { paidOn: addDays(today, -paidDaysAgo) });
  };
  const monthStart = `${today.slice(0, 8)}01`;
  const intoMonth = Math.round((Date.parse(today) - Date.parse(monthStart)) / 86_400_000);
  // Paid today, 10 days after its due date.
  await paidInvoice(10, 0, 3_000);
  // Paid on the first of the user's month, 5 days before its due date: early counts 0 days.
  await paidInvoice(intoMonth - 5, intoMonth, 700);
  // The day before the month: in the window, not collected this month; 20 days late.
  await paidInvoice(intoMonth + 21, intoMonth + 1, 50);
  // The window's first day (89 days ago), 30 days late; and the day before it, out of the window.
  await paidInvoice(119, 89, 20);
  await paidInvoice(400, 90, 10);

  // Another account's invoices and payments change nothing.
  const other = await makeUser("Olga Other");
  const theirs = await makeDebtor(other.id, { invoice: false });
  const theirInvoice = await makeInvoice(other.id, theirs.id, { amountCents: 77_700, dueOn: addDays(today, -40) });
  await payInvoice(other.id, theirs.id, theirInvoice, 100, "USD", { paidOn: today });
  return { owner, debtor };
}

describe("money figures in the user's zone", () => {
  for (const { zone, now } of ZONES) {
    it(`${zone}: due today, 30, 31, 90 and 91 days overdue land in their buckets; collected this month and days late`, async () => {
      const today = localDateString(now, zone);
      const utcToday = new Date(now).toISOString().slice(0, 10);
      expect(today).not.toBe(utcToday);
      const { owner, debtor } = await seedAccount(today);

      const money = await loadMoney(db(), owner.id, today);
      expect(money.aging).toEqual([
        {
          currency: "EUR",
          invoices: 1,
          notYetDue: 0,
          days1to30: 500,
          days31to60: 0,
          days61to90: 0,
          over90: 0,
          overdueCents: 500,
          outstandingCents: 500,
        },
        {
          currency: "USD",
          invoices: 5,
          // Due today: not yet due.
          notYetDue: 1_000,
          // 30 days overdue.
          days1to30: 2_000,
          // 31 days overdue (disputed: still owed).
          days31to60: 4_000,
          // 90 days overdue.
          days61to90: 8_000,
          // 91 days overdue, less what was paid on it.
          over90: 15_000,
          overdueCents: 29_000,
          outstandingCents: 30_000,
        },
      ]);
      // The pure module's day count agrees with the SQL's bounds.
      expect([0, 30, 31, 90, 91].map((d) => agingBucket(addDays(today, -d), today))).toEqual([
        "notYetDue",
        "days1to30",
        "days31to60",
        "days61to90",
        "over90",
      ]);

      // The oldest debts: earliest due first, with their debtor and balance.
      expect(money.oldest.map((o) => [o.number, o.dueOn, o.balanceCents])).toEqual([
        ["AGE-91-USD", addDays(today, -91), 15_000],
        ["AGE-90-USD", addDays(today, -90), 8_000],
        ["AGE-31-USD", addDays(today, -31), 4_000],
        ["AGE-30-USD", addDays(today, -30), 2_000],
        ["AGE-5-EUR", addDays(today, -5), 500],
      ]);
      expect(money.oldest[0]).toMatchObject({ debtorId: debtor.id, fullName: "Otto Oldest", status: "open" });
      expect(money.oldest[2]?.status).toBe("disputed");

      // Collected this month: the payments dated from the first of the user's month to their today.
      expect(money.collected).toEqual([{ currency: "USD", cents: 3_700 }]);
      // Days late per allocation over the last 90 days (today included): 10, 0 (early), 20, 30.
      expect(money.averageDaysLate).toBe(15);

      // The same rows counted on UTC's date put the edges elsewhere: the zone matters.
      const utc = await loadMoney(db(), owner.id, utcToday);
      expect(utc.aging.find((r) => r.currency === "USD")).not.toMatchObject({
        notYetDue: 1_000,
        days1to30: 2_000,
        days31to60: 4_000,
        days61to90: 8_000,
        over90: 15_000,
      });
    });
  }

  it("an account with nothing owed and no payments has no figures", async () => {
    const owner = await makeUser("Nina New");
    const money = await loadMoney(db(), owner.id, "2026-03-01");
    expect(money).toEqual({
      today: "2026-03-01",
      aging: [],
      oldest: [],
      collected: [],
      charges: [],
      chargesCollected: [],
      averageDaysLate: null,
    });
  });
});

describe("the dashboard and the report show the money", () => {
  const zone = "Pacific/Kiritimati";
  const cookieOf = (token: string) => `${SESSION_COOKIE}=${token}; tz=${encodeURIComponent(zone)}`;

  it("the dashboard's loader counts the buckets on the user's today, and an empty account gets its empty state", async () => {
    const user = await makeSignedInUser("Dora Dash");
    const today = localDateString(Date.now(), zone);
    const debtor = await makeDebtor(user.id, { fullName: "Ada Aging", invoice: false });
    await makeInvoice(user.id, debtor.id, { number: "D-31", amountCents: 4_000, dueOn: addDays(today, -31) });
    await makeInvoice(user.id, debtor.id, { number: "D-0", amountCents: 1_000, dueOn: today });
    const res = await get(`/dashboard.data?debtor=${debtor.id}`, { cookie: cookieOf(user.token) });
    expect(res.status).toBe(200);
    const data = (await decodeTurbo(res))["routes/dashboard"].data;
    expect(data.money.today).toBe(today);
    expect(data.money.aging).toEqual([
      expect.objectContaining({ currency: "USD", notYetDue: 1_000, days31to60: 4_000, outstandingCents: 5_000 }),
    ]);
    expect(data.money.oldest.map((o: { number: string }) => o.number)).toEqual(["D-31", "D-0"]);

    const page = await (await get(`/dashboard?debtor=${debtor.id}`, { cookie: cookieOf(user.token) })).text();
    expect(page).toContain("Receivables by age");
    expect(page.indexOf('id="money-heading"')).toBeLessThan(page.indexOf('data-testid="reminders-sent"'));

    const empty = await makeSignedInUser("Edna Empty");
    const emptyPage = await (await get("/dashboard", { cookie: cookieOf(empty.token) })).text();
    expect(emptyPage).toContain("Nothing is owed to you yet");
    expect(emptyPage).not.toContain("Receivables by age");
  });

  it("the report shows the aging table and exports it as CSV", async () => {
    const user = await makeSignedInUser("Rita Report");
    const today = localDateString(Date.now(), zone);
    const debtor = await makeDebtor(user.id, { invoice: false });
    await makeInvoice(user.id, debtor.id, { amountCents: 12_345, dueOn: addDays(today, -91) });
    await makeInvoice(user.id, debtor.id, { amountCents: 500, currency: "EUR", dueOn: addDays(today, 3) });
    const report = await (await get("/report", { cookie: cookieOf(user.token) })).text();
    expect(report).toContain("Receivables by age");
    expect(report).toContain("$123.45");
    expect(report).toContain('href="/report-aging.csv"');

    const csv = await get("/report-aging.csv", { cookie: cookieOf(user.token) });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines).toEqual([
      "Currency,Not yet due,1–30 days overdue,31–60 days overdue,61–90 days overdue,Over 90 days overdue,Overdue,Outstanding,Open invoices," +
        "Charges not yet due,Charges 1–30 days overdue,Charges 31–60 days overdue,Charges 61–90 days overdue,Charges over 90 days overdue," +
        "Charges overdue,Charges outstanding,Outstanding with charges,As of",
      `EUR,5,0,0,0,0,0,5,1,0,0,0,0,0,0,0,5,${today}`,
      `USD,0,0,0,0,123.45,123.45,123.45,1,0,0,0,0,0,0,0,123.45,${today}`,
    ]);

    // Signed out: no export.
    expect((await get("/report-aging.csv")).status).toBe(302);
  });
});
