import { type Db, getDb } from "~/db/client.server";
import {
  type ContactRules,
  type ContactSlot,
  contactRules,
  contactWaitMessage,
  nextContactSlot,
} from "~/domain/contact-rules";
import { oneLine, safeDisplayName, safeLines } from "~/domain/header-safe";
import { deferralMessage, limitWait, recipientKey, type SendingLimits, sendingLimits } from "~/domain/limits";
import { outstandingCents } from "~/domain/money";
import { advancePast, type OccurrenceStatus, occurrenceKey } from "~/domain/occurrence";
import { type PresetId, type TemplateId, templateForStep } from "~/domain/presets";
import { senderDisplayName } from "~/domain/sender";
import { toTone } from "~/domain/strategies";
import { formatInstant } from "~/domain/time-zone";
import { readConfig } from "~/lib/config.server";
import { optOutLink } from "~/lib/opt-out.server";
import { paidClaimLink } from "~/lib/paid-claim.server";
import {
  abandonOccurrence,
  claimOccurrence,
  countedInstants,
  type Delivery,
  debtorReminderInstants,
  markDeliveryFailed,
  markDeliverySent,
  recordDeferral,
  recordDeliveryError,
} from "~/models/delivery.server";
import {
  advanceSchedule,
  completeSchedule,
  currentAlarm,
  type Debtor,
  findSchedule,
  getSenderAndDebtors,
  type Schedule,
  type Sender,
  type SenderOrganization,
} from "~/models/schedule.server";
import type { ReminderMessage, SendResult } from "./mail/index";

/** A retryable provider failure is tried again by the alarm this many times before it is 'failed'. */
const MAX_SEND_ATTEMPTS = 5;
/** Waits between alarm retries of one occurrence (the mail Worker already retried quickly). */
const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000] as const;
/** An alarm that fires this early is not due yet: it re-arms for the real time. */
const EARLY_TOLERANCE_MS = 1_000;
/** A deferred occurrence whose limit has room again by the time it is looked at tries again this soon. */
const DEFER_RECHECK_MS = 60_000;

export type FireOutcome =
  | { kind: "gone" } // deleted, disabled or completed: no alarm
  | { kind: "not-due"; nextAlarmAt: number }
  | { kind: "retry"; nextAlarmAt: number; attempt: number; error: string }
  // held back by a sending limit: nothing sent, the same occurrence is tried again at nextAlarmAt
  | { kind: "deferred"; nextAlarmAt: number; occurrenceKey: string; reason: string }
  | { kind: "done"; status: "sent" | "failed" | "skipped" | "duplicate"; nextAlarmAt: number | null };

/**
 * Fires the occurrence a schedule is due for: exactly-once effect on top of at-least-once alarms.
 * The delivery row (unique occurrence key) is written before the provider is called, the key is
 * the provider's Idempotency-Key, and an occurrence already 'sent' or 'failed' sends nothing. A
 * claim over a sending limit (app/domain/limits.ts) is 'deferred': nothing is sent and the same
 * occurrence is fired again when the limit has room. `attempt` counts alarm retries of this
 * occurrence (1 = first try).
 */
