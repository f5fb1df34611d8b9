import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addDays, noStepAheadMessage } from "~/domain/cadence";
import { instantAtLocalHour, localDateString } from "~/domain/schedule-time";
import { invoiceEntity } from "~/ledger/invoice-entity.server";
import { paymentEntity } from "~/ledger/payment-entity.server";
import { createSchedule } from "~/reminders/writes.server";
import type { ScheduleInput } from "~/schemas/schedule";
import { daytimeZone } from "../support/daytime-zone";
import { fireAt, MINUTE, resendDelivered } from "./engine-helpers";
import {
  alarmStub,
  db,
  deliveriesOf,
  entityScopeOf,
  eventsOf,
  makeDebtor,
  makeInvoice,
  makeUser,
  scheduleRow,
  setSchedule,
  withAlarms,
} from "./fixtures";

/**
 * Due-date cadences through the lifecycle and the
 * real engine: the first run is the next step of the open invoices, each firing moves to the
 * next one, invoice and payment writes move the steps, and the last step ends the schedule once.
 */

const stub = () => withAlarms(alarmStub());

const scope = entityScopeOf;

function dueInput(debtorId: number, fields: Partial<ScheduleInput> = {}): ScheduleInput {
  return {
    kind: "person",
    debtor_id: debtorId,
    preset: "FRIENDLY_REMINDER",
    frequency: "due",
    time_zone: "UTC",
    cadence_steps: "-3, 0, 3, 7, 14",
    after_last: "end",
    send_hour: 10,
    ...fields,
  };
}

/** 10:00 (or `hour`) on `date` in `zone`. */
function at(date: string, zone: string, hour = 10) {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return instantAtLocalHour(y, m, d, hour, zone);
}

/** A user and a debtor in `zone` with one open invoice per due date (and no other). */
async function debtorWith(zone: string, dueDates: string[]) {
  const user = await makeUser();
  const debtor = await makeDebtor(user.id, {
    timeZone: zone,
    invoice: false,
    debtCents: 10_000 * dueDates.length,
  });
  const invoiceIds: number[] = [];
  for (const [i, dueOn] of dueDates.entries()) {
    invoiceIds.push(
      await makeInvoice(user.id, debtor.id, {
        amountCents: 10_000,
        dueOn,
        issuedOn: "2026-01-01",
        number: `INV-${i + 1}`,
      }),
    );
  }
  return { user, debtor, invoiceIds };
}

async function create(ownerId: string, input: ScheduleInput, now = Date.now()) {
  return createSchedule({ env: stub(), db: db(), ownerId, now }, input);
}

/** A debtor in `zone` with one invoice due on `due`, and a due-date schedule whose first step fired a minute ago. */
async function firedNow(zone: string, due: string) {
  const { user, debtor } = await debtorWith(zone, [due]);
  const result = await create(user.id, dueInput(debtor.id, { send_first_now: true }));
  if (!("schedule" in result)) throw new Error(JSON.stringify(result));
  const id = result.schedule.id;
  const scheduledAt = Math.floor((Date.now() - MINUTE) / 1000) * 1000;
  await fireAt(id, scheduledAt);
  return { user, debtor, id, scheduledAt };
}

const todayIn = (zone: string) => localDateString(Date.now(), zone);

