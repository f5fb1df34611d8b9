import { formatDateTime } from "./dates";
import { getPlan, isPlanId, PLANS, type PlanId, TRIAL_PLAN } from "./plans";

/**
 * Sending limits: how many reminders one account, one address and one
 * click may send. Pure data and rules; the models count, the engine and the actions enforce.
 */

/** Every limit counts over a rolling window of this length. */
export const LIMIT_WINDOW_MS = 24 * 60 * 60_000;

/** Reminders one account may send in any 24 hours, by plan: the plans' one table (app/domain/plans.ts). */
export const DAILY_REMINDERS_BY_PLAN = Object.fromEntries(PLANS.map((p) => [p.id, p.dailyReminders])) as Record<
  PlanId,
  number
>;

/** The plan of an account whose plan is missing or unknown: the trial's. */
export const DEFAULT_PLAN: PlanId = TRIAL_PLAN;

/** Reminders one address may get in any 24 hours, from all accounts together. */
export const RECIPIENT_DAILY_LIMIT = 3;

/** Debtors one 'Re-send reminders' may target. */
export const RESEND_MAX_DEBTORS = 20;

/** What the engine enforces when it claims an occurrence. */
export interface SendingLimits {
  /** Reminders per account per window. */
  accountDaily: number;
  /** Reminders per recipient address per window, across all accounts. */
  recipientDaily: number;
}

/** The limits of an account on `plan`; an unknown plan gets the default plan's. */
export function sendingLimits(plan: string | null | undefined): SendingLimits {
  const known = isPlanId(plan) ? plan : DEFAULT_PLAN;
  return { accountDaily: getPlan(known).dailyReminders, recipientDaily: RECIPIENT_DAILY_LIMIT };
}

/** The address a recipient limit counts by: trimmed and lower-cased (deliveries.recipient). */
export function recipientKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * When a rolling-window limit of `limit` has room for one more, given the instants of what it
 * counted within the window; null when it has room now.
 */
export function nextRoomAt(counted: readonly number[], limit: number, windowMs = LIMIT_WINDOW_MS): number | null {
  if (counted.length < limit) return null;
  const sorted = [...counted].sort((a, b) => a - b);
  // The oldest leave first: once all but limit - 1 have left, one more fits.
  return (sorted[sorted.length - limit] ?? 0) + windowMs;
}

/** A limit that holds an occurrence back, and when it lets it go. */
export interface LimitWait {
  limit: "account" | "recipient";
  max: number;
  until: number;
}

/**
 * Which limit holds the next reminder back and until when (the later one if both do), from the
 * instants counted for the account and for the recipient; null when both have room.
 */
export function limitWait(
  counted: { account: readonly number[]; recipient: readonly number[] },
  limits: SendingLimits,
): LimitWait | null {
  const waits: LimitWait[] = [];
  const account = nextRoomAt(counted.account, limits.accountDaily);
  if (account !== null) waits.push({ limit: "account", max: limits.accountDaily, until: account });
  const recipient = nextRoomAt(counted.recipient, limits.recipientDaily);
  if (recipient !== null) waits.push({ limit: "recipient", max: limits.recipientDaily, until: recipient });
  return waits.reduce<LimitWait | null>((latest, w) => (latest && latest.until >= w.until ? latest : w), null);
}

/** The error a held-back delivery shows in the report until it is sent. */
export function deferralMessage(wait: LimitWait | null, recipient: string, timeZone: string, locale?: string): string {
  if (!wait) return "Waiting for a sending limit.";
  const after = `It will be sent after ${formatDateTime(wait.until, timeZone, locale)}.`;
  return wait.limit === "account"
    ? `Daily limit of ${wait.max} reminders reached for this account. ${after}`
    : `Daily limit of ${wait.max} reminders to ${recipient} reached. ${after}`;
}

/** The error of a held-back delivery whose schedule moved on, stopped or went away meanwhile. */
export const SUPERSEDED_MESSAGE =
  "Not sent: the schedule was changed, stopped or completed while this reminder waited for a sending limit.";

/** A debtor a 'Send next reminder now' or 'Re-send reminders' would send to, with what limits need. */
export interface ManualTarget {
  name: string;
  email: string;
  /** The debtor's latest reminder within the window (sending or sent), or null. */
  lastReminderAt: number | null;
  /** A reminder to the debtor is already on its way: held back by a limit, or a one-time schedule not yet fired. */
  waiting: boolean;
}

/** Everything counted within the window that a manual send is checked against. */
export interface ManualSendLoad {
  /** One entry per reminder the request would send (a debtor may appear twice). */
  targets: readonly ManualTarget[];
  /** Instants of the account's reminders within the window. */
  account: readonly number[];
  /** Instants of the reminders within the window per recipientKey, from every account. */
  recipients: Readonly<Record<string, readonly number[]>>;
}

/**
 * Why a manual send ('Send next reminder now', 'Re-send reminders') must be refused, as the message
 * the user sees, or null when it may go. All or nothing: one blocked debtor refuses the request.
 */
export function manualSendRefusal(
  load: ManualSendLoad,
  limits: SendingLimits,
  now: number,
  timeZone: string,
  locale?: string,
): string | null {
  const at = (ms: number) => formatDateTime(ms, timeZone, locale);
  const blocked = load.targets.filter(
    (t) => t.waiting || (t.lastReminderAt !== null && t.lastReminderAt + LIMIT_WINDOW_MS > now),
  );
  const [first] = blocked;
  if (first) {
    const message =
      first.lastReminderAt !== null && first.lastReminderAt + LIMIT_WINDOW_MS > now
        ? `${first.name} got a reminder less than 24 hours ago. The next one can be sent after ${at(first.lastReminderAt + LIMIT_WINDOW_MS)}.`
        : `A reminder to ${first.name} is already waiting to be sent.`;
    const others = new Set(blocked.map((t) => t.name)).size - 1;
    return others > 0
      ? `${message} The same goes for ${others} more of the selected debtors; nothing was sent.`
      : message;
  }

  const wanted = new Map<string, number>();
  for (const t of load.targets) wanted.set(recipientKey(t.email), (wanted.get(recipientKey(t.email)) ?? 0) + 1);
  for (const [address, count] of wanted) {
    const counted = (load.recipients[address] ?? []).filter((ms) => ms + LIMIT_WINDOW_MS > now);
    if (counted.length + count <= limits.recipientDaily) continue;
    const next = nextRoomAt(counted, limits.recipientDaily);
    return next !== null
      ? `${address} got ${counted.length} reminders in the last 24 hours, the most one address may get. The next one can be sent after ${at(next)}.`
      : `At most ${limits.recipientDaily} reminders a day can go to one address, and ${address} would get ${counted.length + count}. Select fewer debtors with that address.`;
  }

  const account = load.account.filter((ms) => ms + LIMIT_WINDOW_MS > now);
  const remaining = limits.accountDaily - account.length;
  if (load.targets.length <= remaining) return null;
  const next = nextRoomAt(account, limits.accountDaily);
  return next !== null
    ? `Daily limit of ${limits.accountDaily} reminders reached for this account. The next one can be sent after ${at(next)}.`
    : `Daily limit of ${limits.accountDaily} reminders for this account: only ${remaining} more can be sent now, and ${load.targets.length} were selected.`;
}

/** The refusal of a re-send that targets too many debtors, or null. */
export function resendCapRefusal(selected: number): string | null {
  return selected > RESEND_MAX_DEBTORS
    ? `Re-send reminders to at most ${RESEND_MAX_DEBTORS} debtors at a time (${selected} selected).`
    : null;
}
