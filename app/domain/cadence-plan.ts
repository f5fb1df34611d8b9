import {
  addDays,
  type Cadence,
  combinedChannel,
  pointChannel,
  pointTemplate,
  pointTone,
  SEQUENCE,
  type StepChannel,
} from "./cadence";
import { parseCalendarDate } from "./calendar-date";
import { NOW_DELAY_MS } from "./frequencies";
import { type PresetId, type TemplateId, templateName } from "./presets";
import { instantAtLocalHour, localDateString, startOfLocalDate } from "./schedule-time";
import { daysOverdue } from "./statement";
import type { Tone } from "./strategies";

/**
 * Where each open invoice stands in a due-date cadence, and the e-mails that follow from it
 * (docs/decisions/048). Every invoice has its own place: its steps are days from its own due date,
 * then (when the cadence repeats) every `repeatDays` days after the last one.
 *
 * - A step is covered once a run of the schedule went out on or after its day, and after the
 *   invoice joined (a run before it existed did not carry it).
 * - An invoice that joins late (some of its steps already passed, uncovered) gets one e-mail at the
 *   step its age calls for, today at the cadence's hour if that is still ahead, else in a minute
 *   (the contact rules then keep it out of the night). The steps before it are skipped, never
 *   replayed; the final notice is never skipped for a repeat.
 * - One e-mail a day per schedule: a run carries every invoice due a step on its date, and no run
 *   follows another on the same local date.
 * - Its template follows the most advanced invoice in it; the final notice is the last step after
 *   the due date, and a repeat after it is a reminder, never a second final notice.
 *
 * Pure and client-safe: the engine, the lifecycle's re-plans, the preview and the lists share it.
 */

/** An open invoice as the cadence follows it. */
export interface CadenceInvoice {
  number: string | null;
  /** "YYYY-MM-DD". */
  dueOn: string;
  /** When it joined the schedule's debtor (its row's created_at). */
  joinedAt: number;
}

/** One invoice's line in a planned e-mail. */
export interface PlannedLine {
  number: string | null;
  dueOn: string;
  /** Days from the due date of the step this e-mail stands for (a repeat's too). */
  offset: number;
  kind: "step" | "repeat";
  /** It joined late: this is the one e-mail for the steps it missed. */
  late: boolean;
  template: TemplateId;
  /** The step's own tone (the account's cadence); null: the debtor's. */
  tone: Tone | null;
  /** How the step reaches the debtor as chosen (before whether they can be texted is known). */
  channel: StepChannel;
}

/** One e-mail the schedule will send. */
export interface PlannedRun {
  at: number;
  /** The debtor's local date it goes out on. */
  date: string;
  lines: PlannedLine[];
  /** The template of its most advanced line. */
  template: TemplateId;
  /** That line's tone; null: the debtor's. */
  tone: Tone | null;
  /** What its lines' steps call for together (combinedChannel). */
  channel: StepChannel;
}

/** A step an invoice will never get, because it joined (or was held) after it passed. */
export interface SkippedStep {
  number: string | null;
  dueOn: string;
  offset: number;
  date: string;
}

export interface CadenceOutlook {
  runs: PlannedRun[];
  skipped: SkippedStep[];
}

function rank(template: TemplateId): number {
  return SEQUENCE.indexOf(template);
}

/**
 * The line an e-mail of several speaks for: the most advanced template (the final notice over a
 * repeat's reminder), then the most overdue step. Its template and tone are the e-mail's.
 */
function leadLine<L extends { template: TemplateId; offset: number }>(lines: readonly L[]): L | undefined {
  let lead: L | undefined;
  for (const l of lines) {
    if (
      !lead ||
      rank(l.template) > rank(lead.template) ||
      (rank(l.template) === rank(lead.template) && l.offset > lead.offset)
    )
      lead = l;
  }
  return lead;
}

interface Point {
  offset: number;
  date: string;
  kind: "step" | "repeat";
}

interface Event extends Point {
  at: number;
  late: boolean;
}

/**
 * Instants of local dates, shared by every plan of the isolate: an account's debtors share their
 * zones and their days, so planning 1,000 of them turns few dates into instants. Bounded.
 */
const instants = new Map<string, number>();
function remember(key: string, compute: () => number): number {
  let value = instants.get(key);
  if (value === undefined) {
    value = compute();
    if (instants.size >= 20_000) instants.clear();
    instants.set(key, value);
  }
  return value;
}

/** `addDays` remembered: an account's invoices share their due dates. */
const shifted = new Map<string, string | null>();
function dayAfter(date: string, days: number): string | null {
  const key = `${date}|${days}`;
  let value = shifted.get(key);
  if (value === undefined) {
    value = addDays(date, days);
    if (shifted.size >= 20_000) shifted.clear();
    shifted.set(key, value);
  }
  return value;
}

