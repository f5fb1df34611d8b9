import { parseCalendarDate } from "./calendar-date";
import { isTemplateId, type PresetId, type TemplateId } from "./presets";
import { isTone, type Tone } from "./strategies";

/**
 * Due-date cadences (decisions/016): a schedule
 * whose reminders follow each open invoice's due date. Each step is a day offset from a due date
 * (-3: three days before, 0: on the day, 7: a week after); every open invoice with something left
 * to pay has its own steps, and the schedule's next run is the earliest step of any of them still
 * ahead, at the chosen hour in the debtor's time zone. After an invoice's last step the schedule
 * either ends for it or repeats every `repeatDays` days until it is paid. One statement lists
 * every open invoice, so a day with several steps sends one e-mail. Pure and client-safe.
 */
export interface Cadence {
  /** Day offsets from the due date, ascending and distinct. */
  steps: number[];
  /** After the last step: every this many days until paid; null: the schedule ends. */
  repeatDays: number | null;
  /** The local hour (in the debtor's zone) each step goes out at. */
  hour: number;
  /** What a step sends, by its offset (the account's cadence); a step not in it: by its place, in the debtor's tone. */
  voices?: Readonly<Record<number, StepVoice>>;
}

/**
 * The e-mail one step of the account's cadence sends: its template (null: by its place, friendly to
 * firm to the final notice) and its tone (null: the debtor's own); and its channel: the e-mail, a
 * text message instead of it, or both (absent: the e-mail, as every step was before texts).
 */
export interface StepVoice {
  template: TemplateId | null;
  tone: Tone | null;
  channel?: StepChannel;
}

/** How a step reaches the debtor: the e-mail, a text message instead, or both. */
export type StepChannel = "email" | "text" | "both";
export const STEP_CHANNELS: readonly StepChannel[] = ["email", "text", "both"];

export function isStepChannel(value: unknown): value is StepChannel {
  return value === "email" || value === "text" || value === "both";
}

/** Whether a channel sends the e-mail, the text, or both. */
export function sendsEmail(channel: StepChannel): boolean {
  return channel !== "text";
}
export function sendsText(channel: StepChannel): boolean {
  return channel !== "email";
}

/** The channel as Settings → Cadence offers it. */
export const STEP_CHANNEL_LABELS: Readonly<Record<StepChannel, string>> = {
  email: "E-mail",
  text: "Text message",
  both: "E-mail and text message",
};

/** What a step's summary adds for its channel: nothing for the e-mail, " · Text", " · E-mail and text". */
export function stepChannelSuffix(channel: StepChannel | undefined): string {
  return channel === "text" ? " · Text" : channel === "both" ? " · E-mail and text" : "";
}

export const DEFAULT_CADENCE_STEPS = [-3, 0, 3, 7, 14] as const;
export const DEFAULT_SEND_HOUR = 10;
export const DEFAULT_REPEAT_DAYS = 7;
/** Offsets a step may have: up to 60 days before and a year after the due date. */
export const MIN_STEP_OFFSET = -60;
export const MAX_STEP_OFFSET = 365;
export const MAX_STEPS = 10;
/** A repeating cadence waits at least this many days between two reminders (no daily nagging by accident). */
export const MIN_REPEAT_DAYS = 3;
export const MAX_REPEAT_DAYS = 90;
/** The hours a step may go out at: inside the debtor's daytime (the contact rules' 08:00–21:00). */
export const SEND_HOURS = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20] as const;

export const STEPS_MESSAGE = `Enter up to ${MAX_STEPS} whole numbers of days between ${MIN_STEP_OFFSET} and ${MAX_STEP_OFFSET}, separated by commas (for example -3, 0, 3, 7, 14)`;
export const REPEAT_DAYS_MESSAGE = `Enter a whole number of days between ${MIN_REPEAT_DAYS} and ${MAX_REPEAT_DAYS}`;
export const SEND_HOUR_MESSAGE = "Please choose an hour between 08:00 and 20:00";

/** Why a due-date schedule cannot start: the debtor has no open invoice for it to follow. */
export function noStepAheadMessage(debtorName: string): string {
  return `${debtorName} has no open invoice for this cadence to follow. Add an invoice first, or send the first reminder now.`;
}

/**
 * The account cadence every new account starts with: before the due date, on it, then 7, 14, 30
 * and 45 days after, friendly to firm to the final notice; then Dunly stops and tells the user.
 */
export const DEFAULT_ACCOUNT_CADENCE: Cadence = {
  steps: [-3, 0, 7, 14, 30, 45],
  repeatDays: null,
  hour: DEFAULT_SEND_HOUR,
};