export async function fireSchedule(env: Env, scheduleId: string, now: number, attempt = 1): Promise<FireOutcome> {
  const db = getDb(env.DB);
  const s = await findSchedule(db, scheduleId);
  if (s?.state !== "ENABLED" || s.nextRunAt == null) return { kind: "gone" };
  if (s.nextRunAt > now + EARLY_TOLERANCE_MS) return { kind: "not-due", nextAlarmAt: s.nextRunAt };
  const scheduledAt = s.nextRunAt;

  const {
    user,
    plan,
    contact,
    debtors: [debtor],
    optedOut,
    org,
  } = await getSenderAndDebtors(db, s.ownerId, [s.debtorId], s.organizationId);
  if (!user || !debtor) return { kind: "gone" };
  const recipient = recipientKey(debtor.email);

  // Nothing is owed any more, or the address opted out: the schedule is finished, not failed. Also
  // when this occurrence was waiting or retrying: it is given up, never sent after the fact.
  const stop = stopReason(debtor, optedOut.has(recipient));
  if (stop) {
    await abandonOccurrence(db, occurrenceKey(s.id, scheduledAt), STOPPED_MESSAGES[stop]);
    const completed = await completeSchedule(db, s.id, scheduledAt, now, stop);
    // Edited meanwhile: keep the alarm the edit set.
    return { kind: "done", status: "skipped", nextAlarmAt: completed ? null : await currentAlarm(db, s.id) };
  }

  // Contact rules: only in the debtor's daytime, and not past their cap (docs/architecture.md §4).
  const rules = contactRules(contact);
  const windowMs = rules.windowDays * DAY_MS;
  const slot = nextContactSlot(
    now,
    debtor.timeZone,
    await debtorReminderInstants(db, debtor.id, now - windowMs),
    rules,
  );
  const held = slot.at > now + EARLY_TOLERANCE_MS;

  const limits = sendingLimits(plan);
  const delivery = await claimOccurrence(
    db,
    {
      ownerId: s.ownerId,
      scheduleId: s.id,
      debtorId: debtor.id,
      scheduledAt,
      template: templateForStep(s.preset as PresetId, s.templateStep),
      tone: toTone(debtor.activeStrategy),
      recipient,
    },
    now,
    limits,
    { hold: held, contact: { maxPerWindow: rules.maxPerWindow, windowMs } },
  );
  if (delivery.status === "deferred") {
    if (held) return holdForContactRules(db, delivery, slot, rules, debtor.timeZone);
    return defer(db, s, delivery, recipient, limits, now);
  }

  let status: OccurrenceStatus;
  if (delivery.status === "sending") {
    let message: ReminderMessage;
    try {
      message = await reminderFor(env, db, s, delivery, user, debtor, org);
    } catch (error) {
      // No opt-out link can be made (no signing secret): never a reminder without one.
      const reason = `Not sent: ${error instanceof Error ? error.message : String(error)}`;
      await markDeliveryFailed(db, delivery.id, reason);
      const next = advancePast(s, scheduledAt, "failed", now);
      const advanced = await advanceSchedule(db, s.id, scheduledAt, next, now);
      return { kind: "done", status: "failed", nextAlarmAt: advanced ? next.nextRunAt : await currentAlarm(db, s.id) };
    }
    const result = await send(env, message, delivery.occurrenceKey);
    if (result.ok) {
      await markDeliverySent(db, delivery.id, result.id);
      status = "sent";
    } else if (result.retryable && attempt < MAX_SEND_ATTEMPTS) {
      // Still 'sending': the next alarm retries under the same key; the error is visible meanwhile.
      await recordDeliveryError(db, delivery.id, result.error);
      return { kind: "retry", nextAlarmAt: now + retryDelay(attempt), attempt: attempt + 1, error: result.error };
    } else {
      const error = result.retryable ? `Gave up after ${attempt} attempts. ${result.error}` : result.error;
      await markDeliveryFailed(db, delivery.id, error);
      status = "failed";
    }
  } else {
    // Handled by an earlier firing: only a delivered one ('sent', later maybe 'bounced') counts as
    // sent; a 'failed' one keeps its template, as when it first failed.
    status = delivery.status === "failed" ? "failed" : "duplicate";
  }

  const next = advancePast(s, scheduledAt, status, now);
  const advanced = await advanceSchedule(db, s.id, scheduledAt, next, now);
  // Not advanced: someone changed the schedule meanwhile and its alarm is theirs.
  return { kind: "done", status, nextAlarmAt: advanced ? next.nextRunAt : await currentAlarm(db, s.id) };
}

const DAY_MS = 86_400_000;

/** Why a schedule stops instead of sending: nothing owed, or the address opted out; null to go on. */
function stopReason(debtor: Debtor, addressOptedOut: boolean): "paid" | "opted_out" | null {
  if (addressOptedOut || debtor.status === "opted_out") return "opted_out";
  if (outstandingCents(debtor) <= 0 || debtor.status === "paid") return "paid";
  return null;
}

