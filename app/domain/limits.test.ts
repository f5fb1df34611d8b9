import { describe, expect, it } from "vitest";
import { formatDateTime } from "./dates";
import {
  DAILY_REMINDERS_BY_PLAN,
  DEFAULT_PLAN,
  deferralMessage,
  LIMIT_WINDOW_MS,
  limitWait,
  type ManualTarget,
  manualSendRefusal,
  nextRoomAt,
  RECIPIENT_DAILY_LIMIT,
  RESEND_MAX_DEBTORS,
  recipientKey,
  resendCapRefusal,
  sendingLimits,
} from "./limits";
import { PLANS as plans } from "./plans";

const HOUR = 60 * 60_000;
const NOW = Date.UTC(2026, 10, 21, 13, 15); // Nov 21, 2026, 13:15 UTC
const limits = { accountDaily: 5, recipientDaily: 3 };

describe("sendingLimits", () => {
  it("has a daily quota for every plan of the pricing page, growing with the plan", () => {
    expect(Object.keys(DAILY_REMINDERS_BY_PLAN).sort()).toEqual(plans.map((p) => p.id).sort());
    expect(DAILY_REMINDERS_BY_PLAN.soft).toBeLessThan(DAILY_REMINDERS_BY_PLAN.medium);
    expect(DAILY_REMINDERS_BY_PLAN.medium).toBeLessThan(DAILY_REMINDERS_BY_PLAN.aggressive);
  });
  it("gives each plan its quota and the same per-address cap", () => {
    for (const plan of ["soft", "medium", "aggressive"] as const) {
      expect(sendingLimits(plan)).toEqual({
        accountDaily: DAILY_REMINDERS_BY_PLAN[plan],
        recipientDaily: RECIPIENT_DAILY_LIMIT,
      });
    }
  });
  it.each([null, undefined, "", "enterprise", "toString", "__proto__"])(
    "an unknown plan (%j) gets the default",
    (plan) => {
      expect(sendingLimits(plan)).toEqual(sendingLimits(DEFAULT_PLAN));
    },
  );
});

describe("recipientKey", () => {
  it("trims and lower-cases", () => {
    expect(recipientKey("  Ada.Lovelace@Example.COM ")).toBe("ada.lovelace@example.com");
  });
});

describe("nextRoomAt", () => {
  it("is null while the window has room", () => {
    expect(nextRoomAt([], 3)).toBeNull();
    expect(nextRoomAt([NOW - HOUR, NOW], 3)).toBeNull();
  });
  it("at the limit: when the oldest leaves the window", () => {
    expect(nextRoomAt([NOW, NOW - 2 * HOUR, NOW - HOUR], 3)).toBe(NOW - 2 * HOUR + LIMIT_WINDOW_MS);
  });
  it("over the limit (a lowered limit): when enough have left for one more", () => {
    const counted = [NOW - 5 * HOUR, NOW - 4 * HOUR, NOW - 3 * HOUR, NOW - 2 * HOUR, NOW - HOUR];
    // Limit 3: the three oldest must leave, so the third oldest decides.
    expect(nextRoomAt(counted, 3)).toBe(NOW - 3 * HOUR + LIMIT_WINDOW_MS);
  });
});

describe("limitWait", () => {
  it("names the limit that holds back, the later one when both do", () => {
    const full = [NOW - 3 * HOUR, NOW - 2 * HOUR, NOW - HOUR];
    expect(limitWait({ account: [], recipient: [] }, limits)).toBeNull();
    expect(limitWait({ account: [], recipient: full }, limits)).toEqual({
      limit: "recipient",
      max: 3,
      until: NOW - 3 * HOUR + LIMIT_WINDOW_MS,
    });
    const accountFull = [1, 2, 3, 4, 5].map((h) => NOW - h * HOUR);
    // The account has room again 5 h before the address does: the address decides.
    expect(limitWait({ account: accountFull, recipient: full }, limits)).toEqual({
      limit: "recipient",
      max: 3,
      until: NOW - 3 * HOUR + LIMIT_WINDOW_MS,
    });
    expect(limitWait({ account: accountFull.map((t) => t + 10 * HOUR), recipient: full }, limits)).toEqual({
      limit: "account",
      max: 5,
      until: NOW + 5 * HOUR + LIMIT_WINDOW_MS,
    });
  });
});

describe("messages", () => {
  it("formats instants in the given zone", () => {
    expect(formatDateTime(NOW, "UTC")).toMatch(/^Nov 21, 2026, 1:15\sPM$/);
    expect(formatDateTime(NOW, "Asia/Tokyo")).toMatch(/^Nov 21, 2026, 10:15\sPM$/);
  });
  it("says why a delivery waits and until when", () => {
    const until = NOW + HOUR;
    expect(deferralMessage({ limit: "account", max: 10, until }, "ada@example.com", "UTC")).toMatch(
      /^Daily limit of 10 reminders reached for this account\. It will be sent after Nov 21, 2026, 2:15\sPM\.$/,
    );
    expect(deferralMessage({ limit: "recipient", max: 3, until }, "ada@example.com", "UTC")).toMatch(
      /^Daily limit of 3 reminders to ada@example\.com reached\. It will be sent after Nov 21, 2026, 2:15\sPM\.$/,
    );
    expect(deferralMessage(null, "ada@example.com", "UTC")).toBe("Waiting for a sending limit.");
  });
});

