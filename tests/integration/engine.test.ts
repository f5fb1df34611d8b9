import { runDurableObjectAlarm } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { batchKeyOf } from "~/domain/mail-batch";
import { followAlarms } from "~/reminders/alarms.server";
import { fireSchedule, type MailJob } from "~/reminders/engine.server";
import { runWatchdog } from "~/watchdog/index.server";
import { daytimeZone } from "../support/daytime-zone";
import { eventually } from "./data-helpers";
import {
  alarmAt,
  consumeJobs,
  doStorage,
  expectNextTenOClock,
  FROM_ADDRESS,
  fireAt,
  HOUR,
  MINUTE,
  programResend,
  queuedJob,
  resendDelivered,
  resendRequests,
  stubOf,
} from "./engine-helpers";
import {
  ageDeliveries,
  deliveriesOf,
  makeDebtor,
  makeOrg,
  makeSchedule,
  makeUser,
  scheduleRow,
  setSchedule,
} from "./fixtures";
import { DAY, outboxFor } from "./helpers";

/**
 * The reminder engine end to end inside workerd: the built app Worker's
 * ReminderSchedule Durable Object fires, the built mail Worker renders and sends to the fake
 * Resend server, and D1 records the delivery and moves the schedule on.
 */

/** A user, a debtor and an enabled schedule; `due` is a past instant to fire the first occurrence at. */
/**
 * The zone of the schedules whose next run the tests check: midday there now, so the next daily run
 * (10:00) is tomorrow, beyond the hour a queued reminder waits, at any hour of the test.
 */
const ZONE = daytimeZone();

async function setup(options: Parameters<typeof makeSchedule>[2] = {}, debtor: Parameters<typeof makeDebtor>[1] = {}) {
  const user = await makeUser();
  const d = await makeDebtor(user.id, debtor);
  const id = await makeSchedule(user.id, d.id, options);
  // Whole seconds, a minute ago: an occurrence that is due.
  const due = Math.floor((Date.now() - MINUTE) / 1000) * 1000;
  return { user, debtor: d, id, due };
}

