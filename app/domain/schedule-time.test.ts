import { Cron } from "croner";
import { describe, expect, it } from "vitest";
import { NOW_DELAY_MS } from "./frequencies";
import { isValidTimeZone, localDateString, nextRunAfter, nextRunForFrequency, startOfLocalDay } from "./schedule-time";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const utc = (s: string) => Date.parse(s);

const REQUIRED_ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney"];
const ZONES = [...REQUIRED_ZONES, "UTC", "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Chatham", "Europe/London"];
const PATTERNS = { daily: "0 10 * * *", weekly: "0 10 * * 1" } as const;
type Recurring = keyof typeof PATTERNS;
const FREQS: Recurring[] = ["daily", "weekly"];

const RANGE_START = utc("2025-01-01T00:00:00Z");
const RANGE_END = utc("2031-01-01T00:00:00Z");
/** Brazil's last DST (Nov 2018 – Feb 2019, both transitions at local midnight) is scanned too. */
const SCAN_START: Record<string, number> = { "America/Sao_Paulo": utc("2018-07-01T00:00:00Z") };

/** Seeded PRNG (mulberry32), so a failing case reproduces. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const crons = new Map<string, Cron>();
/** The reference: croner's next run strictly after `ms` (no callback, so nothing is scheduled). */
function cronNext(frequency: Recurring, timeZone: string, ms: number): number {
  const key = `${frequency} ${timeZone}`;
  let cron = crons.get(key);
  if (!cron) {
    cron = new Cron(PATTERNS[frequency], { timezone: timeZone });
    crons.set(key, cron);
  }
  const next = cron.nextRun(new Date(ms));
  if (!next) throw new Error(`croner found no run after ${iso(ms)} in ${timeZone}`);
  return next.getTime();
}

// Local wall clock via a separate Intl path from the module's (longOffset instead of field diffs).
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
function offsetMinutes(ms: number, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormatters.set(timeZone, f);
  }
  const name = f.formatToParts(ms).find((p) => p.type === "timeZoneName")!.value; // "GMT", "GMT+12:45", "GMT-03:00"
  const m = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!m) throw new Error(`unexpected offset ${name}`);
  return m[1] ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}
/** Local wall clock "YYYY-MM-DDTHH:mm:ss.sss" and weekday (0 = Sunday) of an instant. */
function wall(ms: number, timeZone: string): { text: string; weekday: number } {
  const shifted = new Date(ms + offsetMinutes(ms, timeZone) * 60_000);
  return { text: shifted.toISOString().slice(0, 23), weekday: shifted.getUTCDay() };
}

/** Every UTC-offset change of a zone in [from, to): daily samples, then bisection to the ms. */
function transitions(timeZone: string, from: number, to: number): number[] {
  const found: number[] = [];
  let prev = offsetMinutes(from, timeZone);
  for (let t = from + DAY; t < to; t += DAY) {
    const cur = offsetMinutes(t, timeZone);
    if (cur !== prev) {
      let lo = t - DAY;
      let hi = t;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (offsetMinutes(mid, timeZone) === prev) lo = mid;
        else hi = mid;
      }
      found.push(hi);
      prev = cur;
    }
  }
  return found;
}
const TRANSITIONS = new Map(ZONES.map((z) => [z, transitions(z, SCAN_START[z] ?? RANGE_START, RANGE_END)]));

/** Compares with croner and collects readable mismatches; returns the number of cases checked. */
function check(frequency: Recurring, timeZone: string, instants: Iterable<number>, failures: string[]): number {
  let n = 0;
  for (const ms of instants) {
    n++;
    const expected = cronNext(frequency, timeZone, ms);
    let actual: number | string;
    try {
      actual = nextRunAfter(frequency, ms, timeZone);
    } catch (e) {
      actual = String(e);
    }
    if (actual !== expected) {
      failures.push(
        `${frequency} ${timeZone} after ${iso(ms)}: expected ${iso(expected)}, got ${typeof actual === "number" ? iso(actual) : actual}`,
      );
    }
  }
  return n;
}

/** Instants exactly at a run, 1 ms before and 1 ms after it. */
function aroundRuns(runs: number[]): number[] {
  return runs.flatMap((r) => [r - 1, r, r + 1]);
}

