import { describe, expect, it } from "vitest";
import {
  addDays,
  type Cadence,
  cadenceSummary,
  cadenceTemplate,
  DEFAULT_CADENCE,
  nextCadenceRun,
  parseSteps,
  stageAt,
  stepDatesFrom,
} from "./cadence";

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const at = (text: string) => Date.parse(text);

/** Every run of a cadence from `start`, firing each as soon as it is due (a fake clock), at most `max`. */
function runs(c: Cadence, dueDates: string[], start: number, tz: string, max = 20) {
  const out: string[] = [];
  let after = start;
  for (let i = 0; i < max; i++) {
    const next = nextCadenceRun(c, dueDates, after, tz);
    if (!next) break;
    out.push(iso(next.at) ?? "");
    after = next.at;
  }
  return out;
}

describe("parseSteps", () => {
  it("reads offsets in any order, with spaces, semicolons and a typographic minus", () => {
    expect(parseSteps("-3, 0, 3, 7, 14")).toEqual([-3, 0, 3, 7, 14]);
    expect(parseSteps("14 7;3,0 \u22123")).toEqual([-3, 0, 3, 7, 14]);
    expect(parseSteps("7, 7, -0")).toEqual([0, 7]);
  });
  it("refuses what is not a list of whole days in range", () => {
    for (const bad of ["", " , ", "1.5", "abc", "3 days", "-61", "366", "1,2,3,4,5,6,7,8,9,10,11", "1e2"]) {
      expect(parseSteps(bad), bad).toBeNull();
    }
  });
});

describe("nextCadenceRun", () => {
  it("sends each step at the hour in the debtor's zone, across the end of summer time (New York)", () => {
    // Due Monday 2 November 2026; clocks went back on Sunday 1 November.
    const c: Cadence = { steps: [-3, 0, 3, 7, 14], repeatDays: null, hour: 10 };
    expect(runs(c, ["2026-11-02"], at("2026-10-20T00:00:00Z"), "America/New_York")).toEqual([
      "2026-10-30T14:00:00.000Z", // EDT, UTC-4
      "2026-11-02T15:00:00.000Z", // EST, UTC-5
      "2026-11-05T15:00:00.000Z",
      "2026-11-09T15:00:00.000Z",
      "2026-11-16T15:00:00.000Z",
    ]);
  });

  it("and across the start of summer time (Berlin), at the chosen hour", () => {
    const c: Cadence = { steps: [-1, 0, 1], repeatDays: null, hour: 9 };
    expect(runs(c, ["2026-03-29"], at("2026-03-01T00:00:00Z"), "Europe/Berlin")).toEqual([
      "2026-03-28T08:00:00.000Z", // CET, UTC+1
      "2026-03-29T07:00:00.000Z", // CEST from 02:00 that night
      "2026-03-30T07:00:00.000Z",
    ]);
  });

  it("counts the debtor's calendar date far from UTC (Kiritimati +14, Pago Pago -11)", () => {
    const c: Cadence = { steps: [0], repeatDays: null, hour: 10 };
    // 10:00 on 15 December in Kiritimati is 20:00 on 14 December UTC.
    expect(runs(c, ["2026-12-15"], at("2026-12-01T00:00:00Z"), "Pacific/Kiritimati")).toEqual([
      "2026-12-14T20:00:00.000Z",
    ]);
    // 10:00 on 15 December in Pago Pago is 21:00 UTC the same day.
    expect(runs(c, ["2026-12-15"], at("2026-12-01T00:00:00Z"), "Pacific/Pago_Pago")).toEqual([
      "2026-12-15T21:00:00.000Z",
    ]);
    // At 22:00 UTC on 14 December it is already the 15th, 12:00, in Kiritimati: today's step has passed.
    expect(nextCadenceRun(c, ["2026-12-15"], at("2026-12-14T22:00:00Z"), "Pacific/Kiritimati")).toBeNull();
  });

  it("skips the steps already past and starts with the next one", () => {
    const runsFrom = runs(DEFAULT_CADENCE, ["2026-11-20"], at("2026-11-24T12:00:00Z"), "UTC");
    expect(runsFrom).toEqual(["2026-11-27T10:00:00.000Z", "2026-12-04T10:00:00.000Z"]);
  });

  it("ends after the last step (null, once), or repeats every N days until paid", () => {
    const end = nextCadenceRun(DEFAULT_CADENCE, ["2026-11-01"], at("2026-11-15T10:00:00Z"), "UTC");
    expect(end).toBeNull();
    const repeating = { ...DEFAULT_CADENCE, repeatDays: 10 };
    expect(runs(repeating, ["2026-11-01"], at("2026-11-15T09:00:00Z"), "UTC", 3)).toEqual([
      "2026-11-15T10:00:00.000Z", // the last step (+14)
      "2026-11-25T10:00:00.000Z",
      "2026-12-05T10:00:00.000Z",
    ]);
    // Created long after the last step: the next repeat on the step's rhythm.
    expect(iso(nextCadenceRun(repeating, ["2026-01-01"], at("2026-03-01T00:00:00Z"), "UTC")?.at)).toBe(
      "2026-03-06T10:00:00.000Z", // 1 January + 14 + 5 × 10 days
    );
  });

  it("follows each open invoice: a paid one stops its steps, an added one joins, a moved due date moves them", () => {
    const c: Cadence = { steps: [0, 7], repeatDays: null, hour: 10 };
    const start = at("2026-11-01T00:00:00Z");
    expect(runs(c, ["2026-11-10", "2026-11-12"], start, "UTC")).toEqual([
      "2026-11-10T10:00:00.000Z",
      "2026-11-12T10:00:00.000Z",
      "2026-11-17T10:00:00.000Z",
      "2026-11-19T10:00:00.000Z",
    ]);
    // The second invoice is paid after the first step: only the first's steps are left.
    expect(runs(c, ["2026-11-10"], at("2026-11-10T10:00:00Z"), "UTC")).toEqual(["2026-11-17T10:00:00.000Z"]);
    // An invoice added on the 11th, due the 13th, joins on its own due date, before the first's next step.
    expect(iso(nextCadenceRun(c, ["2026-11-10", "2026-11-13"], at("2026-11-11T08:00:00Z"), "UTC")?.at)).toBe(
      "2026-11-13T10:00:00.000Z",
    );
    // The due date moved forward from the 10th to the 20th: its steps move with it.
    expect(runs(c, ["2026-11-20"], start, "UTC")).toEqual(["2026-11-20T10:00:00.000Z", "2026-11-27T10:00:00.000Z"]);
  });

  it("sends one reminder on a day two invoices share a step", () => {
    const c: Cadence = { steps: [0, 2], repeatDays: null, hour: 10 };
    expect(runs(c, ["2026-11-10", "2026-11-08"], at("2026-11-01T00:00:00Z"), "UTC")).toEqual([
      "2026-11-08T10:00:00.000Z",
      "2026-11-10T10:00:00.000Z",
      "2026-11-12T10:00:00.000Z",
    ]);
  });

  it("nothing open: no run", () => {
    expect(nextCadenceRun(DEFAULT_CADENCE, [], 0, "UTC")).toBeNull();
  });
});

