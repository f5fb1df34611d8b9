import { env } from "cloudflare:workers";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { debtorEntity } from "~/debtors/debtor-entity.server";
import { addDays } from "~/domain/cadence";
import { localDateString } from "~/domain/schedule-time";
import { invoiceEntity } from "~/ledger/invoice-entity.server";
import {
  autopilotSummary,
  getAccountCadence,
  pauseDebtors,
  saveAccountCadence,
  turnAutopilotOff,
  turnAutopilotOn,
} from "~/reminders/index.server";
import { debtorSchema } from "~/schemas/debtor";
import { daytimeZone } from "../support/daytime-zone";
import { fireAt, MINUTE, resendDelivered } from "./engine-helpers";
import {
  db,
  deliveriesOf,
  entityScopeOf,
  makeDebtor,
  makeInvoice,
  makeSchedule,
  makeUser,
  scheduleRow,
  schedulesOfDebtor,
} from "./fixtures";
import { get, postForm, signIn, uniqueEmail } from "./helpers";

/**
 * Autopilot: the account's cadence, every debtor with open invoices following it, existing
 * schedules left as they are, new debtors and invoices joining by themselves, and the summary that
 * comes before it is turned on.
 */

const scope = entityScopeOf;

const today = (zone = "UTC") => localDateString(Date.now(), zone);

/** The debtor form's fields, as the action parses them. */
const debtorInput = (fullName: string, email: string, debt: number, dueOn: string) =>
  v.parse(debtorSchema("en-US"), {
    full_name: fullName,
    email,
    debt,
    currency: "USD",
    due_on: dueOn,
    time_zone: "UTC",
  });

/** The newcomer: Acme (20 days overdue and due in 10), Bob (due today), Carla (45 days overdue). */
async function threeClients(ownerId: string) {
  // Where it is daytime now: the contact rules let the catch-ups go at once.
  const zone = daytimeZone();
  const acme = await makeDebtor(ownerId, { fullName: "Acme Ltd", invoice: false, timeZone: zone, debtCents: 200_000 });
  await makeInvoice(ownerId, acme.id, { amountCents: 120_000, dueOn: addDays(today(zone), -20)!, number: "INV-101" });
  await makeInvoice(ownerId, acme.id, { amountCents: 80_000, dueOn: addDays(today(zone), 10)!, number: "INV-107" });
  const bob = await makeDebtor(ownerId, { fullName: "Bob Smith", invoice: false, timeZone: zone, debtCents: 35_000 });
  await makeInvoice(ownerId, bob.id, { amountCents: 35_000, dueOn: today(zone), number: "INV-110" });
  // Middle Ground: its final notice would speak of "several reminders".
  const carla = await makeDebtor(ownerId, {
    fullName: "Carla GmbH",
    invoice: false,
    timeZone: zone,
    debtCents: 400_000,
    activeStrategy: 2,
  });
  await makeInvoice(ownerId, carla.id, { amountCents: 400_000, dueOn: addDays(today(zone), -45)!, number: "C-1" });
  return { acme, bob, carla };
}

