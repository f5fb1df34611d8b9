import { describe, expect, it } from "vitest";
import {
  CONTACT_DEFAULTS,
  contactRules,
  contactWaitMessage,
  nextContactSlot,
  nextContactSlotIn,
} from "./contact-rules";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utc = (iso: string) => Date.parse(iso);

describe("contactRules", () => {
  it("defaults to 08:00-21:00 and 7 reminders in 7 days", () => {
    expect(contactRules()).toEqual({ startHour: 8, endHour: 21, maxPerWindow: 7, windowDays: 7 });
  });

  it("lets an account tighten every rule", () => {
    expect(contactRules({ startHour: 9, endHour: 17, maxPerWindow: 2, windowDays: 14 })).toEqual({
      startHour: 9,
      endHour: 17,
      maxPerWindow: 2,
      windowDays: 14,
    });
  });

  it("never loosens past the defaults", () => {
    expect(contactRules({ startHour: 0, endHour: 24, maxPerWindow: 50, windowDays: 1 })).toEqual(
      contactRules(CONTACT_DEFAULTS),
    );
  });

  it("falls back for an empty or nonsensical window", () => {
    expect(contactRules({ startHour: 20, endHour: 10 })).toMatchObject({ startHour: 8, endHour: 21 });
    expect(contactRules({ startHour: 8.5, maxPerWindow: Number.NaN })).toMatchObject({ startHour: 8, maxPerWindow: 7 });
  });
});

describe("nextContactSlot: quiet hours", () => {
  it("sends at once within the debtor's daytime", () => {
    const at = utc("2026-11-23T10:00:00Z");
    expect(nextContactSlot(at, "UTC", [])).toEqual({ at, reason: null });
  });

  it("defers 02:00 local to 08:00 the same local day", () => {
    // 02:00 in Tokyo (UTC+9) is 17:00 UTC the day before.
    const slot = nextContactSlot(utc("2026-11-22T17:00:00Z"), "Asia/Tokyo", []);
    expect(slot).toEqual({ at: utc("2026-11-22T23:00:00Z"), reason: "quiet-hours" });
  });

  it("defers 21:00 and later to 08:00 the next local day", () => {
    expect(nextContactSlot(utc("2026-11-23T21:00:00Z"), "UTC", []).at).toBe(utc("2026-11-24T08:00:00Z"));
    expect(nextContactSlot(utc("2026-11-23T20:59:59Z"), "UTC", []).at).toBe(utc("2026-11-23T20:59:59Z"));
  });

  it("follows DST: 08:00 in New York is 13:00 UTC in winter and 12:00 UTC in summer", () => {
    expect(nextContactSlot(utc("2026-01-15T06:00:00Z"), "America/New_York", []).at).toBe(utc("2026-01-15T13:00:00Z"));
    expect(nextContactSlot(utc("2026-07-15T06:00:00Z"), "America/New_York", []).at).toBe(utc("2026-07-15T12:00:00Z"));
  });

  it("uses the account's tighter hours", () => {
    const rules = contactRules({ startHour: 9, endHour: 17 });
    expect(nextContactSlot(utc("2026-11-23T17:30:00Z"), "UTC", [], rules).at).toBe(utc("2026-11-24T09:00:00Z"));
  });
});

describe("nextContactSlot: contact cap", () => {
  const at = utc("2026-11-23T10:00:00Z");
  const sixDays = Array.from({ length: 7 }, (_, i) => at - (i + 1) * 20 * HOUR);

  it("lets the 7th reminder in 7 days go", () => {
    expect(nextContactSlot(at, "UTC", sixDays.slice(0, 6))).toEqual({ at, reason: null });
  });

  it("defers the 8th until the oldest of the 7 leaves the window", () => {
    const oldest = Math.min(...sixDays);
    const slot = nextContactSlot(at, "UTC", sixDays);
    expect(slot.at).toBe(oldest + 7 * DAY);
    expect(slot.reason).toBe("contact-cap");
  });

  it("then waits for daytime too when the cap frees up at night", () => {
    // The oldest reminder was at 23:00, so room comes at 23:00 seven days later: deferred to 08:00.
    const night = utc("2026-11-16T23:00:00Z");
    const sent = [night, ...Array.from({ length: 6 }, (_, i) => night + (i + 1) * 12 * HOUR)];
    const slot = nextContactSlot(utc("2026-11-20T10:00:00Z"), "UTC", sent);
    expect(slot).toEqual({ at: utc("2026-11-24T08:00:00Z"), reason: "quiet-hours" });
  });

  it("ignores reminders after the moment or older than the window", () => {
    const old = [at - 8 * DAY, at - 9 * DAY, at + HOUR];
    expect(nextContactSlot(at, "UTC", [...old, ...sixDays.slice(0, 6)])).toEqual({ at, reason: null });
  });

  it("is never earlier than asked", () => {
    for (let h = 0; h < 48; h++) {
      const t = at + h * HOUR;
      expect(nextContactSlot(t, "Pacific/Auckland", sixDays).at).toBeGreaterThanOrEqual(t);
    }
  });
});

