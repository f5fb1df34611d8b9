import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { instantAtLocalHour } from "~/domain/schedule-time";
import { createSchedule } from "~/reminders/writes.server";
import { fireAndSend, HOUR, MINUTE } from "./engine-helpers";

const DAY = 24 * HOUR;

import { alarmStub, db, deliveriesOf, eventsOf, makeDebtor, makeInvoice, makeUser, withAlarms } from "./fixtures";
import { outboxFor } from "./helpers";

/**
 * Text steps through the real engine (decisions/070): the alarm's claim decides what a step sends
 * (its channel, the debtor's mobile, consent, STOP, the account's countries, the month's texts),
 * the mail queue's consumer sends the text through the one client (here its local stand-in) under
 * the occurrence's key, and the contact rules count texts and e-mails together, in the daytime of
 * both the debtor's zone and their number's.
 */

let seq = 0;
/** A fresh valid UK mobile (libphonenumber's rules: 074xx is a mobile range). */
const freshMobile = () =>
  `+4474${String(Date.now() % 100_000).padStart(5, "0")}${String(++seq % 1000).padStart(3, "0")}`;

/** 2026-11-17, the 7th day after the invoice fell due: 10:00 in `zone`. */
const stepDay = (zone: string, hour = 10) => instantAtLocalHour(2026, 11, 17, hour, zone);

interface Setup {
  zone?: string;
  consent?: boolean;
  channel?: "text" | "both";
  used?: number;
  countries?: string;
}

/** A user with texts on, a debtor with a UK mobile and one invoice due 2026-11-10, a due-date schedule whose day-7 step texts. */
async function textStep(o: Setup = {}) {
  const zone = o.zone ?? "Europe/London";
  const user = await makeUser();
  const phone = freshMobile();
  const debtor = await makeDebtor(user.id, { timeZone: zone, invoice: false, debtCents: 25_000 });
  await makeInvoice(user.id, debtor.id, { amountCents: 25_000, dueOn: "2026-11-10", currency: "GBP" });
  await env.DB.batch([
    env.DB.prepare("UPDATE debtors SET phone = ?, text_consent_at = ?, text_consent_by = ? WHERE id = ?").bind(
      phone,
      o.consent === false ? null : Date.now(),
      o.consent === false ? null : user.email,
      debtor.id,
    ),
    env.DB.prepare("INSERT INTO text_settings (owner_id, enabled, countries) VALUES (?, 1, ?)").bind(
      user.id,
      o.countries ?? "GB",
    ),
    ...(o.used === undefined
      ? []
      : [
          env.DB.prepare("INSERT INTO text_usage (owner_id, month, used) VALUES (?, '2026-11', ?)").bind(
            user.id,
            o.used,
          ),
        ]),
  ]);
  const result = await createSchedule(
    { env: withAlarms(alarmStub()), db: db(), ownerId: user.id, now: Date.now() },
    {
      kind: "person",
      debtor_id: debtor.id,
      preset: "FRIENDLY_REMINDER",
      frequency: "due",
      time_zone: zone,
      cadence_steps: "0, 7, 14",
      after_last: "end",
      send_hour: 10,
    },
  );
  if (!("schedule" in result)) throw new Error(JSON.stringify(result));
  const id = result.schedule.id;
  const at = stepDay(zone);
  await env.DB.prepare("UPDATE schedules SET cadence_voices = ?, next_run_at = ? WHERE id = ?")
    .bind(`7:::${o.channel ?? "text"}`, at, id)
    .run();
  return { user, debtor: { ...debtor, phone }, id, at };
}

async function textsTo(phone: string) {
  const { results } = await env.DB.prepare(
    'SELECT idempotency_key, body, status, delivery_id FROM text_messages WHERE "to" = ? ORDER BY id',
  )
    .bind(phone)
    .all<{ idempotency_key: string; body: string; status: string; delivery_id: number | null }>();
  return results;
}

async function used(ownerId: string) {
  const row = await env.DB.prepare("SELECT used FROM text_usage WHERE owner_id = ? AND month = '2026-11'")
    .bind(ownerId)
    .first<{ used: number }>();
  return row?.used ?? 0;
}