describe("an alarm fires the due occurrence", () => {
  it("sends one e-mail from the user to the debtor, records it, and moves to the next 10:00 in the schedule's zone", async () => {
    const tz = "Asia/Kolkata"; // UTC+05:30: 10:00 local is 04:30 UTC
    const { user, debtor, id, due } = await setup(
      { preset: "FRIENDLY_REMINDER", timeZone: tz, dueDate: "2027-03-05" },
      { fullName: "Dan Debtor", debtCents: 123450, activeStrategy: 2 },
    );
    const before = Date.now();
    await fireAt(id, due);

    const mails = await outboxFor(debtor.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toBe(debtor.email);
    expect(mail.from).toBe(`"Sally Sender" <${FROM_ADDRESS}>`);
    // Replies come home (decisions/020): the debtor's reply address, not the user's own.
    expect(mail.replyTo).toMatch(/^r-[0-9a-f]{32}-[0-9a-f]{26}@inbound\.localhost$/);
    // Initial template, Middle Ground tone (active_strategy 2).
    expect(mail.subject).toBe("Payment reminder: $1,234.50");
    expect(mail.html).toContain("$1,234.50");
    expect(mail.html).toContain("Hello Dan Debtor,");
    // The statement: the debtor's invoice and its total; each invoice has
    // its own due date, the schedule's is not shown.
    expect(mail.text).toMatch(/Total due +\$1,234\.50/);
    expect(mail.text).toContain("$1,234.50");
    const key = `${id}:${due}`;
    // One request to the batch endpoint, under the key of what it carried (docs/decisions/021).
    expect(mail.idempotencyKey).toBe(await batchKeyOf([key]));

    const [delivered] = await resendDelivered(debtor.email);
    const rows = await deliveriesOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      owner_id: user.id,
      debtor_id: debtor.id,
      occurrence_key: key,
      template: "initial",
      tone: 2,
      status: "sent",
      provider_id: delivered!.id,
      error: null,
    });
    expect(rows[0]!.sent_at).toBeGreaterThanOrEqual(before);

    const s = await scheduleRow(id);
    expect(s).toMatchObject({ state: "ENABLED", template_step: 1, last_run_at: due });
    expectNextTenOClock(s!.next_run_at, before, tz);
    expect(new Date(s!.next_run_at!).getUTCHours() * 60 + new Date(s!.next_run_at!).getUTCMinutes()).toBe(4 * 60 + 30);
    expect(await alarmAt(id)).toBe(s!.next_run_at);
  });

  it("an alarm that comes too early sends nothing and waits for the real time", async () => {
    const { debtor, id } = await setup({ timeZone: ZONE });
    const future = Date.now() + 2 * HOUR;
    await fireAt(id, future);
    expect(await resendRequests(debtor.email)).toEqual([]);
    expect(await deliveriesOf(id)).toEqual([]);
    expect(await scheduleRow(id)).toMatchObject({ state: "ENABLED", next_run_at: future, template_step: 0 });
    expect(await alarmAt(id)).toBe(future);
  });

  it("a one-time ('now') schedule sends once and completes: no next run, no alarm", async () => {
    const { debtor, id, due } = await setup({ frequency: "now" });
    await fireAt(id, due);
    expect(await outboxFor(debtor.email)).toHaveLength(1);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", next_run_at: null, last_run_at: due });
    expect(await alarmAt(id)).toBeNull();
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["sent"]);

    // Another alarm (e.g. a stale one) finds nothing to do.
    await stubOf(id).arm(id, Date.now() + HOUR, { force: true });
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(true);
    expect(await outboxFor(debtor.email)).toHaveLength(1);
    expect(await alarmAt(id)).toBeNull();
  });

  it("a debtor who has paid in full gets nothing and the schedule completes", async () => {
    const { debtor, id, due } = await setup({}, { debtCents: 5000 });
    // Paid after the schedule was made (none is made for a debtor who has paid).
    await env.DB.prepare("UPDATE debtors SET paid_cents = 5000 WHERE id = ?").bind(debtor.id).run();
    await fireAt(id, due);
    expect(await resendRequests(debtor.email)).toEqual([]);
    expect(await deliveriesOf(id)).toEqual([]);
    expect(await scheduleRow(id)).toMatchObject({ state: "COMPLETED", next_run_at: null });
    expect(await alarmAt(id)).toBeNull();
  });

  it("a partly paid debt asks only for the outstanding amount", async () => {
    const { debtor, id, due } = await setup({}, { debtCents: 10000, paidCents: 2550 });
    await fireAt(id, due);
    const [mail] = await outboxFor(debtor.email);
    expect(mail!.subject).toBe("Reminder: open balance of $74.50");
    expect(mail!.html).toContain("$74.50");
    expect(mail!.html).not.toContain("$100.00");
  });

  it("sent as an organization: the organization's name in From, its name and address in the e-mail, replies to the debtor's reply address", async () => {
    const user = await makeUser("Olga Owner");
    const orgId = await makeOrg(user.id, "Acme Widgets Ltd", "12 Long Road\nSpringfield 12345");
    const debtor = await makeDebtor(user.id, { activeStrategy: 1 });
    const id = await makeSchedule(user.id, debtor.id, { organizationId: orgId });
    await fireAt(id, Date.now() - MINUTE);
    const [mail] = await outboxFor(debtor.email);
    expect(mail!.from).toBe(`"Acme Widgets Ltd" <${FROM_ADDRESS}>`);
    expect(mail!.replyTo).toMatch(/^r-[0-9a-f]{32}-[0-9a-f]{26}@inbound\.localhost$/);
    expect(mail!.html).toContain("Acme Widgets Ltd");
    expect(mail!.html).toContain("12 Long Road");
    expect(mail!.html).toContain("Springfield 12345");
    expect(mail!.html).not.toContain("Olga Owner");
  });

  it("the escalating preset sends initial, follow-up, second follow-up, then the final notice again and again", async () => {
    const { debtor, id } = await setup({ preset: "FRIENDLY_REMINDER" }, { debtCents: 20000, activeStrategy: 1 });
    const start = Date.now() - 10 * DAY;
    for (let i = 0; i < 6; i++) {
      await fireAt(id, start + i * DAY);
      // A day apart, as the occurrences are: one address may get only three reminders a day.
      await ageDeliveries(id, DAY);
    }

    expect((await deliveriesOf(id)).map((d) => [d.template, d.status])).toEqual([
      ["initial", "sent"],
      ["follow-up", "sent"],
      ["second-follow-up", "sent"],
      ["final-notice", "sent"],
      ["final-notice", "sent"],
      ["final-notice", "sent"],
    ]);
    const subjects = (await outboxFor(debtor.email)).map((m) => m.subject);
    expect(subjects).toEqual([
      "Friendly reminder: payment of $200.00",
      "Following up on a payment of $200.00",
      "Another reminder: $200.00 is still open",
      "Final notice: payment of $200.00",
      "Final notice: payment of $200.00",
      "Final notice: payment of $200.00",
    ]);
    expect(await scheduleRow(id)).toMatchObject({ state: "ENABLED", template_step: 6 });
  });
});