export const DEFAULT_CADENCE: Cadence = {
  steps: [...DEFAULT_CADENCE_STEPS],
  repeatDays: null,
  hour: DEFAULT_SEND_HOUR,
};

/**
 * The steps typed as "-3, 0, 3, 7, 14" (commas, spaces or semicolons between; a typographic minus
 * counts), ascending and without repeats; null when any is not a whole number in range, when there
 * is none, or more than MAX_STEPS.
 */
export function parseSteps(text: string): number[] | null {
  const parts = text
    .replace(/[\u2212\u2013]/g, "-")
    .split(/[\s,;]+/)
    .filter((p) => p !== "");
  if (parts.length === 0) return null;
  const steps = new Set<number>();
  for (const part of parts) {
    if (!/^[+-]?\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n < MIN_STEP_OFFSET || n > MAX_STEP_OFFSET) return null;
    steps.add(n === 0 ? 0 : n); // -0 → 0
  }
  if (steps.size > MAX_STEPS) return null;
  return [...steps].sort((a, b) => a - b);
}

/** A cadence as a schedule's (or the account's) columns store it. */
export function cadenceColumns(c: Cadence) {
  return {
    cadenceSteps: serializeSteps(c.steps),
    cadenceRepeatDays: c.repeatDays,
    sendHour: c.hour,
    cadenceVoices: serializeVoices(c),
  };
}

/**
 * The steps' voices as the cadence_voices column stores them: "7:follow-up:2,45:final-notice:3:both"
 * (offset, template or "", tone or "", then the channel only when it is not the e-mail alone), for
 * the cadence's steps only; null when every step e-mails what its place calls for in the debtor's tone.
 * A value written before texts existed reads back unchanged (no fourth field: the e-mail).
 */
export function serializeVoices(c: { steps: readonly number[]; voices?: Cadence["voices"] }): string | null {
  const parts: string[] = [];
  for (const step of c.steps) {
    const v = c.voices?.[step];
    const channel = v?.channel && v.channel !== "email" ? v.channel : null;
    if (v && (v.template || v.tone || channel))
      parts.push(`${step}:${v.template ?? ""}:${v.tone ?? ""}${channel ? `:${channel}` : ""}`);
  }
  return parts.length > 0 ? parts.join(",") : null;
}

/**
 * The stored voices read back; an unknown template or tone reads as the default (by place, the
 * debtor's), an unknown channel as the e-mail alone (never a text nobody chose).
 */
export function storedVoices(value: string | null | undefined): Record<number, StepVoice> | undefined {
  if (!value) return undefined;
  const voices: Record<number, StepVoice> = {};
  for (const part of value.split(",")) {
    const [offset, template, tone, channel] = part.split(":");
    const step = Number(offset);
    if (!Number.isInteger(step)) continue;
    const voice: StepVoice = {
      template: template && isTemplateId(template) ? template : null,
      tone: tone && isTone(Number(tone)) ? (Number(tone) as Tone) : null,
    };
    if (isStepChannel(channel) && channel !== "email") voice.channel = channel;
    voices[step] = voice;
  }
  return voices;
}

/**
 * The channel of a run carrying several invoices' steps: what any of them calls for (one line's
 * text and another's e-mail: both); the e-mail when there is none.
 */
export function combinedChannel(channels: readonly StepChannel[]): StepChannel {
  const email = channels.length === 0 || channels.some(sendsEmail);
  const text = channels.some(sendsText);
  return email && text ? "both" : text ? "text" : "email";
}

/**
 * The channel a step (or a repeat after the last step) goes by: the one chosen for the step (a
 * repeat: the last step's), else the e-mail. When the account cannot text this debtor (channel off,
 * no consent, country not enabled, opted out) the caller falls back with `reachable`: a text-only
 * step then goes by e-mail, never silently nowhere; "both" becomes the e-mail alone.
 */
export function pointChannel(
  c: Cadence,
  offset: number,
  kind: "step" | "repeat",
  reachable: { text: boolean } = { text: true },
): StepChannel {
  const step = kind === "step" ? offset : c.steps[c.steps.length - 1];
  const chosen = step === undefined ? "email" : (c.voices?.[step]?.channel ?? "email");
  return reachable.text ? chosen : "email";
}

/** The steps as the form shows them: "-3, 0, 3, 7, 14". */
export function formatSteps(steps: readonly number[]): string {
  return steps.join(", ");
}

/** The stored form of the steps (the schedules.cadence_steps column): "-3,0,3,7,14". */
export function serializeSteps(steps: readonly number[]): string {
  return steps.join(",");
}