describe("contactWaitMessage", () => {
  const rules = contactRules();
  it("says when and why", () => {
    expect(contactWaitMessage({ at: 0, reason: "quiet-hours" }, rules, "Nov 24, 2026, 8:00 AM")).toBe(
      "Waiting for the debtor's daytime (8:00–21:00 in their time zone): goes out Nov 24, 2026, 8:00 AM.",
    );
    expect(contactWaitMessage({ at: 0, reason: "contact-cap" }, rules, "Nov 30, 2026, 10:00 AM")).toMatch(
      /got 7 reminders \(e-mails and texts\) in the last 7 days/,
    );
    expect(contactWaitMessage({ at: 0, reason: null }, rules, "x")).toBeNull();
  });
});

describe("nextContactSlotIn: a text keeps the daytime of every zone it concerns", () => {
  it("goes at once when it is daytime in each zone", () => {
    const at = utc("2026-11-23T12:00:00Z"); // 12:00 London, 13:00 Paris
    expect(nextContactSlotIn(at, ["Europe/London", "Europe/Paris"], [])).toEqual({ at, reason: null });
  });

  it("waits for the later morning of two zones", () => {
    // 07:30 in London is 08:30 in Paris: London's 08:00 is the first moment both allow.
    const slot = nextContactSlotIn(utc("2026-11-23T07:30:00Z"), ["Europe/Paris", "Europe/London"], []);
    expect(slot).toEqual({ at: utc("2026-11-23T08:00:00Z"), reason: "quiet-hours" });
  });

  it("stops at the earlier evening: 20:30 in Paris is 21:30 in Helsinki, so the next morning there", () => {
    const slot = nextContactSlotIn(utc("2026-11-23T19:30:00Z"), ["Europe/Paris", "Europe/Helsinki"], []);
    // Helsinki's 08:00 (06:00Z) is Paris's 07:00: Paris's 08:00 (07:00Z) is the first both allow.
    expect(slot).toEqual({ at: utc("2026-11-24T07:00:00Z"), reason: "quiet-hours" });
  });

  it("keeps DST on each side: New York and London in March, when only the US has changed", () => {
    // 2026-03-09: New York is UTC-4, London still UTC+0. 12:30Z is 08:30 in New York, 12:30 in London.
    expect(nextContactSlotIn(utc("2026-03-09T11:30:00Z"), ["America/New_York", "Europe/London"], []).at).toBe(
      utc("2026-03-09T12:00:00Z"),
    );
  });

  it("with the default hours any two zones share some daytime: Tokyo and New York at 23:00–02:00 UTC", () => {
    const slot = nextContactSlotIn(utc("2026-11-23T02:30:00Z"), ["Asia/Tokyo", "America/New_York"], []);
    expect(slot).toEqual({ at: utc("2026-11-23T23:00:00Z"), reason: "quiet-hours" });
  });

  it("when tightened hours never meet, keeps the first zone's (the debtor's) and never its night", () => {
    const rules = contactRules({ startHour: 9, endHour: 17 });
    const at = utc("2026-11-23T20:00:00Z"); // 20:00 in London, 05:00 in Tokyo: 9–17 never meets 9–17 there
    const slot = nextContactSlotIn(at, ["Europe/London", "Asia/Tokyo"], [], rules);
    expect(slot).toEqual(nextContactSlot(at, "Europe/London", [], rules));
    expect(slot.at).toBe(utc("2026-11-24T09:00:00Z"));
  });

  it("counts the cap as the single-zone rule does, e-mails and texts alike", () => {
    const at = utc("2026-11-23T12:00:00Z");
    const sent = Array.from({ length: CONTACT_DEFAULTS.maxPerWindow }, (_, i) => at - (i + 1) * HOUR);
    const slot = nextContactSlotIn(at, ["Europe/London", "Europe/Paris"], sent);
    // Room again a week after the oldest of them (05:00 UTC), then London's morning.
    expect(slot.at).toBe(utc("2026-11-30T08:00:00Z"));
    expect(slot.at).toBe(nextContactSlot(at, "Europe/London", sent).at);
  });
});