describe("exactly once", () => {
  it("the same occurrence fired again after the schedule update was lost sends nothing and advances once", async () => {
    const { debtor, id, due } = await setup({ preset: "FRIENDLY_REMINDER", timeZone: ZONE });
    await fireAt(id, due);
    const after = await scheduleRow(id);
    expect(after).toMatchObject({ template_step: 1, last_run_at: due });

    // As if the D1 write that moves the schedule on had never happened.
    await setSchedule(id, { template_step: 0, last_run_at: null });
    const before = Date.now();
    await fireAt(id, due);

    expect(await resendRequests(debtor.email)).toHaveLength(1);
    expect(await outboxFor(debtor.email)).toHaveLength(1);
    expect(await deliveriesOf(id)).toHaveLength(1);
    const s = await scheduleRow(id);
    // The sent template counts once: the next firing sends the follow-up.
    expect(s).toMatchObject({ state: "ENABLED", template_step: 1, last_run_at: due });
    expectNextTenOClock(s!.next_run_at, before, ZONE);
    expect(await alarmAt(id)).toBe(s!.next_run_at);

    await fireAt(id, due + 1000); // the next occurrence (due too)
    expect((await deliveriesOf(id)).map((d) => d.template)).toEqual(["initial", "follow-up"]);
  });

  it("a firing that already moved the schedule on does not move it again", async () => {
    const { id, debtor, due } = await setup({ preset: "FRIENDLY_REMINDER", timeZone: ZONE });
    await fireAt(id, due);
    // Only next_run_at points back at the handled occurrence (last_run_at says it was handled).
    await fireAt(id, due);
    expect(await resendRequests(debtor.email)).toHaveLength(1);
    expect(await scheduleRow(id)).toMatchObject({ template_step: 1, last_run_at: due });
  });

  it("a batch accepted but never answered is sent again identically under the same key, and the provider delivers it once", async () => {
    const { debtor, id, due } = await setup({ timeZone: ZONE });
    await setSchedule(id, { next_run_at: due });
    const job = queuedJob(await fireSchedule(env, id, Date.now()));
    // The provider sends it and never answers: the mail Worker gives up after RESEND_TIMEOUT_SECONDS.
    await programResend(debtor.email, [{ fault: "accept-hang" }]);
    const first = await consumeJobs([job]);
    const key = await batchKeyOf([`${id}:${due}`]);
    expect(first.requeued).toEqual([{ body: { batchKey: key }, delaySeconds: 5 }]);
    const [pending] = await deliveriesOf(id);
    expect(pending).toMatchObject({ status: "sending", batch_key: key });
    expect(pending!.error).toMatch(/no answer within 3 s/);
    // The job itself coming again (the alarm's net) sends nothing: the delivery is its batch's.
    await consumeJobs([job]);
    expect((await resendRequests(debtor.email)).map((r) => r.status)).toEqual([0]);

    // The retry: the same batch, the same key; the provider answers with the first request's id.
    await consumeJobs([first.requeued[0]!.body], { now: Date.now() + 6000 });
    const requests = await resendRequests(debtor.email);
    expect(requests.map((r) => [r.status, r.idempotencyKey])).toEqual([
      [0, key],
      [200, key],
    ]);
    const delivered = await resendDelivered(debtor.email);
    expect(delivered).toHaveLength(1);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "sent", error: null, provider_id: delivered[0]!.id }]);
    expect(await scheduleRow(id)).toMatchObject({ template_step: 1, last_run_at: due });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM mail_batches WHERE key = ?").bind(key).first("n")).toBe(0);
  });

  it("two concurrent firings of one occurrence queue the same delivery; the consumer sends one e-mail and advances once", async () => {
    const { debtor, id, due } = await setup({ preset: "FRIENDLY_REMINDER", timeZone: ZONE });
    await setSchedule(id, { next_run_at: due });
    const now = Date.now();
    const outcomes = await Promise.all([fireSchedule(env, id, now), fireSchedule(env, id, now)]);
    const jobs = outcomes.map(queuedJob);
    expect(jobs[0]!.deliveryId).toBe(jobs[1]!.deliveryId);

    // Both copies in one batch, then one copy again in a later batch.
    const { messages } = await consumeJobs(jobs);
    expect(messages.every((m) => m.acked)).toBe(true);
    await consumeJobs([jobs[0]!]);

    expect(await resendDelivered(debtor.email)).toHaveLength(1);
    expect((await resendRequests(debtor.email)).map((r) => r.idempotencyKey)).toEqual([
      await batchKeyOf([`${id}:${due}`]),
    ]);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["sent"]);
    const s = await scheduleRow(id);
    expect(s).toMatchObject({ template_step: 1, last_run_at: due });
    expectNextTenOClock(s!.next_run_at, now, ZONE);
    // Fired here without its object: the alarm it asked for is the next run, which the consumer
    // leaves alone (docs/decisions/029).
    expect(jobs[0]!.alarmAt).toBe(s!.next_run_at);
    expect(await alarmAt(id)).toBeNull();
  });
});

