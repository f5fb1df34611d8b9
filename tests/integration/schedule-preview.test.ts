import { beforeAll, describe, expect, it } from "vitest";
import { REPEAT } from "../support/email-fixtures";
import type { Json } from "./data-helpers";
import { makeDebtor, makeInvoice, makeOrg } from "./fixtures";
import { get, location, pageText, type SignedIn, signIn, uniqueEmail } from "./helpers";
import { loaderData } from "./schedule-helpers";

/**
 * The new-schedule page /schedule and the e-mail preview /schedule/preview.
 */

// Preview -------------------------------------------------------------------------------------

describe("/schedule/preview", () => {
  let a: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("preview"));
  });

  it("renders the template with sample values as HTML under a strict Content-Security-Policy", async () => {
    const res = await get("/schedule/preview?template=final-notice&tone=3", { cookie: a.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    const csp = res.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("sandbox");
    const html = await pageText(res);
    expect(html).toContain("John Doe");
    expect(html).toContain("$1,250.00");
    expect(html).not.toMatch(/<script/i);
    // Another template and tone render differently.
    const single = await pageText(await get("/schedule/preview?template=single&tone=1", { cookie: a.cookie }));
    expect(single).toContain("$1,250.00");
    expect(single).not.toEqual(html);
  });

  it("shows what would be sent: the sample's two invoices, no invoice link, no further reminders for a one-time one", async () => {
    const weekly = await pageText(
      await get("/schedule/preview?template=initial&tone=3&frequency=weekly", { cookie: a.cookie }),
    );
    expect(weekly).toMatch(REPEAT);
    const once = await pageText(
      await get("/schedule/preview?template=initial&tone=3&frequency=now", { cookie: a.cookie }),
    );
    expect(once).not.toMatch(REPEAT);
    expect(once).toContain("$1,250.00");
    for (const html of [weekly, once]) {
      expect(html).not.toContain("View invoice");
      expect(html).toContain("SAMPLE-1001");
      expect(html).toContain("<title>Payment due: 2 invoices, $1,250.00</title>");
    }
    // Each invoice has its own due date: the form's due_date changes nothing.
    const dated = await pageText(
      await get("/schedule/preview?template=initial&tone=1&frequency=daily&due_date=2027-03-05", { cookie: a.cookie }),
    );
    expect(dated).not.toContain("Mar 5, 2027");
    expect(dated).toContain("Nov 30, 2026");
  });

  it("an unknown template answers 404; a visitor is redirected", async () => {
    for (const q of ["?template=nope&tone=1", "?tone=2", "?template=&tone=3"]) {
      expect((await get(`/schedule/preview${q}`, { cookie: a.cookie })).status, q).toBe(404);
    }
    const visitor = await get("/schedule/preview?template=final-notice&tone=3");
    expect(visitor.status).toBe(302);
    expect(location(visitor)!.pathname).toBe("/404");
    expect(location(visitor)!.searchParams.get("redirectTo")).toBe("/schedule/preview?template=final-notice&tone=3");
  });
});

// The new-schedule page -----------------------------------------------------------------------

describe("/schedule", () => {
  it("without debtors asks to add one; with debtors lists the user's own", async () => {
    const a = await signIn(uniqueEmail("new-schedule"));
    const b = await signIn(uniqueEmail("new-schedule-other"));
    await makeDebtor(b.userId, { fullName: "Someone Else's Debtor" });

    const empty = await get("/schedule", { cookie: a.cookie });
    expect(empty.status).toBe(200);
    const emptyHtml = await pageText(empty);
    expect(emptyHtml).toContain("Add a debtor to get started");
    expect(emptyHtml).not.toContain("Someone Else's Debtor");

    await makeDebtor(a.userId, { fullName: "Pickable Paula" });
    await makeDebtor(a.userId, { fullName: "Pickable Peter" });
    await makeOrg(a.userId, "Pickable Org", "2 Org Way");
    const html = await pageText(await get("/schedule", { cookie: a.cookie }));
    expect(html).not.toContain("Add a debtor to get started");
    expect(html).toContain("New schedule");
    for (const text of ["Pickable Paula", "Pickable Peter", "Pickable Org", "Escalating Reminders"])
      expect(html).toContain(text);
    expect(html).not.toContain("Someone Else's Debtor");
    const data = await loaderData("/schedule", "routes/schedule", a.cookie);
    expect(data.debtors.map((d: Json) => d.fullName)).toEqual(["Pickable Paula", "Pickable Peter"]);

    const visitor = await get("/schedule");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe("/404?redirectTo=%2Fschedule");
  });
});