describe("a schedule that follows the due date", () => {
  it("starts at the next step of the open invoice, at the chosen hour in the debtor's zone", async () => {
    const zone = "Pacific/Kiritimati"; // UTC+14: the debtor's date is often not UTC's
    const due = addDays(todayIn(zone), 10)!;
    const { user, debtor } = await debtorWith(zone, [due]);
    const result = await create(user.id, dueInput(debtor.id, { send_hour: 9 }));
    if (!("schedule" in result)) throw new Error(JSON.stringify(result));
    const row = await scheduleRow(result.schedule.id);
    expect(row).toMatchObject({
      frequency: "due",
      cadence_steps: "-3,0,3,7,14",
      cadence_repeat_days: null,
      send_hour: 9,
      next_run_at: at(addDays(due, -3)!, zone, 9),
    });
  });

  it("an invoice already overdue gets one e-mail now, at the step its age calls for; none open is refused", async () => {
    const long = addDays(todayIn("UTC"), -40)!;
    const { user, debtor } = await debtorWith("UTC", [long]);
    const now = Date.now();
    const late = await create(user.id, dueInput(debtor.id), now);
    if (!("schedule" in late)) throw new Error(JSON.stringify(late));
    // Today's 10:00 when it is still ahead, else in a minute (the contact rules keep it out of the night).
    const todayAt = at(todayIn("UTC"), "UTC");
    expect(late.schedule.nextRunAt).toBe(todayAt > now ? todayAt : now + MINUTE);

    const first = await create(user.id, dueInput(debtor.id, { send_first_now: true }), now);
    if (!("schedule" in first)) throw new Error(JSON.stringify(first));
    expect(first.schedule.nextRunAt).toBe(now + MINUTE);

    // Owed, but not on any open invoice: there is nothing for the cadence to follow.
    const owner = await makeUser();
    const bare = await makeDebtor(owner.id, { invoice: false, debtCents: 10_000 });
    const refused = await create(owner.id, dueInput(bare.id));
    expect(refused).toEqual({ error: "no-step-ahead", debtorName: bare.fullName });
    expect(noStepAheadMessage(bare.fullName)).toContain("no open invoice");
  });

  it("the late joiner's e-mail is the final notice for 45 days overdue, sent once, and the schedule ends", async () => {
    const zone = daytimeZone();
    const { user, debtor } = await debtorWith(zone, [addDays(todayIn(zone), -45)!]);
    const result = await create(user.id, dueInput(debtor.id));
    if (!("schedule" in result)) throw new Error(JSON.stringify(result));
    const id = result.schedule.id;
    // Its catch-up, fired as it falls due (a minute ago: the alarm's clock is the real one).
    await fireAt(id, Math.floor((Date.now() - MINUTE) / 1000) * 1000);
    const delivered = await deliveriesOf(id);
    expect(delivered.map((d) => [d.status, d.template])).toEqual([["sent", "final-notice"]]);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", next_run_at: null });
  });

  it("fires a 'due soon' e-mail before the due date, then moves to the next step", async () => {
    const zone = daytimeZone();
    const due = addDays(todayIn(zone), 3)!;
    const { debtor, id } = await firedNow(zone, due);

    const [delivery] = await deliveriesOf(id);
    expect(delivery).toMatchObject({ status: "sent", template: "initial" });
    const [mail] = await resendDelivered(debtor.email);
    const text = String(mail?.body.text ?? "");
    expect(text).toMatch(/due/i);
    expect(text).not.toMatch(/overdue/i);
    // The next step: 3 days before the due date is today, covered by today's e-mail (one a day); then the due date.
    const row = (await scheduleRow(id))!;
    expect(row.next_run_at).toBe(at(due, zone));
    expect(row.template_step).toBe(1);
    expect(row.state).toBe("ENABLED");
  });

  it("a paid invoice's steps go, an added invoice's join, a moved due date moves them", async () => {
    const today = todayIn("UTC");
    const a = addDays(today, 5)!;
    const b = addDays(today, 8)!;
    const { user, debtor, invoiceIds } = await debtorWith("UTC", [a, b]);
    const result = await create(user.id, dueInput(debtor.id, { cadence_steps: "0, 7" }));
    if (!("schedule" in result)) throw new Error(JSON.stringify(result));
    const id = result.schedule.id;
    expect((await scheduleRow(id))?.next_run_at).toBe(at(a, "UTC"));

    // Invoice A is paid in full between the steps: B's due date is next.
    const paid = await paymentEntity.add(scope(user.id), debtor.id, {
      amount: 100,
      paid_on: today,
      invoice_id: invoiceIds[0],
    });
    expect("error" in paid).toBe(false);
    expect((await scheduleRow(id))?.next_run_at).toBe(at(b, "UTC"));

    // An invoice added later, due sooner, joins with its own step.
    const c = addDays(today, 2)!;
    const added = await invoiceEntity.add(scope(user.id), debtor.id, {
      amount: 50,
      currency: "USD",
      issued_on: today,
      due_on: c,
    });
    expect(added).toBeDefined();
    expect((await scheduleRow(id))?.next_run_at).toBe(at(c, "UTC"));

    // Its due date moved forward past B's: B's step is next again, C's follow it.
    await invoiceEntity.edit(scope(user.id), added!.invoice.id, {
      amount: 50,
      currency: "USD",
      issued_on: today,
      due_on: addDays(today, 20) ?? undefined,
    });
    expect((await scheduleRow(id))?.next_run_at).toBe(at(b, "UTC"));
  });

  it("ends after its last step once, on the timeline and in one notice; repeating keeps its interval", async () => {
    const zone = daytimeZone();
    const today = todayIn(zone);
    // Due 14 days ago: the last step (+14) is today; it fires now.
    const due = addDays(today, -14)!;
    const { user, debtor, id, scheduledAt } = await firedNow(zone, due);
    // Today's e-mail covered today's last step: the schedule ends at once.
    const ended = (await scheduleRow(id))!;
    expect(ended).toMatchObject({ state: "COMPLETED", next_run_at: null, stopped_reason: null });
    const endedEvents = (await eventsOf(debtor.id)).filter((e) => e.type === "schedule_ended");
    expect(endedEvents).toHaveLength(1);
    const notices = await env.DB.prepare(
      "SELECT kind FROM user_notifications WHERE owner_id = ? AND kind = 'schedule_ended'",
    )
      .bind(user.id)
      .all();
    expect(notices.results).toHaveLength(1);

    // The same alarm again (at-least-once): nothing more is sent, ended or told.
    await setSchedule(id, { state: "COMPLETED" });
    const sent = (await deliveriesOf(id)).length;
    await fireAt(id, ended.last_run_at!).catch(() => undefined);
    expect((await eventsOf(debtor.id)).filter((e) => e.type === "schedule_ended")).toHaveLength(1);
    expect((await deliveriesOf(id)).filter((d) => d.status === "sent").length).toBeLessThanOrEqual(sent);

    // Repeating: after the last step the schedule keeps its interval.
    const other = await debtorWith(zone, [due]);
    const repeating = await create(
      other.user.id,
      dueInput(other.debtor.id, { send_first_now: true, after_last: "repeat", repeat_days: 5 }),
    );
    if (!("schedule" in repeating)) throw new Error(JSON.stringify(repeating));
    await fireAt(repeating.schedule.id, scheduledAt);
    const next = (await scheduleRow(repeating.schedule.id))?.next_run_at;
    expect(next).toBe(at(addDays(today, 5)!, zone));
  });
});
