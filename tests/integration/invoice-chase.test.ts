import { describe, expect, it } from "vitest";
import { addDays } from "~/domain/cadence";
import { localDateString } from "~/domain/schedule-time";
import { createSchedule } from "~/reminders/writes.server";
import { daytimeZone } from "../support/daytime-zone";
import { apiJson } from "./data-helpers";
import { fireAt, MINUTE, resendDelivered } from "./engine-helpers";
import { alarmStub, db, deliveriesOf, makeDebtor, makeInvoice, scheduleRow, withAlarms } from "./fixtures";
import { get, pageText, signIn, uniqueEmail } from "./helpers";

/**
 * "Don't chase this one": an owed invoice left out of reminders and the cadence, named apart on
 * the statement, until "Chase again"; nothing else left to chase holds the schedule.
 */
describe("an invoice the user does not chase", () => {
  it("leaves the cadence and the statement's total, is named apart on the e-mail, and comes back", async () => {
    const a = await signIn(uniqueEmail("chase"));
    const zone = daytimeZone();
    const today = localDateString(Date.now(), zone);
    const debtor = await makeDebtor(a.userId, { invoice: false, timeZone: zone, debtCents: 30_000 });
    const late = await makeInvoice(a.userId, debtor.id, {
      amountCents: 10_000,
      dueOn: addDays(today, -20)!,
      number: "LATE-1",
    });
    await makeInvoice(a.userId, debtor.id, { amountCents: 20_000, dueOn: addDays(today, 10)!, number: "SOON-2" });
    const created = await createSchedule(
      { env: withAlarms(alarmStub()), db: db(), ownerId: a.userId, now: Date.now() },
      {
        kind: "person",
        debtor_id: debtor.id,
        preset: "FRIENDLY_REMINDER",
        frequency: "due",
        time_zone: zone,
        cadence_steps: "-3, 0, 7, 14",
        after_last: "end",
        // Later than now in the debtor's day (about 13:00): a re-plan may still move the first run.
        send_hour: 18,
      },
    );
    if (!("schedule" in created)) throw new Error(JSON.stringify(created));
    const id = created.schedule.id;
    // LATE-1's catch-up is first: today.
    expect(localDateString(created.schedule.nextRunAt!, zone)).toBe(today);

    const paused = await apiJson("PUT", "/invoices/chase", { cookie: a.cookie, json: { id: late, chased: false } });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ number: "LATE-1", chased: false, status: "open" });
    // The cadence follows SOON-2 alone: its step 3 days before it is due.
    const moved = (await scheduleRow(id))!.next_run_at!;
    expect(localDateString(moved, zone)).toBe(addDays(today, 7));

    // The e-mail of that step lists SOON-2, names LATE-1 apart, and its total is SOON-2's.
    await fireAt(id, Math.floor((Date.now() - MINUTE) / 1000) * 1000);
    const [mail] = await resendDelivered(debtor.email);
    const text = String(mail?.body.text ?? "");
    expect(text).toContain("SOON-2");
    expect(text).toMatch(/Not part of this reminder, by arrangement: LATE-1 \(\$100\.00/);
    expect(text).toMatch(/Total due\s+\$200\.00/);

    // Not the user's: 404, and nothing changes.
    const b = await signIn(uniqueEmail("chase-other"));
    const foreign = await apiJson("PUT", "/invoices/chase", { cookie: b.cookie, json: { id: late, chased: true } });
    expect(foreign.status).toBe(404);
    const bad = await apiJson("PUT", "/invoices/chase", { cookie: a.cookie, json: { id: late, chased: "no" } });
    expect(bad.status).toBe(400);

    // Chased again: it is back in the cadence and on the debtor's page as chased.
    const back = await apiJson("PUT", "/invoices/chase", { cookie: a.cookie, json: { id: late, chased: true } });
    expect(back.body.data).toMatchObject({ chased: true });
    const page = await pageText(await get(`/debtors/${debtor.id}`, { cookie: a.cookie }));
    expect(page).not.toContain("Not chased");
    expect((await deliveriesOf(id)).length).toBe(1);
  });

  it("with nothing else left to chase, the schedule holds instead of sending an empty statement", async () => {
    const a = await signIn(uniqueEmail("chase-hold"));
    const zone = daytimeZone();
    const debtor = await makeDebtor(a.userId, { invoice: false, timeZone: zone, debtCents: 10_000 });
    const only = await makeInvoice(a.userId, debtor.id, {
      amountCents: 10_000,
      dueOn: addDays(localDateString(Date.now(), zone), -5)!,
      number: "ONLY-1",
    });
    const created = await createSchedule(
      { env: withAlarms(alarmStub()), db: db(), ownerId: a.userId, now: Date.now() },
      { kind: "person", debtor_id: debtor.id, preset: "SINGLE_REMINDER", frequency: "daily", time_zone: zone },
    );
    if (!("schedule" in created)) throw new Error(JSON.stringify(created));
    await apiJson("PUT", "/invoices/chase", { cookie: a.cookie, json: { id: only, chased: false } });
    const page = await pageText(await get(`/debtors/${debtor.id}`, { cookie: a.cookie }));
    expect(page).toContain("Not chased");
    await fireAt(created.schedule.id, Math.floor((Date.now() - MINUTE) / 1000) * 1000);
    const held = await scheduleRow(created.schedule.id);
    expect(held).toMatchObject({ state: "DISABLED", stopped_reason: "disputed", next_run_at: null });
    expect(await resendDelivered(debtor.email)).toEqual([]);
    // Chased again: the held schedule runs again by itself.
    await apiJson("PUT", "/invoices/chase", { cookie: a.cookie, json: { id: only, chased: true } });
    expect(await scheduleRow(created.schedule.id)).toMatchObject({ state: "ENABLED", stopped_reason: null });
  });
});