describe("a text step", () => {
  it("texts the debtor once, with the amount, the days overdue, a short link and the STOP line; no e-mail", async () => {
    const { user, debtor, id, at } = await textStep();
    expect(await fireAndSend(id, at + MINUTE)).toMatchObject({ kind: "done", status: "sent" });

    const [row, ...others] = await deliveriesOf(id);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      status: "sent",
      channel: "text",
      recipient: debtor.phone,
      occurrence_key: `${id}:${at}`,
    });
    const texts = await textsTo(debtor.phone);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ idempotency_key: `${id}:${at}`, delivery_id: row?.id });
    expect(texts[0]?.body).toMatch(/£250\.00 is 7 days overdue\./);
    expect(texts[0]?.body).toMatch(/https?:\/\/[^ ]+\/t\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/);
    expect(texts[0]?.body.endsWith("Reply STOP to opt out.")).toBe(true);
    expect([...(texts[0]?.body ?? "")].length).toBeLessThanOrEqual(320);
    expect(await outboxFor(debtor.email)).toHaveLength(0);
    expect(await used(user.id)).toBe(1);

    // The same occurrence fired again (a stray alarm, the watchdog) texts nobody twice.
    await env.DB.prepare("UPDATE schedules SET next_run_at = ? WHERE id = ?").bind(at, id).run();
    await fireAndSend(id, at + 2 * MINUTE);
    expect(await textsTo(debtor.phone)).toHaveLength(1);
    expect(await used(user.id)).toBe(1);
  });

  it("goes by e-mail when the debtor may not be texted (no consent), so no step is dropped", async () => {
    const { debtor, id, at } = await textStep({ consent: false });
    expect(await fireAndSend(id, at + MINUTE)).toMatchObject({ kind: "done", status: "sent" });
    const [row] = await deliveriesOf(id);
    expect(row).toMatchObject({ channel: "email", status: "sent" });
    expect(await textsTo(debtor.phone)).toEqual([]);
    expect(await outboxFor(debtor.email)).toHaveLength(1);
  });

  it("goes by e-mail to a number of a country the account did not enable", async () => {
    const { debtor, id, at } = await textStep({ countries: "IE" });
    await fireAndSend(id, at + MINUTE);
    expect(await textsTo(debtor.phone)).toEqual([]);
    expect(await outboxFor(debtor.email)).toHaveLength(1);
  });

  it("a number that texted STOP gets no text: the step goes by e-mail", async () => {
    const { user, debtor, id, at } = await textStep();
    await env.DB.prepare("INSERT INTO text_opt_outs (owner_id, number, source, at) VALUES (?, ?, 'keyword', ?)")
      .bind(user.id, debtor.phone, Date.now())
      .run();
    await fireAndSend(id, at + MINUTE);
    expect(await textsTo(debtor.phone)).toEqual([]);
    expect(await outboxFor(debtor.email)).toHaveLength(1);
  });

  it("past the month's texts a text-only step waits for the next month and the user is told once", async () => {
    // The trial's plan (Medium) has 100 texts a month.
    const { user, debtor, id, at } = await textStep({ used: 100 });
    const held = await fireAndSend(id, at + MINUTE);
    expect(held).toMatchObject({ kind: "deferred", nextAlarmAt: Date.UTC(2026, 11, 1) });
    expect(held.kind === "deferred" && held.reason).toMatch(
      /100 text messages this month are used\. Texts go again on/,
    );
    expect(await textsTo(debtor.phone)).toEqual([]);
    expect(await outboxFor(debtor.email)).toHaveLength(0);
    expect(await used(user.id)).toBe(100);
    const notices = async () =>
      (
        await env.DB.prepare("SELECT count(*) AS n FROM user_notifications WHERE owner_id = ? AND kind = 'text_held'")
          .bind(user.id)
          .first<{ n: number }>()
      )?.n;
    expect(await notices()).toBe(1);
    expect((await eventsOf(debtor.id)).filter((e) => e.type === "text_held")).toHaveLength(1);
    // Looked at again before the month ends: still waiting, told once.
    await fireAndSend(id, at + HOUR);
    expect(await notices()).toBe(1);
  });

  it("a step sending both: the e-mail and its companion text, each once; past the allowance the text is recorded skipped", async () => {
    const both = await textStep({ channel: "both" });
    await fireAndSend(both.id, both.at + MINUTE);
    const rows = await deliveriesOf(both.id);
    expect(rows.map((r) => [r.channel, r.status]).sort()).toEqual([
      ["email", "sent"],
      ["text", "sent"],
    ]);
    expect(rows.find((r) => r.channel === "text")?.occurrence_key).toBe(`${both.id}:${both.at}:text`);
    expect(await textsTo(both.debtor.phone)).toHaveLength(1);
    expect(await outboxFor(both.debtor.email)).toHaveLength(1);

    const spent = await textStep({ channel: "both", used: 100 });
    await fireAndSend(spent.id, spent.at + MINUTE);
    const spentRows = await deliveriesOf(spent.id);
    expect(spentRows.find((r) => r.channel === "email")?.status).toBe("sent");
    expect(spentRows.find((r) => r.channel === "text")).toMatchObject({
      status: "skipped",
      error: expect.stringMatching(/text messages are used up/),
    });
    expect(await textsTo(spent.debtor.phone)).toEqual([]);
  });

  it("keeps the daytime of the debtor's zone and of their number's country, under one cap for texts and e-mails", async () => {
    // 10:00 in Tokyo is 01:00 in London: the British mobile waits for 08:00 there (17:00 in Tokyo).
    const { debtor, id, at } = await textStep({ zone: "Asia/Tokyo" });
    const held = await fireAndSend(id, at + MINUTE);
    expect(held).toMatchObject({ kind: "deferred", nextAlarmAt: instantAtLocalHour(2026, 11, 17, 8, "Europe/London") });
    expect(await textsTo(debtor.phone)).toEqual([]);
    expect(await fireAndSend(id, instantAtLocalHour(2026, 11, 17, 8, "Europe/London"))).toMatchObject({
      kind: "done",
      status: "sent",
    });
    expect(await textsTo(debtor.phone)).toHaveLength(1);
  });

  it("counts texts and e-mails under one contact cap: an e-mail yesterday holds today's text, a text holds the next e-mail", async () => {
    const { user, debtor, id, at } = await textStep();
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET contact_cap = 1 WHERE id = ?").bind(user.id),
      env.DB.prepare(
        "INSERT INTO deliveries (owner_id, debtor_id, occurrence_key, template, tone, status, recipient, channel, created_at, sent_at) VALUES (?, ?, ?, 'initial', 1, 'sent', ?, 'email', ?, ?)",
      ).bind(user.id, debtor.id, `earlier:${crypto.randomUUID()}`, debtor.email, at - 20 * HOUR, at - 20 * HOUR),
    ]);
    const held = await fireAndSend(id, at + MINUTE);
    expect(held).toMatchObject({ kind: "deferred" });
    expect(held.kind === "deferred" && held.reason).toMatch(
      /^The debtor got 1 reminder \(e-mails and texts\) in the last 7 days/,
    );
    expect(await textsTo(debtor.phone)).toEqual([]);

    // The other way: a text sent counts against the next e-mail.
    const other = await textStep({ channel: "text" });
    await env.DB.prepare("UPDATE users SET contact_cap = 1 WHERE id = ?").bind(other.user.id).run();
    expect(await fireAndSend(other.id, other.at + MINUTE)).toMatchObject({ kind: "done", status: "sent" });
    // Day 14 is an e-mail step; seven days later the text is out of the window, so look the next day.
    await env.DB.prepare("UPDATE schedules SET cadence_voices = NULL, next_run_at = ? WHERE id = ?")
      .bind(other.at + DAY, other.id)
      .run();
    const next = await fireAndSend(other.id, other.at + DAY + MINUTE);
    expect(next).toMatchObject({ kind: "deferred" });
    expect(await outboxFor(other.debtor.email)).toHaveLength(0);
  });
});