// The coming e-mails ----------------------------------------------------------------------------

describe("/schedule/outlook", () => {
  let a: SignedIn;
  beforeAll(async () => {
    a = await signIn(uniqueEmail("outlook"));
  });

  const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  it("lists the debtor's coming e-mails in their zone: the late invoice once at its step, the steps it skipped", async () => {
    const debtor = await makeDebtor(a.userId, { invoice: false, timeZone: "Europe/Berlin", debtCents: 200_000 });
    await makeInvoice(a.userId, debtor.id, { amountCents: 120_000, dueOn: daysFromToday(-20), number: "INV-101" });
    await makeInvoice(a.userId, debtor.id, { amountCents: 80_000, dueOn: daysFromToday(10), number: "INV-107" });
    const res = await get(
      `/schedule/outlook?debtor_id=${debtor.id}&cadence_steps=-3,0,3,7,14&after_last=end&send_hour=9`,
      { cookie: a.cookie },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const body = (await res.json()) as {
      timeZone: string;
      runs: { when: string; templateName: string; lines: { number: string; step: string; late: boolean }[] }[];
      skipped: { number: string; step: string }[];
    };
    expect(body.timeZone).toBe("Europe/Berlin");
    expect(body.runs[0]?.lines).toEqual([
      expect.objectContaining({ number: "INV-101", step: "14 days after", late: true }),
    ]);
    expect(body.runs[0]?.templateName).toBe("Final Notice");
    expect(body.runs.slice(1).map((r) => r.lines.map((l) => `${l.number} ${l.step}`).join())).toEqual([
      "INV-107 3 days before",
      "INV-107 on the due date",
      "INV-107 3 days after",
      "INV-107 7 days after",
    ]);
    expect(body.runs.every((r) => /^\w{3}, \w{3} \d{1,2}, \d{1,2}:\d{2}\s[AP]M$/.test(r.when))).toBe(true);
    expect(body.skipped.map((s) => `${s.number} ${s.step}`)).toEqual([
      "INV-101 3 days before",
      "INV-101 on the due date",
      "INV-101 3 days after",
      "INV-101 7 days after",
    ]);
  });

  it("refuses a bad cadence with 400 and another user's debtor with 404", async () => {
    const mine = await makeDebtor(a.userId);
    const bad = await get(`/schedule/outlook?debtor_id=${mine.id}&cadence_steps=soon`, { cookie: a.cookie });
    expect(bad.status).toBe(400);
    const b = await signIn(uniqueEmail("outlook-other"));
    const theirs = await get(`/schedule/outlook?debtor_id=${mine.id}&cadence_steps=0,7`, { cookie: b.cookie });
    expect(theirs.status).toBe(404);
  });

  it("shows the e-mail as on its day, never 'due in N days' of a day already past", async () => {
    const debtor = await makeDebtor(a.userId, { invoice: false, debtCents: 10_000 });
    await makeInvoice(a.userId, debtor.id, { amountCents: 10_000, dueOn: daysFromToday(-20), number: "LATE-1" });
    // A step 3 days before an invoice 20 days overdue would be a past day: the preview stays on today.
    const html = await pageText(
      await get(`/schedule/preview?template=initial&tone=1&frequency=due&debtor_id=${debtor.id}&step=-3`, {
        cookie: a.cookie,
      }),
    );
    expect(html).not.toMatch(/due in \d+ days?/i);
    expect(html).toMatch(/\d+ days overdue/i);
  });
});