describe("autopilot", () => {
  it("starts with the default cadence and off; the summary says what turning it on would do", async () => {
    const user = await makeUser();
    const account = await getAccountCadence(db(), user.id);
    expect(account).toEqual({
      cadence: { steps: [-3, 0, 7, 14, 30, 45], repeatDays: null, hour: 10 },
      autopilot: false,
      autopilotSince: null,
    });
    await threeClients(user.id);
    const summary = await autopilotSummary(db(), user.id, account.cadence, Date.now());
    expect(summary).toMatchObject({ debtors: 3, invoices: 4, overdue: 2 });
    // Acme's and Carla's overdue invoices, and Bob's due today: three e-mails today.
    expect(summary.today).toBe(3);
    const carla = summary.first.find((f) => f.name === "Carla GmbH");
    expect(carla?.what).toBe("Final Notice for C-1");
    const acme = summary.first.find((f) => f.name === "Acme Ltd");
    // 20 days overdue: past the 7 and 14 steps, so the second follow up (the catch-up, once).
    expect(acme?.what).toBe("Second follow up for INV-101");
  });

  it("turned on, every debtor with open invoices follows it at the step its age calls for; nothing twice", async () => {
    const user = await makeUser();
    const { acme, bob, carla } = await threeClients(user.id);
    // A debtor with a schedule of its own keeps it.
    const own = await makeDebtor(user.id, { fullName: "Own Cadence" });
    const ownSchedule = await makeSchedule(user.id, own.id, { frequency: "weekly" });
    const joined = await turnAutopilotOn(scope(user.id));
    expect(joined).toBe(3);
    expect((await schedulesOfDebtor(own.id)).map((s) => s.id)).toEqual([ownSchedule]);
    const [acmeSchedule] = await schedulesOfDebtor(acme.id);
    expect(acmeSchedule).toMatchObject({
      follows_account: 1,
      frequency: "due",
      cadence_steps: "-3,0,7,14,30,45",
      state: "ENABLED",
    });
    // Turning it on again adds nobody.
    expect(await turnAutopilotOn(scope(user.id))).toBe(0);
    expect(await schedulesOfDebtor(bob.id)).toHaveLength(1);

    // Carla's catch-up fires: the final notice, once; then the schedule ends.
    const [carlaSchedule] = await schedulesOfDebtor(carla.id);
    await fireAt(carlaSchedule!.id, Math.floor((Date.now() - MINUTE) / 1000) * 1000);
    expect((await deliveriesOf(carlaSchedule!.id)).map((d) => [d.status, d.template])).toEqual([
      ["sent", "final-notice"],
    ]);
    // Her first reminder ever: it speaks of no earlier one.
    const [mail] = await resendDelivered(carla.email);
    const text = String(mail?.body.text ?? "");
    expect(text).toMatch(/final notice/i);
    expect(text).not.toMatch(/several reminders|previous reminders|earlier reminder/i);
    expect(await scheduleRow(carlaSchedule!.id)).toMatchObject({ state: "COMPLETED" });
  });

  it("new debtors and new invoices join by themselves while it is on, and not while it is off", async () => {
    const user = await makeUser();
    await turnAutopilotOn(scope(user.id));
    const created = await debtorEntity.create(
      scope(user.id),
      debtorInput("Dana New", uniqueEmail("autopilot-new"), 120, addDays(today(), -8)!),
    );
    const [dana] = await schedulesOfDebtor(created.id);
    expect(dana).toMatchObject({ follows_account: 1, state: "ENABLED" });

    // A debtor with no open invoice joins when its first invoice comes.
    const bare = await makeDebtor(user.id, { invoice: false, debtCents: 0 });
    expect(await schedulesOfDebtor(bare.id)).toEqual([]);
    await invoiceEntity.add(scope(user.id), bare.id, {
      amount: 50,
      currency: "USD",
      issued_on: today(),
      due_on: addDays(today(), 14)!,
    });
    expect(await schedulesOfDebtor(bare.id)).toHaveLength(1);

    // The user pauses one follower by hand.
    expect(await pauseDebtors(scope(user.id), [bare.id])).toBe(1);
    // Off: the running followers pause, and a new debtor gets nothing.
    expect(await turnAutopilotOff(scope(user.id))).toBe(1);
    expect((await schedulesOfDebtor(created.id))[0]).toMatchObject({
      state: "DISABLED",
      stopped_reason: "autopilot_off",
      next_run_at: null,
    });
    const later = await debtorEntity.create(
      scope(user.id),
      debtorInput("Lee Later", uniqueEmail("autopilot-later"), 80, addDays(today(), 5)!),
    );
    expect(await schedulesOfDebtor(later.id)).toEqual([]);
    // On again: what turning it off paused runs again, what the user paused stays paused, the newcomer joins.
    expect(await turnAutopilotOn(scope(user.id))).toBe(1);
    expect((await schedulesOfDebtor(created.id))[0]).toMatchObject({ state: "ENABLED", stopped_reason: null });
    expect((await schedulesOfDebtor(bare.id))[0]).toMatchObject({ state: "DISABLED", stopped_reason: null });
  });

  it("a saved cadence moves every follower; a debtor's own schedule keeps its steps", async () => {
    const user = await makeUser();
    const { acme } = await threeClients(user.id);
    await turnAutopilotOn(scope(user.id));
    const following = await saveAccountCadence(scope(user.id), { steps: [0, 10, 20], repeatDays: 14, hour: 9 });
    expect(following).toBe(3);
    const [row] = await schedulesOfDebtor(acme.id);
    expect(row).toMatchObject({ cadence_steps: "0,10,20", cadence_repeat_days: 14, send_hour: 9 });
    expect((await getAccountCadence(db(), user.id)).cadence).toEqual({ steps: [0, 10, 20], repeatDays: 14, hour: 9 });
  });
});