/** The stored steps read back; the default steps for a missing or damaged value. */
export function storedSteps(value: string | null | undefined): number[] {
  return (value ? parseSteps(value) : null) ?? [...DEFAULT_CADENCE_STEPS];
}

/** "3 days before", "on the due date", "1 day after". */
export function stepLabel(offset: number): string {
  if (offset === 0) return "on the due date";
  const days = Math.abs(offset);
  return `${days} ${days === 1 ? "day" : "days"} ${offset < 0 ? "before" : "after"}`;
}

/**
 * What follows the last step, as the summary and the preview say it: the final notice goes once,
 * then either a reminder every N days until paid or nothing (the user is told the schedule ended).
 */
export function afterLastLabel(c: { steps: readonly number[]; repeatDays: number | null }): string {
  const final = c.steps.filter((s) => s > 0).length >= 2 ? "the final notice goes once" : "the last step goes once";
  return c.repeatDays
    ? `${final}, then a reminder every ${c.repeatDays} days until paid`
    : `${final}, then Dunly stops and tells you`;
}

/** "Follows the due date: 3 days before, on the due date, 3, 7 and 14 days after, at 10:00; then every 7 days until paid". */
export function cadenceSummary(c: Cadence): string {
  const before = c.steps.filter((s) => s < 0).map((s) => -s);
  const after = c.steps.filter((s) => s > 0);
  const parts: string[] = [];
  if (before.length > 0) parts.push(`${listDays(before.reverse())} before`);
  if (c.steps.includes(0)) parts.push("on the due date");
  if (after.length > 0) parts.push(`${listDays(after)} after`);
  const hour = `${String(c.hour).padStart(2, "0")}:00`;
  return `Follows the due date: ${parts.join(", ")}, at ${hour} in the debtor's time zone; ${afterLastLabel(c)}`;
}

function listDays(days: readonly number[]): string {
  const unit = days.length === 1 && days[0] === 1 ? "day" : "days";
  if (days.length === 1) return `${days[0]} ${unit}`;
  return `${days.slice(0, -1).join(", ")} and ${days[days.length - 1]} ${unit}`;
}

const DAY_MS = 86_400_000;

/** The calendar date `days` after "YYYY-MM-DD" (negative: before); null for a date not on the calendar. */
export function addDays(date: string, days: number): string | null {
  const d = parseCalendarDate(date);
  if (!d) return null;
  const ms = Date.UTC(d.year, d.month - 1, d.day) + days * DAY_MS;
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * How far an invoice `days` overdue has come along the cadence, as an index into the escalating
 * sequence: 0 (the initial e-mail, which reads "is due on" before the due date) up to the first
 * step after the due date; then 1 (follow up), 2 (second follow up) for the steps between, and 3
 * (final notice) from the last step after the due date on, when there are two or more.
 */
export function stageAt(c: Cadence, days: number): number {
  const after = c.steps.filter((s) => s > 0);
  const reached = after.filter((s) => s <= days).length;
  if (reached === 0) return 0;
  if (reached === after.length && after.length >= 2) return 3;
  return Math.min(reached, 2);
}

/** The escalating sequence's templates, mildest first. */
export const SEQUENCE: readonly TemplateId[] = ["initial", "follow-up", "second-follow-up", "final-notice"];

/**
 * The template a step (or a repeat after the last step) sends: the one the user chose for the step,
 * else the one its place calls for. A repeat is a reminder, never a second final notice.
 */
export function pointTemplate(c: Cadence, preset: PresetId, offset: number, kind: "step" | "repeat"): TemplateId {
  if (preset === "SINGLE_REMINDER") return "single";
  const chosen = kind === "step" ? c.voices?.[offset]?.template : null;
  if (chosen && chosen !== "single") return chosen;
  const stage = stageAt(c, offset);
  return SEQUENCE[kind === "repeat" ? Math.min(stage, 2) : stage] ?? "initial";
}

/** The tone a step sends in: the one the user chose for it (a repeat: the last step's); null for the debtor's. */
export function pointTone(c: Cadence, offset: number, kind: "step" | "repeat"): Tone | null {
  const step = kind === "step" ? offset : c.steps[c.steps.length - 1];
  return step === undefined ? null : (c.voices?.[step]?.tone ?? null);
}

/** The templates of a cadence's steps in order (what each step sends when its invoice is on time). */
export function stepTemplates(steps: readonly number[], preset: PresetId, voices?: Cadence["voices"]): TemplateId[] {
  const c: Cadence = { steps: [...steps], repeatDays: null, hour: 10, voices };
  return steps.map((step) => pointTemplate(c, preset, step, "step"));
}
