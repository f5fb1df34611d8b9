import { describe, expect, it } from "vitest";
import { CONTACT_DEFAULTS, contactRules, contactWaitMessage, nextContactSlot } from "./contact-rules";

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
      /got 7 reminders in the last 7 days/,
    );
    expect(contactWaitMessage({ at: 0, reason: null }, rules, "x")).toBeNull();
  });
});