/** The planner's clock: the cadence's hour and local midnights in the debtor's zone. */
class Clock {
  constructor(
    readonly hour: number,
    readonly timeZone: string,
  ) {}
  at(date: string): number {
    return remember(`${this.timeZone}|${this.hour}|${date}`, () => {
      const d = parseCalendarDate(date);
      return d ? instantAtLocalHour(d.year, d.month, d.day, this.hour, this.timeZone) : Number.NaN;
    });
  }
  date(ms: number): string {
    return localDateString(ms, this.timeZone);
  }
  /** The local midnight that starts the day after the one `ms` falls on. */
  nextMidnight(ms: number): number {
    const next = addDays(this.date(ms), 1) ?? "";
    return remember(`${this.timeZone}|0|${next}`, () => {
      const d = parseCalendarDate(next);
      return d ? startOfLocalDate(d.year, d.month, d.day, this.timeZone) : ms + 86_400_000;
    });
  }
  /** Whether the point's instant is strictly after `ms` (compared as dates first). */
  after(point: Point, ms: number, msDate: string): boolean {
    if (point.date !== msDate) return point.date > msDate;
    return this.at(point.date) > ms;
  }
}

/**
 * The invoice's next e-mail when nothing at or before `covered` counts and the run may not go
 * before `earliest` (whose local date is `today`), with the steps it skips; null when it has none.
 */
function nextEvent(
  inv: CadenceInvoice,
  c: Cadence,
  clock: Clock,
  covered: number,
  earliest: number,
  today: string,
): { event: Event; skipped: Point[] } | null {
  const coveredDate = Number.isFinite(covered) ? clock.date(covered) : "";
  const pending = (p: Point) => !Number.isFinite(covered) || clock.after(p, covered, coveredDate);
  const steps: Point[] = [];
  for (const offset of c.steps) {
    const date = dayAfter(inv.dueOn, offset);
    if (date) steps.push({ offset, date, kind: "step" });
  }
  const missed = steps.filter((p) => pending(p) && !clock.after(p, earliest, today));
  let future: Point | undefined = steps.find((p) => pending(p) && clock.after(p, earliest, today));
  let missedRepeat: Point | undefined;
  const last = c.steps[c.steps.length - 1];
  if (!future && c.repeatDays && last !== undefined) {
    // The repeats around `earliest`: the latest not after it (when still uncovered) and the first after it.
    const days = daysOverdue(inv.dueOn, today) ?? 0;
    const k = Math.max(0, Math.floor((days - last) / c.repeatDays));
    for (let i = Math.max(1, k - 1); i <= k + 2 && !future; i += 1) {
      const offset = last + i * c.repeatDays;
      const date = dayAfter(inv.dueOn, offset);
      if (!date) break;
      const p: Point = { offset, date, kind: "repeat" };
      if (clock.after(p, earliest, today)) future = p;
      else if (pending(p)) missedRepeat = p;
    }
  }
  // Today's own step wins over a catch-up: the invoice is exactly where the cadence wants it.
  if (future && future.date === today)
    return { event: { ...future, at: clock.at(future.date), late: false }, skipped: missed };
  const fitted = missed[missed.length - 1] ?? missedRepeat;
  if (fitted) {
    const atHour = clock.at(today);
    const at = atHour > earliest ? atHour : earliest + NOW_DELAY_MS;
    return {
      event: { ...fitted, date: clock.date(at), at, late: true },
      skipped: missed.filter((p) => p !== fitted),
    };
  }
  if (future) return { event: { ...future, at: clock.at(future.date), late: false }, skipped: [] };
  return null;
}

export interface PlanInput {
  cadence: Cadence;
  preset: PresetId;
  invoices: readonly CadenceInvoice[];
  /** The schedule's last run (null: none yet). */
  lastRunAt: number | null;
  /** Plan from this moment on (a run is strictly after it). */
  now: number;
  timeZone: string;
}

/**
 * The next `limit` e-mails of a due-date schedule and the steps its invoices skip (they joined or
 * were held after those steps passed). A run carries every invoice due a step on its date.
 */
export function planCadence(input: PlanInput, limit = 1): CadenceOutlook {
  const { cadence: c, preset, invoices } = input;
  const clock = new Clock(c.hour, input.timeZone);
  const runs: PlannedRun[] = [];
  const skipped: SkippedStep[] = [];
  let lastRunAt = input.lastRunAt;
  let now = input.now;
  for (let round = 0; round < limit; round += 1) {
    // One e-mail a day: after a run, the next waits for the debtor's next day.
    const earliest = lastRunAt === null ? now : Math.max(now, clock.nextMidnight(lastRunAt));
    const today = clock.date(earliest);
    const events: { inv: CadenceInvoice; event: Event }[] = [];
    for (const inv of invoices) {
      // A run covers its whole day: it carried every step due on its date.
      const covered =
        lastRunAt !== null && lastRunAt >= inv.joinedAt ? clock.nextMidnight(lastRunAt) - 1 : Number.NEGATIVE_INFINITY;
      const next = nextEvent(inv, c, clock, covered, earliest, today);
      if (!next) continue;
      events.push({ inv, event: next.event });
      if (round === 0)
        for (const p of next.skipped)
          skipped.push({ number: inv.number, dueOn: inv.dueOn, offset: p.offset, date: p.date });
    }
    if (events.length === 0) break;
    const date = events.map((e) => e.event.date).sort()[0];
    const carried = events.filter((e) => e.event.date === date);
    const at = Math.min(...carried.map((e) => e.event.at));
    const lines = carried
      .map(
        ({ inv, event }): PlannedLine => ({
          number: inv.number,
          dueOn: inv.dueOn,
          offset: event.offset,
          kind: event.kind,
          late: event.late,
          template: pointTemplate(c, preset, event.offset, event.kind),
          tone: pointTone(c, event.offset, event.kind),
          channel: pointChannel(c, event.offset, event.kind),
        }),
      )
      .sort((a, b) => (a.dueOn === b.dueOn ? 0 : a.dueOn < b.dueOn ? -1 : 1));
    const lead = leadLine(lines);
    runs.push({
      at,
      date,
      lines,
      template: lead?.template ?? "initial",
      tone: lead?.tone ?? null,
      channel: combinedChannel(lines.map((l) => l.channel)),
    });
    lastRunAt = at;
    now = at;
  }
  skipped.sort((a, b) => (a.date === b.date ? 0 : a.date < b.date ? -1 : 1));
  return { runs, skipped };
}