describe("the object's alarm after a send (docs/decisions/029)", () => {
  it("the consumer moves the alarm only when the one that queued the job is not already at the next run or earlier", async () => {
    for (const alarmAtOf of [
      // Rebuilt by the watchdog: no alarm of its own.
      (_job: MailJob) => undefined,
      // Set past the next run: the reminder would be late without the consumer's call.
      (job: MailJob) => (job.alarmAt ?? 0) + DAY,
    ]) {
      const { id, due } = await setup({ timeZone: ZONE });
      await setSchedule(id, { next_run_at: due });
      const now = Date.now();
      const { alarmAt: asked, ...fired } = queuedJob(await fireSchedule(env, id, now));
      expectNextTenOClock(asked, now, ZONE);
      const job: MailJob = { ...fired, alarmAt: alarmAtOf({ ...fired, alarmAt: asked }) };
      await consumeJobs([job]);
      const s = await scheduleRow(id);
      expect(s).toMatchObject({ state: "ENABLED", template_step: 1, last_run_at: due });
      expect(await alarmAt(id)).toBe(s!.next_run_at);
    }
  });
});

describe("provider errors", () => {
  it("429 then 200: the batch waits out the Retry-After and is sent again under its key: one e-mail", async () => {
    const { debtor, id, due } = await setup();
    await programResend(debtor.email, [429]);
    await fireAt(id, due);

    const requests = await resendRequests(debtor.email);
    expect(requests.map((r) => r.status)).toEqual([429, 200]);
    const key = await batchKeyOf([`${id}:${due}`]);
    expect(requests.map((r) => r.idempotencyKey)).toEqual([key, key]);
    expect(await resendDelivered(debtor.email)).toHaveLength(1);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "sent", error: null, occurrence_key: `${id}:${due}` }]);
    expect(await scheduleRow(id)).toMatchObject({ template_step: 1, last_run_at: due });
  });

  it("500 then 200 through the queue: the same batch comes back by itself after 5 s and sends one e-mail", async () => {
    const { debtor, id, due } = await setup();
    await programResend(debtor.email, [500]);
    await fireAt(id, due);
    expect(await eventually(async () => (await deliveriesOf(id))[0]?.status === "sent", 20_000)).toBe(true);

    const requests = await resendRequests(debtor.email);
    expect(requests.map((r) => r.status)).toEqual([500, 200]);
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(4500);
    const key = await batchKeyOf([`${id}:${due}`]);
    expect(requests.map((r) => r.idempotencyKey)).toEqual([key, key]);
    expect(await resendDelivered(debtor.email)).toHaveLength(1);
    expect(await scheduleRow(id)).toMatchObject({ template_step: 1, last_run_at: due });
  }, 30_000);

  it("a 503: the batch waits for its retry, the delivery shows the error meanwhile, and it sends once when the provider recovers", async () => {
    const { debtor, id, due } = await setup({ timeZone: ZONE });
    await setSchedule(id, { next_run_at: due });
    const job = queuedJob(await fireSchedule(env, id, Date.now()));
    await programResend(debtor.email, [503]);
    const first = await consumeJobs([job]);

    // One request: the mail Worker does not retry a batch by itself (the consumer paces every request).
    expect((await resendRequests(debtor.email)).map((r) => r.status)).toEqual([503]);
    expect(await resendDelivered(debtor.email)).toEqual([]);
    const [pending] = await deliveriesOf(id);
    expect(pending).toMatchObject({ status: "sending", occurrence_key: `${id}:${due}` });
    expect(pending!.error).toContain("503");
    // The occurrence is not over: the schedule waits, the batch's retry is on the queue 5 s on.
    expect(await scheduleRow(id)).toMatchObject({ state: "ENABLED", next_run_at: due, template_step: 0 });
    expect(first.messages[0]!.acked).toBe(true);
    const key = await batchKeyOf([`${id}:${due}`]);
    expect(first.requeued).toEqual([{ body: { batchKey: key }, delaySeconds: 5 }]);
    // Too early: the retry is not taken before its time.
    await consumeJobs([first.requeued[0]!.body], { now: Date.now() - 60_000 });
    expect(await resendRequests(debtor.email)).toHaveLength(1);

    // The provider is back; the delayed retry arrives.
    const beforeRetry = Date.now();
    await consumeJobs([first.requeued[0]!.body], { now: Date.now() + 6000 });
    const requests = await resendRequests(debtor.email);
    expect(requests.map((r) => r.status)).toEqual([503, 200]);
    expect(new Set(requests.map((r) => r.idempotencyKey))).toEqual(new Set([key]));
    expect(await resendDelivered(debtor.email)).toHaveLength(1);
    expect(await deliveriesOf(id)).toMatchObject([{ status: "sent", error: null }]);
    const s = await scheduleRow(id);
    expect(s).toMatchObject({ state: "ENABLED", template_step: 1, last_run_at: due });
    expectNextTenOClock(s!.next_run_at, beforeRetry, ZONE);
    // Fired here without its object: the alarm it asked for is the next run, which the consumer
    // leaves alone (docs/decisions/029).
    expect(job.alarmAt).toBe(s!.next_run_at);
    expect(await alarmAt(id)).toBeNull();
  });

  it("the backoff grows (5 s, 30 s, 2, 10, 30 minutes); after the sixth attempt the delivery is failed, visibly, and the schedule goes on", async () => {
    const { debtor, id, due } = await setup({ timeZone: ZONE });
    await setSchedule(id, { next_run_at: due });
    const job = queuedJob(await fireSchedule(env, id, Date.now()));
    const delays: (number | undefined)[] = [];
    let next: Parameters<typeof consumeJobs>[0][number] = job;
    let at = Date.now();
    for (let attempt = 1; attempt <= 5; attempt++) {
      await programResend(debtor.email, [503]);
      const { requeued } = await consumeJobs([next], { now: at });
      delays.push(requeued[0]?.delaySeconds);
      next = requeued[0]!.body;
      at += (requeued[0]?.delaySeconds ?? 0) * 1000;
    }
    expect(delays).toEqual([5, 30, 120, 600, 1800]);

    await programResend(debtor.email, [503]);
    const before = Date.now();
    const last = await consumeJobs([next], { now: at });
    expect(last.requeued).toEqual([]);
    expect(await resendDelivered(debtor.email)).toEqual([]);
    expect(await resendRequests(debtor.email)).toHaveLength(6);
    const [failed] = await deliveriesOf(id);
    expect(failed!.status).toBe("failed");
    expect(failed!.error).toMatch(/^Gave up after 6 attempts\. .*503/);
    const s = await scheduleRow(id);
    expect(s).toMatchObject({ state: "ENABLED", template_step: 0, last_run_at: due });
    expect(s!.next_run_at).toBeGreaterThan(before);
    // Fired here without its object: the alarm it asked for is the next run, which the consumer
    // leaves alone (docs/decisions/029).
    expect(job.alarmAt).toBe(s!.next_run_at);
    expect(await alarmAt(id)).toBeNull();
  });

  it("422: the delivery is failed with the provider's error, no retry, and the schedule stays enabled with its next alarm", async () => {
    const { debtor, id, due } = await setup({ preset: "FRIENDLY_REMINDER", timeZone: "Asia/Tokyo" });
    await programResend(debtor.email, [
      { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } },
    ]);
    const before = Date.now();
    await fireAt(id, due);

    expect((await resendRequests(debtor.email)).map((r) => r.status)).toEqual([422]);
    expect(await resendDelivered(debtor.email)).toEqual([]);
    const rows = await deliveriesOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "failed", template: "initial", provider_id: null });
    expect(rows[0]!.error).toContain("422");
    expect(rows[0]!.error).toContain("Invalid `to` field.");
    const s = await scheduleRow(id);
    // The template was not delivered, so the next occurrence tries it again.
    expect(s).toMatchObject({ state: "ENABLED", template_step: 0, last_run_at: due });
    expectNextTenOClock(s!.next_run_at, before, "Asia/Tokyo");
    expect(await alarmAt(id)).toBe(s!.next_run_at);

    // The next occurrence sends the same template, now successfully.
    await fireAt(id, due + 1000); // the next occurrence (due too)
    expect((await deliveriesOf(id)).map((d) => [d.template, d.status])).toEqual([
      ["initial", "failed"],
      ["initial", "sent"],
    ]);
  });

  it("a failed occurrence fired again after the schedule update was lost neither sends nor skips its template", async () => {
    const { debtor, id, due } = await setup({ preset: "FRIENDLY_REMINDER" });
    await programResend(debtor.email, [422]);
    await fireAt(id, due);
    await setSchedule(id, { last_run_at: null });
    await fireAt(id, due);

    expect(await resendRequests(debtor.email)).toHaveLength(1);
    expect((await deliveriesOf(id)).map((d) => d.status)).toEqual(["failed"]);
    expect(await scheduleRow(id)).toMatchObject({ state: "ENABLED", template_step: 0, last_run_at: due });
  });
});

