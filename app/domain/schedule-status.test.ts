import { describe, expect, it } from "vitest";
import { scheduleStatus } from "./schedule-status";

describe("scheduleStatus: holds on the debtor's word", () => {
  const base = { state: "DISABLED", frequency: "daily", nextRunAt: null };

  it("a promise to pay: Held, with who promised, by when, and when reminders resume", () => {
    expect(
      scheduleStatus({ ...base, stoppedReason: "promised", debtorName: "Ana Ruiz", debtorPromisedOn: "2026-12-30" }),
    ).toEqual({
      kind: "held",
      label: "Held",
      nextRunAt: null,
      note: "Held: Ana Ruiz promised to pay by Dec 30, 2026; reminders resume on Dec 31, 2026.",
    });
    // The promise already ended (the watchdog resumes it on its next run): no date to name.
    expect(scheduleStatus({ ...base, stoppedReason: "promised" }).note).toBe(
      "Held: the debtor promised to pay; reminders resume the day after the promised date.",
    );
  });

  it("a dispute: Held until the user resolves it", () => {
    expect(scheduleStatus({ ...base, stoppedReason: "plan_requested", debtorName: "Ana Ruiz" })).toMatchObject({
      kind: "held",
      note: "Held: Ana Ruiz asked for a payment plan; accept, change or decline it on their page to resume reminders.",
    });
    expect(scheduleStatus({ ...base, stoppedReason: "disputed" })).toMatchObject({
      kind: "held",
      label: "Held",
      note: "Held: every invoice still owed is disputed, not chased or on a payment plan. Resolve the dispute, or chase an invoice again, on the debtor's page to resume reminders; a payment plan chases its own instalments.",
    });
  });

  it("autopilot turned off: Paused, and the user may resume it", () => {
    expect(scheduleStatus({ ...base, stoppedReason: "autopilot_off" })).toEqual({
      kind: "paused",
      label: "Paused",
      nextRunAt: null,
      note: "Paused when autopilot was turned off: turning it on again resumes it, or resume it here.",
    });
  });

  it("an e-mail reply: Held until the user handles it (decisions/020)", () => {
    expect(scheduleStatus({ ...base, stoppedReason: "replied", debtorName: "Ana Ruiz" })).toMatchObject({
      kind: "held",
      note: "Held: Ana Ruiz replied; handle the reply to resume reminders.",
    });
  });

  it("a schedule the user paused is still Paused", () => {
    expect(scheduleStatus({ ...base, stoppedReason: null }).label).toBe("Paused");
  });
});