describe("isValidTimeZone", () => {
  it("accepts IANA names", () => {
    for (const tz of [...ZONES, "Etc/GMT+5", "Asia/Kathmandu", "America/Argentina/Buenos_Aires"])
      expect(isValidTimeZone(tz), tz).toBe(true);
  });
  it("rejects empty, unknown and offset-only names", () => {
    for (const tz of ["", "   ", "Mars/Olympus_Mons", "Europe/Berlinn", "Berlin", "+01:00", "-05:00", "GMT+25"]) {
      expect(isValidTimeZone(tz), JSON.stringify(tz)).toBe(false);
    }
  });
  it("makes the other functions throw a RangeError for an unknown zone", () => {
    expect(() => nextRunAfter("daily", 0, "Mars/Olympus_Mons")).toThrow(RangeError);
    expect(() => localDateString(0, "")).toThrow(RangeError);
  });
});

describe("nextRunAfter: readable examples", () => {
  it("Europe/Berlin spring forward (2026-03-29): 10:00 is 09:00Z in winter, 08:00Z from the first summer day", () => {
    expect(iso(nextRunAfter("daily", utc("2026-03-28T08:59:59.999Z"), "Europe/Berlin"))).toBe(
      "2026-03-28T09:00:00.000Z",
    );
    expect(iso(nextRunAfter("daily", utc("2026-03-28T09:00:00.000Z"), "Europe/Berlin"))).toBe(
      "2026-03-29T08:00:00.000Z",
    );
    expect(iso(nextRunAfter("daily", utc("2026-03-28T12:00:00Z"), "Europe/Berlin"))).toBe("2026-03-29T08:00:00.000Z");
    expect(iso(nextRunAfter("daily", utc("2026-03-29T08:00:00Z"), "Europe/Berlin"))).toBe("2026-03-30T08:00:00.000Z");
  });
  it("Europe/Berlin fall back (2026-10-25)", () => {
    expect(iso(nextRunAfter("daily", utc("2026-10-24T12:00:00Z"), "Europe/Berlin"))).toBe("2026-10-25T09:00:00.000Z");
    expect(iso(nextRunAfter("daily", utc("2026-10-25T08:30:00Z"), "Europe/Berlin"))).toBe("2026-10-25T09:00:00.000Z");
  });
  it("America/New_York around the end of DST (2026-11-01)", () => {
    expect(iso(nextRunAfter("daily", utc("2026-10-31T13:00:00Z"), "America/New_York"))).toBe(
      "2026-10-31T14:00:00.000Z",
    ); // 10:00 EDT
    expect(iso(nextRunAfter("daily", utc("2026-10-31T14:00:00Z"), "America/New_York"))).toBe(
      "2026-11-01T15:00:00.000Z",
    ); // 10:00 EST
    expect(iso(nextRunAfter("daily", utc("2026-11-01T06:30:00Z"), "America/New_York"))).toBe(
      "2026-11-01T15:00:00.000Z",
    ); // 01:30 EST (2nd pass)
    expect(iso(nextRunAfter("daily", utc("2026-11-01T14:59:59.999Z"), "America/New_York"))).toBe(
      "2026-11-01T15:00:00.000Z",
    );
    expect(iso(nextRunAfter("daily", utc("2026-11-01T15:00:00Z"), "America/New_York"))).toBe(
      "2026-11-02T15:00:00.000Z",
    );
  });
  it("America/New_York spring forward (2026-03-08)", () => {
    expect(iso(nextRunAfter("daily", utc("2026-03-07T16:00:00Z"), "America/New_York"))).toBe(
      "2026-03-08T14:00:00.000Z",
    );
  });
  it("Australia/Sydney ends DST in April (2026-04-05) ...", () => {
    expect(iso(nextRunAfter("daily", utc("2026-04-03T22:00:00Z"), "Australia/Sydney"))).toBe(
      "2026-04-03T23:00:00.000Z",
    ); // Sat 10:00 AEDT
    expect(iso(nextRunAfter("daily", utc("2026-04-03T23:00:00Z"), "Australia/Sydney"))).toBe(
      "2026-04-05T00:00:00.000Z",
    ); // Sun 10:00 AEST, 25 h later
  });
  it("... and starts it in October (2026-10-04)", () => {
    expect(iso(nextRunAfter("daily", utc("2026-10-03T00:00:00Z"), "Australia/Sydney"))).toBe(
      "2026-10-03T23:00:00.000Z",
    ); // 23 h later
    expect(iso(nextRunAfter("daily", utc("2026-10-03T15:00:00Z"), "Australia/Sydney"))).toBe(
      "2026-10-03T23:00:00.000Z",
    ); // 01:00 AEST
  });
  it("zones with fractional offsets", () => {
    expect(iso(nextRunAfter("daily", utc("2026-06-01T00:00:00Z"), "Asia/Kolkata"))).toBe("2026-06-01T04:30:00.000Z");
    expect(iso(nextRunAfter("daily", utc("2026-06-01T00:00:00Z"), "Pacific/Chatham"))).toBe("2026-06-01T21:15:00.000Z"); // +12:45
    expect(iso(nextRunAfter("daily", utc("2026-01-10T00:00:00Z"), "Pacific/Chatham"))).toBe("2026-01-10T20:15:00.000Z"); // +13:45
  });
  it("weekly runs on the next local Monday at 10:00", () => {
    expect(iso(nextRunAfter("weekly", utc("2026-03-28T12:00:00Z"), "Europe/Berlin"))).toBe("2026-03-30T08:00:00.000Z");
    expect(iso(nextRunAfter("weekly", utc("2026-03-30T07:59:59.999Z"), "Europe/Berlin"))).toBe(
      "2026-03-30T08:00:00.000Z",
    );
    expect(iso(nextRunAfter("weekly", utc("2026-03-30T08:00:00Z"), "Europe/Berlin"))).toBe("2026-04-06T08:00:00.000Z");
    // Monday 10:00 in Sydney is Sunday 23:00/00:00 in UTC.
    expect(iso(nextRunAfter("weekly", utc("2026-04-01T00:00:00Z"), "Australia/Sydney"))).toBe(
      "2026-04-06T00:00:00.000Z",
    );
    expect(iso(nextRunAfter("weekly", utc("2026-09-30T00:00:00Z"), "Australia/Sydney"))).toBe(
      "2026-10-04T23:00:00.000Z",
    );
    expect(iso(nextRunAfter("weekly", utc("2026-10-28T00:00:00Z"), "America/New_York"))).toBe(
      "2026-11-02T15:00:00.000Z",
    );
  });
  it("weekly always lands on a local Monday at 10:00, at most a week later", () => {
    const rand = prng(7);
    for (const tz of ZONES) {
      for (let i = 0; i < 200; i++) {
        const after = RANGE_START + Math.floor(rand() * (RANGE_END - RANGE_START));
        const run = nextRunAfter("weekly", after, tz);
        const w = wall(run, tz);
        expect(w.weekday, `${tz} ${iso(after)}`).toBe(1);
        expect(w.text.slice(11), `${tz} ${iso(after)}`).toBe("10:00:00.000");
        expect(run > after && run - after <= 7 * DAY + 2 * HOUR, `${tz} ${iso(after)}`).toBe(true);
      }
    }
  });
});