describe("stopped schedules", () => {
  it("a disabled schedule sends nothing when its alarm fires, and the alarm is deleted", async () => {
    const { debtor, id, due } = await setup();
    await setSchedule(id, { state: "DISABLED" });
    await fireAt(id, due);
    expect(await resendRequests(debtor.email)).toEqual([]);
    expect(await deliveriesOf(id)).toEqual([]);
    expect(await alarmAt(id)).toBeNull();
    expect(await doStorage(id)).toEqual({});
    expect(await scheduleRow(id)).toMatchObject({ state: "DISABLED", next_run_at: due });
  });

  it("a deleted schedule sends nothing when its alarm fires, and the alarm is deleted", async () => {
    const { debtor, id, due } = await setup();
    await setSchedule(id, { next_run_at: due });
    await stubOf(id).arm(id, Date.now() + HOUR, { force: true });
    await env.DB.prepare("DELETE FROM schedules WHERE id = ?").bind(id).run();
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(true);
    expect(await resendRequests(debtor.email)).toEqual([]);
    expect(await deliveriesOf(id)).toEqual([]);
    expect(await alarmAt(id)).toBeNull();
    expect(await doStorage(id)).toEqual({});
  });

  it("followAlarms disarm (what pausing and deleting call) removes a pending alarm: nothing fires", async () => {
    const { debtor, id, due } = await setup();
    await setSchedule(id, { next_run_at: due });
    await followAlarms({ env, db: getDb(env.DB) }, { arm: [{ id, at: Date.now() + HOUR }] });
    expect(await alarmAt(id)).not.toBeNull();
    await followAlarms({ env, db: getDb(env.DB) }, { disarm: [id] });
    expect(await alarmAt(id)).toBeNull();
    expect(await runDurableObjectAlarm(stubOf(id))).toBe(false);
    expect(await resendRequests(debtor.email)).toEqual([]);
  });
});