/** The schedule's next run after `now`, or null when no step of any open invoice is left. */
export function nextCadenceRun(input: PlanInput): PlannedRun | null {
  return planCadence(input, 1).runs[0] ?? null;
}

/** The run the plan puts on the local day of `at` (what a firing at `at` carries), or null. */
export function runOn(input: Omit<PlanInput, "now">, at: number): PlannedRun | null {
  const run = nextCadenceRun({ ...input, now: at - 1 });
  return run && run.date === localDateString(at, input.timeZone) ? run : null;
}

/** "Final Notice for INV-101 and INV-107": the run's e-mail and the invoices it chases. */
export function describeRun(run: PlannedRun): string {
  const names = run.lines.map((l) => l.number ?? `the invoice due ${l.dueOn}`);
  const shown = names.length > 3 ? [...names.slice(0, 2), `${names.length - 2} more`] : names;
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}` : (shown[0] ?? "");
  return `${templateName(run.template)} for ${list}`;
}

/**
 * The template, tone and channel of the run firing at `scheduledAt` (the run the plan put there);
 * for a run the plan did not make ("Send now"), those of the most advanced step any open invoice
 * has reached, by e-mail (a "Send now" is the user's e-mail). A null tone: the debtor's.
 */
export function firingVoice(
  input: Omit<PlanInput, "now">,
  scheduledAt: number,
): { template: TemplateId; tone: Tone | null; channel: StepChannel } {
  if (input.preset === "SINGLE_REMINDER") return { template: "single", tone: null, channel: "email" };
  const run = runOn(input, scheduledAt);
  if (run) return { template: run.template, tone: run.tone, channel: run.channel };
  const today = localDateString(scheduledAt, input.timeZone);
  const reached: { template: TemplateId; offset: number; tone: Tone | null }[] = [];
  for (const inv of input.invoices) {
    const days = daysOverdue(inv.dueOn, today);
    if (days === null) continue;
    const steps = input.cadence.steps.filter((s) => s <= days);
    const offset = steps[steps.length - 1];
    if (offset === undefined) continue;
    reached.push({
      template: pointTemplate(input.cadence, input.preset, offset, "step"),
      offset,
      tone: pointTone(input.cadence, offset, "step"),
    });
  }
  const lead = leadLine(reached);
  return lead
    ? { template: lead.template, tone: lead.tone, channel: "email" }
    : { template: "initial", tone: null, channel: "email" };
}

/** What joining a cadence now means for one debtor: their open invoices, how many are overdue, and the first e-mail. */
export interface JoinPreview {
  invoices: number;
  overdue: number;
  first: PlannedRun | null;
  /** The first e-mail goes out on the debtor's today. */
  today: boolean;
}

/** The preview of a debtor with `invoices` open in `timeZone` joining `cadence` at `now` (autopilot's summary, the import's). */
export function joinPreview(
  cadence: Cadence,
  invoices: readonly CadenceInvoice[],
  timeZone: string,
  now: number,
): JoinPreview {
  const today = localDateString(now, timeZone);
  const first = nextCadenceRun({ cadence, preset: "FRIENDLY_REMINDER", invoices, lastRunAt: null, now, timeZone });
  return {
    invoices: invoices.length,
    overdue: invoices.filter((i) => i.dueOn < today).length,
    first,
    today: first?.date === today,
  };
}

/** What GET /schedules/:id/outlook answers: the next runs and the skipped steps, written for the preview. */
export type OutlookAnswer =
  | { error: string }
  | {
      timeZone: string;
      runs: {
        at: number;
        date: string;
        when: string;
        template: string;
        templateName: string;
        /** The step's own tone; null: the debtor's. */
        tone: number | null;
        lines: { number: string | null; due: string; step: string; late: boolean }[];
      }[];
      skipped: { number: string | null; due: string; step: string; date: string }[];
    };