describe("nextRunAfter agrees with croner", () => {
  it("finds the DST transitions it tests around", () => {
    // Two a year in 2025-2030 wherever DST is observed; Brazil's last two; none elsewhere.
    for (const tz of ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Pacific/Chatham", "Europe/London"]) {
      expect(TRANSITIONS.get(tz)!.length, tz).toBe(12);
    }
    expect(TRANSITIONS.get("America/Sao_Paulo")!.map(iso)).toEqual([
      "2018-11-04T03:00:00.000Z",
      "2019-02-17T02:00:00.000Z",
    ]);
    for (const tz of ["UTC", "Asia/Kolkata"]) expect(TRANSITIONS.get(tz), tz).toEqual([]);
    expect(TRANSITIONS.get("Europe/Berlin")!.map(iso).slice(2, 4)).toEqual([
      "2026-03-29T01:00:00.000Z",
      "2026-10-25T01:00:00.000Z",
    ]);
  });

  // Per zone: random instants (and the runs they lead to, ±1 ms) over 2025-2030, then every
  // hour of the two days either side of each DST transition (plus the transition ±1 ms and the
  // runs nearby, ±1 ms).
  for (const tz of ZONES) {
    it(`${tz}: random instants in 2025-2030 and instants at / 1 ms before / 1 ms after 10:00`, () => {
      const rand = prng(0xd0e1 + ZONES.indexOf(tz));
      const failures: string[] = [];
      let cases = 0;
      for (const frequency of FREQS) {
        const randoms = Array.from({ length: 150 }, () => RANGE_START + Math.floor(rand() * (RANGE_END - RANGE_START)));
        cases += check(frequency, tz, randoms, failures);
        cases += check(frequency, tz, aroundRuns(randoms.map((ms) => cronNext(frequency, tz, ms))), failures);
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(cases).toBe(2 * 150 * 4);
    });

    it(`${tz}: every hour around each DST transition`, () => {
      const failures: string[] = [];
      let cases = 0;
      for (const frequency of FREQS) {
        for (const t of TRANSITIONS.get(tz)!) {
          const firstHour = Math.floor(t / HOUR) * HOUR - 2 * DAY;
          const hours = Array.from({ length: 4 * 24 + 1 }, (_, i) => firstHour + i * HOUR);
          cases += check(frequency, tz, [...hours, t - 1, t, t + 1], failures);
          const runs = [...new Set(hours.map((ms) => cronNext(frequency, tz, ms)))];
          cases += check(frequency, tz, aroundRuns(runs), failures);
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(cases).toBeGreaterThanOrEqual(TRANSITIONS.get(tz)!.length * 2 * 100);
    });
  }

  it("historic zone changes that removed or repeated 10:00 (Samoa and Tokelau skipped 2011-12-30, Kwajalein 1969/1993)", () => {
    // Found by scanning every zone Intl knows over 1900-2037: only date-line moves hit 10:00.
    const cases: [string, string][] = [
      ["Pacific/Apia", "2011-12-30T10:00:00Z"], // -10 → +14: the whole local day 2011-12-30 is skipped
      ["Pacific/Fakaofo", "2011-12-30T11:00:00Z"],
      ["Pacific/Kiritimati", "1994-12-31T10:00:00Z"],
      ["Pacific/Kwajalein", "1969-09-30T13:00:00Z"], // +11 → -12: 10:00 on 1969-09-30 occurs twice
      ["Pacific/Kwajalein", "1993-08-21T12:00:00Z"], // -12 → +12
    ];
    const failures: string[] = [];
    for (const [tz, at] of cases) {
      const t = utc(at);
      const instants = Array.from({ length: 97 }, (_, i) => t - 2 * DAY + i * HOUR);
      for (const frequency of FREQS)
        check(frequency, tz, [...instants, ...aroundRuns(instants.map((ms) => cronNext(frequency, tz, ms)))], failures);
    }
    expect(failures.slice(0, 10)).toEqual([]);
    // The repeated 10:00 runs once, at its first occurrence.
    expect(iso(nextRunAfter("daily", utc("1969-09-29T12:00:00Z"), "Pacific/Kwajalein"))).toBe(
      "1969-09-29T23:00:00.000Z",
    );
    expect(iso(nextRunAfter("daily", utc("1969-09-29T23:00:00Z"), "Pacific/Kwajalein"))).toBe(
      "1969-10-01T22:00:00.000Z",
    );
    // Samoa has no 2011-12-30: Thursday 29th 10:00 (-10) is followed by Saturday 31st 10:00 (+14).
    expect(iso(nextRunAfter("daily", utc("2011-12-29T20:00:00Z"), "Pacific/Apia"))).toBe("2011-12-30T20:00:00.000Z");
  });

  it("a repeated 10:00 runs at its first occurrence even where croner's 3-hour probe misses it (Alaska 1867)", () => {
    // Russia → US moved Alaska back a whole day; croner returns the second pass here.
    expect(iso(nextRunAfter("daily", utc("1867-10-17T22:00:00Z"), "America/Anchorage"))).toBe(
      "1867-10-18T19:59:36.000Z",
    );
  });
});

describe("nextRunForFrequency", () => {
  it("'now' fires NOW_DELAY_MS (60 s) later, whatever the zone", () => {
    expect(NOW_DELAY_MS).toBe(60_000);
    const now = utc("2026-03-29T00:59:30Z");
    expect(nextRunForFrequency("now", now, "Europe/Berlin")).toBe(now + 60_000);
    expect(nextRunForFrequency("now", now, "Pacific/Chatham")).toBe(now + 60_000);
  });
  it("daily and weekly use nextRunAfter", () => {
    const now = utc("2026-03-28T12:00:00Z");
    expect(iso(nextRunForFrequency("daily", now, "Europe/Berlin"))).toBe("2026-03-29T08:00:00.000Z");
    expect(iso(nextRunForFrequency("weekly", now, "Europe/Berlin"))).toBe("2026-03-30T08:00:00.000Z");
  });
});

describe("localDateString", () => {
  it("formats the local calendar date", () => {
    expect(localDateString(utc("2026-04-05T13:59:59.999Z"), "Australia/Sydney")).toBe("2026-04-05"); // 23:59:59 AEST
    expect(localDateString(utc("2026-04-05T14:00:00Z"), "Australia/Sydney")).toBe("2026-04-06");
    expect(localDateString(utc("2026-11-01T03:59:59Z"), "America/New_York")).toBe("2026-10-31"); // 23:59:59 EDT
    expect(localDateString(utc("2026-11-01T04:00:00Z"), "America/New_York")).toBe("2026-11-01");
    expect(localDateString(utc("2026-11-02T04:59:59Z"), "America/New_York")).toBe("2026-11-01"); // 23:59:59 EST
    expect(localDateString(utc("2026-01-01T00:00:00Z"), "UTC")).toBe("2026-01-01");
    expect(localDateString(utc("2025-12-31T18:29:59Z"), "Asia/Kolkata")).toBe("2025-12-31");
    expect(localDateString(utc("2025-12-31T18:30:00Z"), "Asia/Kolkata")).toBe("2026-01-01");
  });

  it("answers each instant of a minute alike and the next minute afresh (its answers are kept by minute)", () => {
    // Asked first within the minute before local midnight, then at midnight: a new day.
    for (const [before, after, zone, day] of [
      ["2026-11-25T22:59:00.001Z", "2026-11-25T23:00:00Z", "Europe/Paris", "2026-11-25"],
      ["2026-11-25T18:14:30Z", "2026-11-25T18:15:00Z", "Asia/Kathmandu", "2026-11-25"], // +05:45
      ["2026-03-08T04:59:30Z", "2026-03-08T05:00:00Z", "America/New_York", "2026-03-07"], // the night DST starts
    ] as const) {
      expect(localDateString(utc(before), zone)).toBe(day);
      expect(localDateString(utc(before) + 1, zone)).toBe(day);
      expect(localDateString(utc(after), zone)).not.toBe(day);
      expect(localDateString(utc(after) - 1, zone)).toBe(day);
    }
    // The same minute in two zones is two answers.
    expect(localDateString(utc("2026-11-25T23:30:00Z"), "UTC")).toBe("2026-11-25");
    expect(localDateString(utc("2026-11-25T23:30:00Z"), "Asia/Tokyo")).toBe("2026-11-26");
  });
});

describe("startOfLocalDay", () => {
  it("is local midnight, across 23- and 25-hour days", () => {
    const berlinSpring = startOfLocalDay(utc("2026-03-29T12:00:00Z"), "Europe/Berlin");
    expect(iso(berlinSpring)).toBe("2026-03-28T23:00:00.000Z");
    expect(iso(startOfLocalDay(utc("2026-03-30T12:00:00Z"), "Europe/Berlin"))).toBe("2026-03-29T22:00:00.000Z"); // 23 h later
    expect(iso(startOfLocalDay(utc("2026-10-25T22:59:59Z"), "Europe/Berlin"))).toBe("2026-10-24T22:00:00.000Z");
    expect(iso(startOfLocalDay(utc("2026-10-25T23:00:00Z"), "Europe/Berlin"))).toBe("2026-10-25T23:00:00.000Z"); // 25 h later
    expect(iso(startOfLocalDay(utc("2026-11-01T20:00:00Z"), "America/New_York"))).toBe("2026-11-01T04:00:00.000Z");
    expect(iso(startOfLocalDay(utc("2026-10-04T05:00:00Z"), "Australia/Sydney"))).toBe("2026-10-03T14:00:00.000Z");
    expect(iso(startOfLocalDay(utc("2026-06-01T12:00:00Z"), "Pacific/Chatham"))).toBe("2026-06-01T11:15:00.000Z");
  });
  it("is the first instant of the day when midnight does not exist or occurs twice (Brazil)", () => {
    // 2018-11-04 00:00 → 01:00: the day starts at 01:00 -02 = 03:00Z.
    expect(iso(startOfLocalDay(utc("2018-11-04T15:00:00Z"), "America/Sao_Paulo"))).toBe("2018-11-04T03:00:00.000Z");
    // 2019-02-17 00:00 -02 → 2019-02-16 23:00 -03: the 16th's last hour repeats, the 17th starts once.
    expect(iso(startOfLocalDay(utc("2019-02-17T02:30:00Z"), "America/Sao_Paulo"))).toBe("2019-02-16T02:00:00.000Z");
    expect(iso(startOfLocalDay(utc("2019-02-17T03:00:00Z"), "America/Sao_Paulo"))).toBe("2019-02-17T03:00:00.000Z");
  });
  it("is the first instant with the same local date, for every hour around each transition and random instants", () => {
    const rand = prng(99);
    const failures: string[] = [];
    for (const tz of ZONES) {
      const instants = TRANSITIONS.get(tz)!.flatMap((t) =>
        Array.from({ length: 73 }, (_, i) => t - 36 * HOUR + i * HOUR),
      );
      for (let i = 0; i < 100; i++) instants.push(RANGE_START + Math.floor(rand() * (RANGE_END - RANGE_START)));
      for (const ms of instants) {
        const start = startOfLocalDay(ms, tz);
        const day = localDateString(ms, tz);
        if (
          !(
            start <= ms &&
            localDateString(start, tz) === day &&
            localDateString(start - 1, tz) < day &&
            wall(start, tz).text.slice(0, 10) === day
          )
        ) {
          failures.push(`${tz} ${iso(ms)} → ${iso(start)}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