describe("the watchdog", () => {
  it("re-arms an overdue enabled schedule without an alarm (which then sends), keeps a pending alarm, ignores disabled and completed ones", async () => {
    const overdue = Date.now() - 10 * MINUTE;
    const lost = await setup({ timeZone: ZONE });
    await setSchedule(lost.id, { next_run_at: overdue });
    expect(await alarmAt(lost.id)).toBeNull();

    // Overdue in D1, but its object has a pending alarm (a queued reminder's net): the watchdog keeps it.
    const waiting = await setup({ timeZone: ZONE });
    await setSchedule(waiting.id, { next_run_at: overdue });
    const pending = await stubOf(waiting.id).arm(waiting.id, Date.now() + 30 * MINUTE, { force: true });

    // Overdue by only a minute: its alarm may still be on its way.
    const recent = await setup({ timeZone: ZONE });
    await setSchedule(recent.id, { next_run_at: Date.now() - MINUTE });

    const disabled = await setup();
    await setSchedule(disabled.id, { next_run_at: overdue, state: "DISABLED" });
    const completed = await setup({ frequency: "now" });
    await setSchedule(completed.id, { next_run_at: overdue, state: "COMPLETED" });

    const before = Date.now();
    const ids = await runWatchdog(env);
    expect(ids).toContain(lost.id);
    expect(ids).not.toContain(recent.id);
    expect(ids).not.toContain(disabled.id);
    expect(ids).not.toContain(completed.id);

    // The re-armed alarm fires by itself (it was due) and the reminder goes out, once.
    expect(await eventually(async () => (await scheduleRow(lost.id))!.last_run_at === overdue, 5000)).toBe(true);
    expect(await outboxFor(lost.debtor.email)).toHaveLength(1);
    expect((await outboxFor(lost.debtor.email))[0]!.idempotencyKey).toBe(await batchKeyOf([`${lost.id}:${overdue}`]));
    const s = await scheduleRow(lost.id);
    expectNextTenOClock(s!.next_run_at, before, ZONE);
    expect(await alarmAt(lost.id)).toBe(s!.next_run_at);

    expect(await alarmAt(waiting.id)).toBe(pending);
    expect(await resendRequests(waiting.debtor.email)).toEqual([]);
    for (const other of [recent, disabled, completed]) {
      expect(await alarmAt(other.id)).toBeNull();
      expect(await resendRequests(other.debtor.email)).toEqual([]);
    }
  });

  it("runs from the built Worker's cron trigger", async () => {
    const overdue = Date.now() - 6 * MINUTE;
    const lost = await setup({ timeZone: ZONE });
    await setSchedule(lost.id, { next_run_at: overdue });
    // The built Worker's scheduled() handler (wrangler.toml: every 5 minutes); it answers before
    // its waitUntil() work is done, hence the waiting below.
    const worker = exports.default as unknown as {
      scheduled(options: { scheduledTime: Date; cron: string }): Promise<unknown>;
    };
    await worker.scheduled({ scheduledTime: new Date(), cron: "*/5 * * * *" });
    expect(await eventually(async () => (await outboxFor(lost.debtor.email)).length > 0, 5000)).toBe(true);
    expect(await eventually(async () => (await scheduleRow(lost.id))!.last_run_at === overdue)).toBe(true);
    expect(await outboxFor(lost.debtor.email)).toHaveLength(1);
  });
});