describe("resendCapRefusal", () => {
  it("allows up to RESEND_MAX_DEBTORS debtors", () => {
    expect(resendCapRefusal(1)).toBeNull();
    expect(resendCapRefusal(RESEND_MAX_DEBTORS)).toBeNull();
    expect(resendCapRefusal(RESEND_MAX_DEBTORS + 1)).toBe(
      `Re-send reminders to at most ${RESEND_MAX_DEBTORS} debtors at a time (${RESEND_MAX_DEBTORS + 1} selected).`,
    );
  });
});

describe("manualSendRefusal", () => {
  const ada: ManualTarget = { name: "Ada Lovelace", email: "Ada@Example.com", lastReminderAt: null, waiting: false };
  const bob: ManualTarget = { name: "Bob Babbage", email: "bob@example.com", lastReminderAt: null, waiting: false };
  const none = { account: [], recipients: {} };

  it("lets a send within every limit go", () => {
    expect(manualSendRefusal({ targets: [ada, bob], ...none }, limits, NOW, "UTC")).toBeNull();
  });

  it("refuses a debtor who got a reminder less than 24 hours ago, saying when the next is allowed, in the user's zone", () => {
    const sentAt = NOW - 15 * HOUR; // Nov 20, 22:15 UTC → next after Nov 21, 22:15 UTC = Nov 22, 07:15 in Tokyo
    const message = manualSendRefusal(
      { targets: [{ ...ada, lastReminderAt: sentAt }], ...none },
      limits,
      NOW,
      "Asia/Tokyo",
    );
    expect(message).toMatch(
      /^Ada Lovelace got a reminder less than 24 hours ago\. The next one can be sent after Nov 22, 2026, 7:15\sAM\.$/,
    );
    // Exactly 24 hours later it may go again.
    expect(
      manualSendRefusal({ targets: [{ ...ada, lastReminderAt: NOW - LIMIT_WINDOW_MS }], ...none }, limits, NOW, "UTC"),
    ).toBeNull();
  });

  it("names the first blocked debtor and counts the others; one is enough to refuse all", () => {
    const message = manualSendRefusal(
      {
        targets: [
          bob,
          { ...ada, lastReminderAt: NOW - HOUR },
          { name: "Cy", email: "c@x.io", lastReminderAt: null, waiting: true },
        ],
        ...none,
      },
      limits,
      NOW,
      "UTC",
    );
    expect(message).toMatch(
      /^Ada Lovelace got a reminder less than 24 hours ago\. .* The same goes for 1 more of the selected debtors; nothing was sent\.$/,
    );
  });

  it("refuses a debtor whose reminder is already waiting", () => {
    expect(manualSendRefusal({ targets: [{ ...ada, waiting: true }], ...none }, limits, NOW, "UTC")).toBe(
      "A reminder to Ada Lovelace is already waiting to be sent.",
    );
  });

  it("refuses when an address would get more than the per-address cap, counting other accounts' reminders", () => {
    const twoToday = { account: [], recipients: { "ada@example.com": [NOW - 2 * HOUR, NOW - HOUR] } };
    expect(manualSendRefusal({ targets: [ada], ...twoToday }, limits, NOW, "UTC")).toBeNull();
    expect(
      manualSendRefusal({ targets: [ada, { ...bob, email: "ADA@example.com " }], ...twoToday }, limits, NOW, "UTC"),
    ).toBe(
      "At most 3 reminders a day can go to one address, and ada@example.com would get 4. Select fewer debtors with that address.",
    );
    const full = { account: [], recipients: { "ada@example.com": [NOW - 3 * HOUR, NOW - 2 * HOUR, NOW - HOUR] } };
    expect(manualSendRefusal({ targets: [ada], ...full }, limits, NOW, "UTC")).toMatch(
      /^ada@example\.com got 3 reminders in the last 24 hours, the most one address may get\. The next one can be sent after Nov 22, 2026, 10:15\sAM\.$/,
    );
  });

  it("refuses when the account's daily quota cannot take the selection", () => {
    const four = { account: [1, 2, 3, 4].map((h) => NOW - h * HOUR), recipients: {} };
    expect(manualSendRefusal({ targets: [ada], ...four }, limits, NOW, "UTC")).toBeNull();
    expect(manualSendRefusal({ targets: [ada, bob], ...four }, limits, NOW, "UTC")).toBe(
      "Daily limit of 5 reminders for this account: only 1 more can be sent now, and 2 were selected.",
    );
    const five = { account: [1, 2, 3, 4, 5].map((h) => NOW - h * HOUR), recipients: {} };
    expect(manualSendRefusal({ targets: [ada], ...five }, limits, NOW, "UTC")).toMatch(
      /^Daily limit of 5 reminders reached for this account\. The next one can be sent after Nov 22, 2026, 8:15\sAM\.$/,
    );
  });

  it("ignores what has left the window", () => {
    const old = NOW - LIMIT_WINDOW_MS - 1;
    expect(
      manualSendRefusal(
        { targets: [ada], account: [old, old, old, old, old], recipients: { "ada@example.com": [old, old, old] } },
        limits,
        NOW,
        "UTC",
      ),
    ).toBeNull();
  });
});