describe("the debtors list's bulk actions", () => {
  it("follow the account cadence (an own schedule switched in place, a debtor without one joins), pause and resume", async () => {
    const a = await signIn(uniqueEmail("bulk-cadence"));
    const { acme, bob } = await threeClients(a.userId);
    const weekly = await makeSchedule(a.userId, acme.id, { frequency: "weekly" });
    const follow = await postForm(
      "/schedules/actions",
      [
        ["intent", "debtors-follow-cadence"],
        ["ids", String(acme.id)],
        ["ids", String(bob.id)],
      ],
      { cookie: a.cookie },
    );
    expect(follow.status).toBe(200);
    expect(await follow.text()).toContain("2 debtors now follow your cadence.");
    // Acme's own schedule is the one that follows now: nothing new, nothing sent twice.
    expect(await schedulesOfDebtor(acme.id)).toEqual([
      expect.objectContaining({ id: weekly, follows_account: 1, frequency: "due", state: "ENABLED" }),
    ]);
    expect(await schedulesOfDebtor(bob.id)).toEqual([expect.objectContaining({ follows_account: 1 })]);

    const pause = await postForm(
      "/schedules/actions",
      [
        ["intent", "debtors-pause"],
        ["ids", String(acme.id)],
        ["ids", String(bob.id)],
      ],
      { cookie: a.cookie },
    );
    expect(await pause.text()).toContain("Reminders paused for 2 debtors.");
    expect((await scheduleRow(weekly))?.state).toBe("DISABLED");
    const resume = await postForm(
      "/schedules/actions",
      [
        ["intent", "debtors-resume"],
        ["ids", String(acme.id)],
      ],
      { cookie: a.cookie },
    );
    expect(await resume.text()).toContain("Reminders resumed.");
    expect((await scheduleRow(weekly))?.state).toBe("ENABLED");

    // Another user's debtors: nothing changes, nothing is counted.
    const b = await signIn(uniqueEmail("bulk-other"));
    const foreign = await postForm(
      "/schedules/actions",
      [
        ["intent", "debtors-pause"],
        ["ids", String(acme.id)],
      ],
      { cookie: b.cookie },
    );
    expect(foreign.status).toBe(404);
    expect((await scheduleRow(weekly))?.state).toBe("ENABLED");
  });

  it("use another cadence: the selected debtors get one of their own, which the account's later changes leave alone", async () => {
    const a = await signIn(uniqueEmail("bulk-own"));
    const { acme, bob, carla } = await threeClients(a.userId);
    await turnAutopilotOn(scope(a.userId));
    const b = await signIn(uniqueEmail("bulk-own-other"));
    const stranger = await makeDebtor(b.userId, { fullName: "Not Yours" });
    const query = `/debtors/cadence?ids=${acme.id}&ids=${bob.id}&ids=${stranger.id}`;

    const page = await get(query, { cookie: a.cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("2 debtors: Acme Ltd, Bob Smith.");
    expect(html).not.toContain("Not Yours");
    // Only another user's debtors: nothing to show.
    expect((await get(`/debtors/cadence?ids=${stranger.id}`, { cookie: a.cookie })).status).toBe(404);

    const fields = (steps: string): [string, string][] => [
      ["ids", String(acme.id)],
      ["ids", String(bob.id)],
      ["ids", String(stranger.id)],
      ["cadence_steps", steps],
      ["send_hour", "9"],
      ["after_last", "repeat"],
      ["repeat_days", "5"],
    ];
    const bad = await postForm(query, fields("1, 2, three"), { cookie: a.cookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("1, 2, three");
    expect((await schedulesOfDebtor(acme.id))[0]).toMatchObject({ follows_account: 1 });

    const ok = await postForm(query, fields("0, 5, 10"), { cookie: a.cookie });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/debtors-list");
    for (const id of [acme.id, bob.id])
      expect(await schedulesOfDebtor(id)).toEqual([
        expect.objectContaining({ follows_account: 0, cadence_steps: "0,5,10", cadence_repeat_days: 5, send_hour: 9 }),
      ]);
    expect(await schedulesOfDebtor(stranger.id)).toEqual([]);
    // The account's cadence changes: Carla follows it, Acme and Bob keep theirs.
    expect(await saveAccountCadence(scope(a.userId), { steps: [0, 30], repeatDays: null, hour: 11 })).toBe(1);
    expect((await schedulesOfDebtor(acme.id))[0]).toMatchObject({ cadence_steps: "0,5,10" });
    expect((await schedulesOfDebtor(carla.id))[0]).toMatchObject({ cadence_steps: "0,30", follows_account: 1 });
  });
});

describe("/iam/cadence", () => {
  it("shows the summary before turning autopilot on, saves the cadence with field errors kept, and is the user's own", async () => {
    const a = await signIn(uniqueEmail("cadence-tab"));
    await threeClients(a.userId);
    const review = await get("/iam/cadence?review=autopilot", { cookie: a.cookie });
    expect(review.status).toBe(200);
    const html = await review.text();
    expect(html).toContain("3 debtors with 4 open invoices, 2 overdue: 3 e-mails will go out today");
    expect(html).toContain("Carla GmbH");

    const bad = await postForm(
      "/iam/cadence",
      { intent: "cadence-save", cadence_steps: "-3, soon", send_hour: "10", after_last: "end" },
      { cookie: a.cookie },
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("-3, soon");
    const saved = await postForm(
      "/iam/cadence",
      { intent: "cadence-save", cadence_steps: "0, 7, 21", send_hour: "9", after_last: "repeat", repeat_days: "10" },
      { cookie: a.cookie },
    );
    expect(saved.status).toBe(200);
    expect((await getAccountCadence(db(), a.userId)).cadence).toEqual({ steps: [0, 7, 21], repeatDays: 10, hour: 9 });

    const on = await postForm("/iam/cadence", { intent: "autopilot-on" }, { cookie: a.cookie });
    expect(on.status).toBe(200);
    expect(await on.text()).toContain("3 debtors follow your cadence");
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM schedules WHERE owner_id = ? AND follows_account = 1")
      .bind(a.userId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(3);
    // Another user's account is untouched by this one's switch.
    const b = await signIn(uniqueEmail("cadence-other"));
    expect((await getAccountCadence(db(), b.userId)).autopilot).toBe(false);
  });

  it("each step's template and tone: saved from the form, copied to the followers, sent as chosen", async () => {
    const a = await signIn(uniqueEmail("cadence-voices"));
    const { carla } = await threeClients(a.userId);
    const form = {
      intent: "cadence-save",
      cadence_steps: "-3, 0, 7, 14, 30, 45",
      send_hour: "10",
      after_last: "end",
      // The final notice in the aggressive tone; the due date's e-mail a follow up; the rest by place.
      voice_template_45: "",
      voice_tone_45: "3",
      voice_template_0: "follow-up",
      voice_tone_0: "",
    };
    // A value the lists do not offer is refused, and nothing is saved.
    const hostile = await postForm("/iam/cadence", { ...form, voice_template_45: "single" }, { cookie: a.cookie });
    expect(hostile.status).toBe(400);
    expect(await hostile.text()).toContain("Choose each step");
    expect((await getAccountCadence(db(), a.userId)).cadence.voices).toBeUndefined();

    const saved = await postForm("/iam/cadence", form, { cookie: a.cookie });
    expect(saved.status).toBe(200);
    // Only what was chosen is kept; the other steps go by their place, in the debtor's tone.
    expect((await getAccountCadence(db(), a.userId)).cadence.voices).toEqual({
      0: { template: "follow-up", tone: null },
      45: { template: null, tone: 3 },
    });
    const page = await (await get("/iam/cadence", { cookie: a.cookie })).text();
    expect(page).toContain("45 days after: Final Notice · Aggressive");

    await turnAutopilotOn(scope(a.userId));
    const [schedule] = await schedulesOfDebtor(carla.id);
    expect(schedule).toMatchObject({ follows_account: 1, cadence_voices: "0:follow-up:,45::3" });
    // Carla is Middle Ground; her 45-day final notice goes in the step's aggressive tone.
    await fireAt(schedule!.id, Math.floor((Date.now() - MINUTE) / 1000) * 1000);
    expect((await deliveriesOf(schedule!.id)).map((d) => [d.status, d.template, d.tone])).toEqual([
      ["sent", "final-notice", 3],
    ]);
  });
});