/** What a given-up occurrence says in the report. */
const STOPPED_MESSAGES = {
  paid: "Not sent: the debt was paid in full before this reminder went out.",
  opted_out: "Not sent: the debtor opted out of reminders before this one went out.",
} as const;

/**
 * Outside the debtor's hours or past their contact cap: the occurrence waits (same key) until
 * the first moment the rules allow, and says so in the report and the schedule's details.
 */
async function holdForContactRules(
  db: Db,
  delivery: Delivery,
  slot: ContactSlot,
  rules: ContactRules,
  timeZone: string,
): Promise<FireOutcome> {
  const reason = contactWaitMessage(slot, rules, formatInstant(slot.at, timeZone)) ?? "Waiting for the contact rules.";
  await recordDeferral(db, delivery.id, reason);
  return { kind: "deferred", nextAlarmAt: slot.at, occurrenceKey: delivery.occurrenceKey, reason };
}

/**
 * A sending limit held the occurrence back: the deferred delivery says which and until when, the
 * schedule stays on this occurrence (same key) and the alarm comes back once the limit has room.
 */
async function defer(
  db: Db,
  s: Schedule,
  delivery: Delivery,
  recipient: string,
  limits: SendingLimits,
  now: number,
): Promise<FireOutcome> {
  const wait = limitWait(await countedInstants(db, s.ownerId, recipient, now), limits);
  const reason = deferralMessage(wait, recipient, s.timeZone);
  await recordDeferral(db, delivery.id, reason);
  // Room already (a slot freed since the claim): look again shortly rather than wait.
  const nextAlarmAt = wait && wait.until > now ? wait.until : now + DEFER_RECHECK_MS;
  return { kind: "deferred", nextAlarmAt, occurrenceKey: delivery.occurrenceKey, reason };
}

/**
 * The reminder of a claimed delivery: its template and tone, the debtor's outstanding amount,
 * header-safe names and the signed opt-out link. Throws when no opt-out link can be made.
 */
async function reminderFor(
  env: Env,
  db: Db,
  s: Schedule,
  delivery: Delivery,
  user: Sender,
  debtor: Debtor,
  org: SenderOrganization | undefined,
): Promise<ReminderMessage> {
  const config = readConfig(env);
  const unsubscribeUrl = await optOutLink(db, config, debtor);
  const paidUrl = await paidClaimLink(db, config, debtor);
  // No address, link or invisible character in a name: it becomes the From header's display name.
  const senderName = safeDisplayName(senderDisplayName(user, org)) || safeDisplayName(user.fullName);
  return {
    to: debtor.email,
    template: delivery.template as TemplateId,
    tone: toTone(delivery.tone),
    receiverName: oneLine(debtor.fullName),
    senderName,
    senderEmail: user.email,
    senderCompany: org ? { name: safeDisplayName(org.name), address: safeLines(org.address).join("\n") } : null,
    amountCents: outstandingCents(debtor),
    currency: debtor.currency,
    dueDate: s.dueDate,
    invoiceNumber: debtor.invoiceNumber?.trim() || null,
    locale: "en",
    unsubscribeUrl,
    // The organization's page when sent as one that has its own, else the user's (issue 11).
    payUrl: (org ? org.paymentUrl : null) ?? user.paymentUrl ?? null,
    paidUrl,
  };
}

/** Hands the reminder to the mail Worker; an RPC failure counts as a retryable send failure. */
async function send(env: Env, message: ReminderMessage, occurrenceKey: string): Promise<SendResult> {
  return env.MAILER.sendReminder(message, occurrenceKey).catch((error: unknown) => ({
    ok: false as const,
    retryable: true,
    status: null,
    error: `Mail Worker: ${error instanceof Error ? error.message : String(error)}`,
    attempts: 0,
  }));
}

/** The wait before retry `attempt + 1`: the backoff table, its last step once it runs out. */
function retryDelay(attempt: number): number {
  return RETRY_BACKOFF_MS[Math.min(attempt - 1, RETRY_BACKOFF_MS.length - 1)] ?? RETRY_BACKOFF_MS[0];
}
