import { nextRoomAt } from "./limits";
import { nextWithinHours } from "./schedule-time";

/**
 * Contact rules: when a reminder may reach a debtor. Quiet hours in the
 * debtor's own time zone and a cap on reminders to one debtor in a rolling window. An account may
 * tighten them, never loosen them past these defaults.
 */
export const CONTACT_DEFAULTS = { startHour: 8, endHour: 21, maxPerWindow: 7, windowDays: 7 } as const;

const DAY_MS = 86_400_000;

export interface ContactRules {
  /** The first local hour a reminder may go out (0-23). */
  startHour: number;
  /** The local hour from which no reminder goes out (1-24), after startHour. */
  endHour: number;
  /** Reminders one debtor may get in the window. */
  maxPerWindow: number;
  windowDays: number;
}

/** An account's rules, clamped so that none is looser than the defaults (a bad value falls back). */
export function contactRules(settings: Partial<ContactRules> = {}): ContactRules {
  const d = CONTACT_DEFAULTS;
  const whole = (v: number | undefined) => (v !== undefined && Number.isInteger(v) ? v : undefined);
  const startHour = Math.max(d.startHour, Math.min(23, whole(settings.startHour) ?? d.startHour));
  const endHour = Math.min(d.endHour, Math.max(1, whole(settings.endHour) ?? d.endHour));
  const maxPerWindow = Math.min(d.maxPerWindow, Math.max(1, whole(settings.maxPerWindow) ?? d.maxPerWindow));
  const windowDays = Math.max(d.windowDays, Math.min(365, whole(settings.windowDays) ?? d.windowDays));
  // An empty window would never let anything out: fall back to the default hours.
  return startHour < endHour
    ? { startHour, endHour, maxPerWindow, windowDays }
    : { startHour: d.startHour, endHour: d.endHour, maxPerWindow, windowDays };
}

/** Why a reminder waits: outside the debtor's hours, or the debtor already got the most. */
export type ContactWaitReason = "quiet-hours" | "contact-cap";

export interface ContactSlot {
  /** When the reminder may go: `at` itself when nothing holds it back. */
  at: number;
  /** The rule that moved it last, or null when it may go at `at`. */
  reason: ContactWaitReason | null;
}

/**
 * The first moment at or after `at` when a reminder may reach the debtor: within the rules' hours
 * in `timeZone`, and with fewer than `maxPerWindow` of the debtor's reminders (`sentTo`, their
 * instants) in the window before it. Never earlier than `at`, so a deferred occurrence keeps its
 * place; the caller keeps its occurrence key.
 */
export function nextContactSlot(
  at: number,
  timeZone: string,
  sentTo: readonly number[],
  rules: ContactRules = contactRules(),
): ContactSlot {
  const windowMs = rules.windowDays * DAY_MS;
  let slot = at;
  let reason: ContactWaitReason | null = null;
  // Each round moves forward or stops; a cap wait and a quiet-hours wait settle within a few.
  for (let round = 0; round < 10; round++) {
    const counted = sentTo.filter((ms) => ms <= slot && ms + windowMs > slot);
    const room = nextRoomAt(counted, rules.maxPerWindow, windowMs);
    if (room !== null && room > slot) {
      slot = room;
      reason = "contact-cap";
      continue;
    }
    const daytime = nextWithinHours(slot, timeZone, rules.startHour, rules.endHour);
    if (daytime > slot) {
      slot = daytime;
      reason = "quiet-hours";
      continue;
    }
    return { at: slot, reason };
  }
  return { at: slot, reason };
}

/** What the schedule shows when a reminder waits: when it will really go, and why. */
export function contactWaitMessage(slot: ContactSlot, rules: ContactRules, formatted: string): string | null {
  if (slot.reason === "quiet-hours") {
    return `Waiting for the debtor's daytime (${rules.startHour}:00–${rules.endHour}:00 in their time zone): goes out ${formatted}.`;
  }
  if (slot.reason === "contact-cap") {
    const reminders = rules.maxPerWindow === 1 ? "1 reminder" : `${rules.maxPerWindow} reminders`;
    return `The debtor got ${reminders} (e-mails and texts) in the last ${rules.windowDays} days, the most allowed: goes out ${formatted}.`;
  }
  return null;
}

/**
 * nextContactSlot for a message that must keep the daytime of several zones at once (a text: the
 * debtor's zone and the zone of their number's country, when those differ): the first moment at or
 * after `at` inside the rules' hours in every zone of `zones`, under the same cap. When the zones'
 * daytimes never meet (Tokyo and New York with 08:00–21:00), the first zone alone decides: it is
 * the one the caller must never break (the debtor's own). Never earlier than `at`.
 */
export function nextContactSlotIn(
  at: number,
  zones: readonly [string, ...string[]],
  sentTo: readonly number[],
  rules: ContactRules = contactRules(),
): ContactSlot {
  let slot: ContactSlot = { at, reason: null };
  // Each zone moves the slot forward or leaves it; within two days every overlap is found.
  const limit = at + 2 * DAY_MS + rules.windowDays * DAY_MS;
  for (let round = 0; round < 40 && slot.at <= limit; round++) {
    let moved = false;
    for (const zone of zones) {
      const next = nextContactSlot(slot.at, zone, sentTo, rules);
      if (next.at > slot.at) {
        slot = next;
        moved = true;
      }
    }
    if (!moved) return slot;
  }
  return nextContactSlot(at, zones[0], sentTo, rules);
}