describe("stepDatesFrom and addDays", () => {
  it("counts on the calendar", () => {
    expect(addDays("2026-02-27", 2)).toBe("2026-03-01");
    expect(addDays("2028-02-27", 2)).toBe("2028-02-29");
    expect(addDays("2026-13-01", 1)).toBeNull();
    expect(stepDatesFrom("2026-11-10", DEFAULT_CADENCE, "2026-11-11", 5)).toEqual([
      "2026-11-13",
      "2026-11-17",
      "2026-11-24",
    ]);
  });
});

describe("cadenceTemplate", () => {
  it("escalates with the oldest invoice's age, one template at a time, to a single final notice", () => {
    const c = DEFAULT_CADENCE;
    const due = "2026-11-10";
    const sequence = [-3, 0, 3, 7, 14].map((offset, sent) =>
      cadenceTemplate(c, "FRIENDLY_REMINDER", due, addDays(due, offset) ?? "", sent),
    );
    expect(sequence).toEqual(["initial", "initial", "follow-up", "second-follow-up", "final-notice"]);
    // Started 40 days late: the first e-mail is the initial one (its copy says how late), then one step up at a time.
    expect(cadenceTemplate(c, "FRIENDLY_REMINDER", due, "2026-12-20", 0)).toBe("initial");
    expect(cadenceTemplate(c, "FRIENDLY_REMINDER", due, "2026-12-27", 1)).toBe("follow-up");
    expect(cadenceTemplate(c, "SINGLE_REMINDER", due, "2026-12-27", 4)).toBe("single");
    expect(stageAt({ steps: [5], repeatDays: null, hour: 10 }, 30)).toBe(1);
    expect(stageAt({ steps: [5, 10], repeatDays: null, hour: 10 }, 10)).toBe(3);
  });
});

describe("cadenceSummary", () => {
  it("says the steps in words", () => {
    expect(cadenceSummary(DEFAULT_CADENCE)).toBe(
      "Follows the due date: 3 days before, on the due date, 3, 7 and 14 days after, at 10:00 in the debtor's time zone; then it ends",
    );
    expect(cadenceSummary({ steps: [1], repeatDays: 7, hour: 9 })).toBe(
      "Follows the due date: 1 day after, at 09:00 in the debtor's time zone; then every 7 days until paid",
    );
  });
});
