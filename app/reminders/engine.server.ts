import { type Db, getDb } from "~/db/client.server";
import { countriesOf } from "~/db/text-allowance";
import { type StepChannel, sendsEmail, sendsText } from "~/domain/cadence";
import { type CadenceInvoice, firingVoice } from "~/domain/cadence-plan";
import {
  CONTACT_DEFAULTS,
  type ContactRules,
  type ContactSlot,
  contactRules,
  contactWaitMessage,
  nextContactSlotIn,
} from "~/domain/contact-rules";
import { formatDateTime } from "~/domain/dates";
import { deferralMessage, limitWait, recipientKey, type SendingLimits, sendingLimits } from "~/domain/limits";
import { outstandingCents } from "~/domain/money";
import { advancePast, cadencePlanOf, cadenceRunAfter, occurrenceKey, type ScheduleProgress } from "~/domain/occurrence";
import { numberZone, textAllowedTo } from "~/domain/phone";
import { effectivePlan, type Plan } from "~/domain/plans";
import { type PresetId, templateForStep } from "~/domain/presets";
import type { Statement } from "~/domain/statement";
import { toTone } from "~/domain/strategies";
import { ALLOWANCE_NOTE, stepSend, type TextReachFacts } from "~/domain/text-reach";
import { readConfig } from "~/platform/config.server";
import {
  abandonOccurrence,
  claimOccurrence,
  countedInstants,
  type Delivery,
  type Occurrence,
  recordDeferral,
} from "~/reminders/deliveries.server";
import type { Debtor, Schedule } from "~/reminders/schedules.server";
import { textsAvailable } from "~/texts/index.server";
import type { ReminderMessage } from "../../emails/reminder-message";
import { type Firing, loadFiring, loadFirings } from "./firing.server";
import { advanceSchedule, completeSchedule, currentAlarm, holdAtOccurrence } from "./occurrences.server";
import { allowanceWait, textHeldStatements } from "./text-hold.server";

/**
 * A due reminder on the mail queue (app/reminders/mail-queue.server.ts): its delivery row (already
 * 'sending') and what the consumer needs to move the schedule on once it is sent. No message: the
 * consumer builds it (statement, signed links) for a whole call at once, just before its batch is
 * written (docs/decisions/024), so an alarm only claims and enqueues a few hundred bytes.
 */
export interface MailJob {
  deliveryId: number;
  /** The provider's Idempotency-Key. */
  occurrenceKey: string;
  scheduleId: string;
  scheduledAt: number;
  progress: ScheduleProgress;
  /**
   * Where the alarm that queued it left its schedule's Durable Object alarm (queuedAlarmAt): when
   * the consumer moves the schedule on to that instant or later, it leaves the object alone (the
   * alarm re-arms itself, or fires then and finds the schedule not due). Absent on a job the
   * watchdog rebuilt: the consumer then moves the alarm itself.
   */
  alarmAt?: number;
  /**
   * The occurrence's text (decisions/070): 'text', the delivery itself is the text (its row's
   * channel); 'both', the e-mail is the delivery and a companion text goes beside it under
   * textOccurrenceKey; `skip` records that companion 'skipped' with why (the month's texts used up).
   */
  text?: ClaimText;
}

/** A step's text as its claim decided it: where to and how it goes with the e-mail. */
export interface ClaimText {
  to: string;
  mode: "text" | "both";
  skip?: string;
}

/** A job with the message the consumer built for it: what a mail batch carries and resends as is. */
export interface ReadyJob extends MailJob {
  message: ReminderMessage;
}

/**
 * After handing an occurrence to the queue the alarm comes back this much later, only as a net: by
 * then the consumer has sent it and moved the schedule on (the alarm then re-arms for the next
 * occurrence), or the alarm puts the same job on the queue again (the consumer sends a delivery
 * once, so a second copy is dropped).
 */
export const QUEUED_RECHECK_MS = 60 * 60_000;
/** An alarm that fires this early is not due yet: it re-arms for the real time. */
const EARLY_TOLERANCE_MS = 1_000;
/** A deferred occurrence whose limit has room again by the time it is looked at tries again this soon. */
const DEFER_RECHECK_MS = 60_000;

export type FireOutcome =
  | { kind: "gone" } // deleted, disabled or completed: no alarm
  | { kind: "not-due"; nextAlarmAt: number }
  // claimed and ready: the caller puts `job` on the mail queue and looks again at nextAlarmAt
  | { kind: "queued"; nextAlarmAt: number; job: MailJob }
  // held back by a sending limit: nothing sent, the same occurrence is tried again at nextAlarmAt
  | { kind: "deferred"; nextAlarmAt: number; occurrenceKey: string; reason: string }
  | { kind: "done"; status: "failed" | "skipped" | "duplicate"; nextAlarmAt: number | null };

/**
 * Fires the occurrence a schedule is due for: exactly-once effect on top of at-least-once alarms.
 * The delivery row (unique occurrence key) is written 'sending' before anything is sent and the
 * reminder goes on the mail queue (`queued`); the queue's consumer sends it with the key as the
 * provider's Idempotency-Key and moves the schedule on (app/reminders/mail-queue.server.ts). An occurrence
 * already 'sent' or 'failed' sends nothing. A claim over a sending limit (app/domain/limits.ts) is
 * 'deferred': nothing is sent and the same occurrence is fired again when the limit has room.
 * A debtor whose statement has no open invoice (what is still owed is disputed) is held, never
 * sent a blank reminder. Costs two D1 round trips: one batch to load, one statement to claim.
 */
export async function fireSchedule(env: Env, scheduleId: string, now: number): Promise<FireOutcome> {
  const prepared = await prepareFiring(env, scheduleId, now);
  if (prepared.kind !== "claim") return prepared;
  return claimHere(getDb(env.DB), prepared.claim, now);
}

/** A claim made on its own (not by the mail handoff), and what its row means (settleClaim). */
export async function claimHere(db: Db, claim: ClaimRequest, now: number): Promise<FireOutcome> {
  return settleClaim(db, claim, await claimOccurrence(db, ...claimArgs(claim, now)), now);
}

/**
 * An occurrence about to be claimed (fireSchedule's claim, made later by the mail handoff for many
 * at once: docs/decisions/029): the delivery row's values, the limits and contact cap the claim
 * counts, whether the debtor's contact rules hold it, and what its job and the schedule's alarm
 * need. Plain data: it is stored and passed between objects.
 */
export interface ClaimRequest {
  occurrence: Occurrence & { recipient: string };
  limits: SendingLimits;
  contact: { maxPerWindow: number; windowMs: number };
  /** Outside the debtor's hours or past their cap: written 'deferred' until `slot.at`. */
  hold: { slot: ContactSlot; rules: ContactRules; timeZone: string } | null;
  /**
   * The debtor's invoices from the owner's accounting tool have not synced for BOOKS_STALE_MS:
   * written 'deferred' with `reason` and looked at again at `until` (decisions/060). Absent: not paused.
   */
  paused?: { until: number; reason: string } | null;
  /** The schedule's zone (a limit's deferral message gives times in it). */
  scheduleTimeZone: string;
  /** The step's text, when it sends one (absent: e-mail only). */
  text?: ClaimText | null;
  /** A text-only step waits for next month's texts: the user and the timeline are told once, at its deferral. */
  textHeld?: boolean;
  progress: ScheduleProgress;
  /** Where the schedule's alarm goes once the reminder is queued (queuedAlarmAt). */
  alarmAt: number;
}

/** claimOccurrence's arguments for a request. */
export function claimArgs(claim: ClaimRequest, now: number) {
  const hold = claim.hold !== null || Boolean(claim.paused);
  return [claim.occurrence, now, claim.limits, { hold, contact: claim.contact }] as const;
}

/** What an alarm's firing comes to before its claim: an outcome with nothing to claim, or the claim to make. */
export type PreparedFiring = Exclude<FireOutcome, { kind: "queued" }> | { kind: "claim"; claim: ClaimRequest };

/**
 * fireSchedule up to the claim: one D1 batch to load the schedule and what decides it, then either
 * an outcome with nothing to claim (gone, not due, stopped, held) or the claim to make.
 */
export async function prepareFiring(env: Env, scheduleId: string, now: number): Promise<PreparedFiring> {
  const db = getDb(env.DB);
  const texts = textsAvailable(readConfig(env));
  return decideFiring(db, await loadFiring(db, scheduleId, now - CONTACT_LOOKBACK_MS, now), now, texts);
}

/**
 * prepareFiring for many schedules at once (the mail handoff's alarms: docs/decisions/031): one D1
 * batch loads 50 of them, then each is decided as on its own. A schedule's stop or hold writes are
 * its own statements, as prepareFiring's.
 */
export async function prepareFirings(env: Env, scheduleIds: readonly string[], now: number) {
  const db = getDb(env.DB);
  const firings = await loadFirings(db, scheduleIds, now - CONTACT_LOOKBACK_MS, now);
  const texts = textsAvailable(readConfig(env));
  const prepared = new Map<string, PreparedFiring>();
  for (const id of scheduleIds) {
    if (!prepared.has(id)) prepared.set(id, await decideFiring(db, firings.get(id), now, texts));
  }
  return prepared;
}

/** A loaded firing decided: nothing to claim (and why), or the claim to make. */
async function decideFiring(
  db: Db,
  firing: Firing | undefined,
  now: number,
  textsOn: boolean,
): Promise<PreparedFiring> {
  const s = firing?.schedule;
  if (!firing || s?.state !== "ENABLED" || s.nextRunAt == null) return { kind: "gone" };
  if (s.nextRunAt > now + EARLY_TOLERANCE_MS) return { kind: "not-due", nextAlarmAt: s.nextRunAt };
  const scheduledAt = s.nextRunAt;
  const { user, planState, contact, debtor, optedOut, statement } = firing;
  if (!user || !debtor) return { kind: "gone" };
  const recipient = recipientKey(debtor.email);

  // Nothing is owed any more, or the address opted out: the schedule is finished, not failed. Also
  // when this occurrence was waiting or retrying: it is given up, never sent after the fact.
  const stop = stopReason(debtor, optedOut);
  if (stop) {
    await abandonOccurrence(db, occurrenceKey(s.id, scheduledAt), STOPPED_MESSAGES[stop]);
    const completed = await completeSchedule(db, s.id, scheduledAt, now, stop);
    // Edited meanwhile: keep the alarm the edit set.
    return { kind: "done", status: "skipped", nextAlarmAt: completed ? null : await currentAlarm(db, s.id) };
  }

  // Something is owed but no open invoice is left to list (every one still owed is disputed): no
  // reminder with an empty statement. The schedule is held ('disputed') until the dispute is settled.
  const hold = holdReason(statement, debtor, now, firing.planRequested);
  if (hold) {
    await abandonOccurrence(db, occurrenceKey(s.id, scheduledAt), STOPPED_MESSAGES[hold]);
    const held = await holdAtOccurrence(db, s.id, scheduledAt, now, hold);
    return { kind: "done", status: "skipped", nextAlarmAt: held ? null : await currentAlarm(db, s.id) };
  }

  // The account has no plan (its trial ended without one, or its subscription ended): nothing is
  // sent and nothing deleted; the schedule is held ('no_plan') until a plan is chosen (docs/decisions/019).
  const accountPlan = planState ? effectivePlan(planState, now) : null;
  if (!accountPlan) {
    await abandonOccurrence(db, occurrenceKey(s.id, scheduledAt), STOPPED_MESSAGES.no_plan);
    const heldForPlan = await holdAtOccurrence(db, s.id, scheduledAt, now, "no_plan");
    return { kind: "done", status: "skipped", nextAlarmAt: heldForPlan ? null : await currentAlarm(db, s.id) };
  }

  const progress = progressOf(s, debtor.timeZone, firing.invoices);
  const voice = voiceOf(s, progress, scheduledAt);
  const text = textStep(firing, debtor, voice.channel, accountPlan, textsOn, now);

  // Contact rules: only in the debtor's daytime (and, for a text, their number's country's), and
  // not past their cap, which counts texts and e-mails together.
  const rules = contactRules(contact);
  const windowMs = rules.windowDays * DAY_MS;
  // Loaded with the schedule over the contact window (an account cannot change its length).
  // A text recorded 'skipped' (the month's texts used up) does not go: the e-mail keeps its own hours.
  const textZone = text.kind === "send" && !text.skip ? numberZone(text.to) : null;
  const zones: [string, ...string[]] = textZone ? [debtor.timeZone, textZone] : [debtor.timeZone];
  const slot = nextContactSlotIn(now, zones, firing.debtorInstants, rules);
  const held = slot.at > now + EARLY_TOLERANCE_MS;
  const textOnly = text.kind === "send" && text.mode === "text";

  return {
    kind: "claim",
    claim: {
      occurrence: {
        ownerId: s.ownerId,
        scheduleId: s.id,
        debtorId: debtor.id,
        scheduledAt,
        template: voice.template,
        // A step of the account's cadence may have its own tone; else the debtor's.
        tone: voice.tone ?? toTone(debtor.activeStrategy),
        // A text-only step's delivery is the text: its per-recipient cap counts the number.
        recipient: textOnly ? text.to : recipient,
        channel: textOnly ? "text" : "email",
      },
      limits: sendingLimits(accountPlan.id),
      contact: { maxPerWindow: rules.maxPerWindow, windowMs },
      hold: held ? { slot, rules, timeZone: debtor.timeZone } : null,
      paused:
        booksPause(firing.books, now) ?? (text.kind === "held" ? { until: text.until, reason: text.reason } : null),
      textHeld: text.kind === "held",
      text: text.kind === "send" ? { to: text.to, mode: text.mode, ...(text.skip ? { skip: text.skip } : {}) } : null,
      scheduleTimeZone: s.timeZone,
      progress,
      alarmAt: queuedAlarmAt(progress, scheduledAt, now),
    },
  };
}

type TextStep =
  | { kind: "email" }
  | { kind: "send"; to: string; mode: "text" | "both"; skip?: string }
  | { kind: "held"; until: number; reason: string };

/**
 * What this occurrence's step sends besides (or instead of) its e-mail (decisions/070): a step
 * with a text, to a debtor who may be texted (app/domain/text-reach.ts: the channel on, a mobile,
 * the user's consent, no STOP, an enabled country) on a plan with texts. A debtor who cannot be
 * texted gets the e-mail instead, so no step is dropped. Past the month's allowance a text-only
 * step waits for the next month (deferred, the user told), and a step that sends both goes by
 * e-mail with its text recorded 'skipped'. The allowance read here only decides; the consumer
 * takes each text in one conditional statement, so two never take the last one.
 */
function textStep(
  firing: Firing,
  debtor: Debtor,
  channel: StepChannel,
  plan: Plan,
  textsOn: boolean,
  now: number,
): TextStep {
  if (!sendsText(channel) || !debtor.phone) return { kind: "email" };
  const countries = countriesOf(firing.text.countries);
  const facts: TextReachFacts = {
    // A plan without texts has no text channel: its steps go by e-mail.
    configured: textsOn && plan.monthlyTexts > 0,
    enabled: firing.text.enabled,
    phone: debtor.phone,
    consentAt: debtor.textConsentAt,
    optedOut: firing.text.optedOut,
    countryEnabled: textAllowedTo(debtor.phone, { enabled: firing.text.enabled, countries }),
  };
  const send = stepSend(channel, facts, { monthlyTexts: plan.monthlyTexts, used: firing.text.used });
  if (send.text === "none") return { kind: "email" };
  if (send.text === "held") return { kind: "held", ...allowanceWait(plan, now, debtor.timeZone, firing.user?.locale) };
  const mode = sendsEmail(channel) ? "both" : "text";
  return send.text === "skipped"
    ? { kind: "send", to: debtor.phone, mode, skip: `Not sent: ${ALLOWANCE_NOTE}; the e-mail of this step went.` }
    : { kind: "send", to: debtor.phone, mode };
}

/**
 * What a claim's row means (fireSchedule's end, and the mail handoff's for each of its claims):
 * 'sending', a job for the queue; 'deferred', held by the contact rules or a sending limit (the
 * row says until when); already 'sent' or 'failed' by an earlier firing, the schedule moves on.
 */
export async function settleClaim(db: Db, claim: ClaimRequest, delivery: Delivery, now: number): Promise<FireOutcome> {
  const { occurrence, progress } = claim;
  const { scheduledAt } = occurrence;
  if (delivery.status === "deferred") {
    if (claim.paused) {
      // A text step waiting for next month's texts: the user and the timeline are told the first
      // time (a row that already says so was told).
      if (claim.textHeld && delivery.error !== claim.paused.reason) {
        await db.batch([...textHeldStatements(db, occurrence, claim.paused.reason, now)]);
      }
      await recordDeferral(db, delivery.id, claim.paused.reason);
      return {
        kind: "deferred",
        nextAlarmAt: claim.paused.until,
        occurrenceKey: delivery.occurrenceKey,
        reason: claim.paused.reason,
      };
    }
    if (claim.hold) return holdForContactRules(db, delivery, claim.hold.slot, claim.hold.rules, claim.hold.timeZone);
    return defer(db, claim, delivery, now);
  }

  if (delivery.status === "sending") {
    const job: MailJob = {
      deliveryId: delivery.id,
      occurrenceKey: delivery.occurrenceKey,
      scheduleId: occurrence.scheduleId,
      scheduledAt,
      progress,
      alarmAt: claim.alarmAt,
      ...(claim.text ? { text: claim.text } : {}),
    };
    return { kind: "queued", nextAlarmAt: claim.alarmAt, job };
  }

  // Handled by an earlier firing (its consumer had not moved the schedule on): only a delivered one
  // ('sent', later maybe 'bounced') counts as sent; a 'failed' one keeps its template.
  const status = delivery.status === "failed" ? "failed" : "duplicate";
  const next = advancePast(progress, scheduledAt, status, now);
  const advanced = await advanceSchedule(db, occurrence.scheduleId, scheduledAt, next, now);
  // Not advanced: someone changed the schedule meanwhile and its alarm is theirs.
  return {
    kind: "done",
    status,
    nextAlarmAt: advanced ? next.nextRunAt : await currentAlarm(db, occurrence.scheduleId),
  };
}

/**
 * Where a schedule's alarm goes once its occurrence is on the queue (docs/decisions/029): the next
 * run it will have once the reminder is sent, so the consumer need not move it (one Durable Object
 * call and alarm write less per reminder); never sooner than QUEUED_RECHECK_MS, so an alarm that
 * fires while its reminder still waits in the queue or its retries does not loop; the net alone
 * when no run follows (the consumer then ends the object).
 */
export function queuedAlarmAt(progress: ScheduleProgress, scheduledAt: number, now: number): number {
  const net = now + QUEUED_RECHECK_MS;
  const { nextRunAt } = advancePast(progress, scheduledAt, "sent", now);
  return nextRunAt === null ? net : Math.max(nextRunAt, net);
}

/**
 * Where the schedule stands, for advancePast: a due-date one also carries its cadence with the
 * debtor's zone and open invoices as this firing read them.
 */
function progressOf(s: Schedule, debtorTimeZone: string | null, invoices: CadenceInvoice[]): ScheduleProgress {
  const progress: ScheduleProgress = {
    frequency: s.frequency,
    timeZone: s.timeZone,
    templateStep: s.templateStep,
    lastRunAt: s.lastRunAt,
    coveredAt: s.coveredAt ?? s.lastRunAt,
  };
  return s.frequency === "due" ? { ...progress, cadence: cadencePlanOf(s, debtorTimeZone, invoices) } : progress;
}

/**
 * The template of this occurrence: the preset's next one; for a due-date schedule, the step of the
 * most advanced invoice this run carries, with that step's own tone if it has one
 * (app/domain/cadence-plan.ts). A null tone: the debtor's.
 */
function voiceOf(s: Schedule, progress: ScheduleProgress, scheduledAt: number) {
  const preset = s.preset as PresetId;
  const { cadence } = progress;
  if (!cadence) return { template: templateForStep(preset, s.templateStep), tone: null, channel: "email" as const };
  return firingVoice(
    { cadence, preset, invoices: cadence.invoices, lastRunAt: s.coveredAt ?? s.lastRunAt, timeZone: cadence.timeZone },
    scheduledAt,
  );
}

/**
 * Whether more reminders follow this one, as its copy says: not after a one-time reminder, nor
 * after a due-date schedule's last step (no step of an open invoice is left after it).
 */
export function repeatsAfter(progress: ScheduleProgress, scheduledAt: number, now: number): boolean {
  if (progress.frequency === "now") return false;
  const { cadence } = progress;
  if (!cadence) return true;
  return cadenceRunAfter(cadence, Math.max(scheduledAt, now), Math.max(scheduledAt, now)) !== null;
}

const DAY_MS = 86_400_000;
/** Without a successful sync for this long, reminders of invoices from the accounting tool wait (decisions/060). */
export const BOOKS_STALE_MS = DAY_MS;
/** A reminder waiting for the books is looked at again this often (the sync runs every 15 minutes). */
const BOOKS_RECHECK_MS = 60 * 60_000;
const BOOKS_LABEL: Record<string, string> = { xero: "Xero", quickbooks: "QuickBooks" };

/**
 * Whether the reminder waits for the books: the debtor has an open invoice from the owner's
 * accounting tool and it has not synced for BOOKS_STALE_MS (a lost connection, the tool down), so
 * nobody is chased for an invoice paid there meanwhile. It waits (same occurrence, deferred) and
 * goes once a sync succeeds; null: it goes on.
 */
export function booksPause(books: { provider: string; syncedAt: number } | null, now: number) {
  if (!books || books.syncedAt > now - BOOKS_STALE_MS) return null;
  const tool = BOOKS_LABEL[books.provider] ?? books.provider;
  return {
    until: now + BOOKS_RECHECK_MS,
    reason: `Waiting for ${tool}: Dunly has not synced with ${tool} for over 24 hours, so reminders of its invoices wait until a sync succeeds (nobody is chased for an invoice paid there meanwhile). Settings → Accounting says why.`,
  };
}
/** How far back an alarm loads the debtor's reminders: the contact rules' window (7 days; Settings cannot change it). */
const CONTACT_LOOKBACK_MS = CONTACT_DEFAULTS.windowDays * DAY_MS;

/** Why a schedule stops instead of sending: nothing owed, or the address opted out; null to go on. */
export function stopReason(
  debtor: Pick<Debtor, "status" | "debtCents" | "paidCents">,
  addressOptedOut: boolean,
): "paid" | "opted_out" | null {
  if (addressOptedOut || debtor.status === "opted_out") return "opted_out";
  if (outstandingCents(debtor) <= 0 || debtor.status === "paid") return "paid";
  return null;
}

/**
 * Why a schedule is held instead of sending although something is owed: the debtor promised to pay
 * and the promise has not ended (a schedule created or resumed meanwhile holds too, until the
 * watchdog ends the promise: the debtor's page), or its debtor's
 * statement lists no open invoice (disputed invoices are left out of it); null to go on.
 */
export function holdReason(
  statement: Pick<Statement, "lines">,
  debtor: { promiseEndsAt: number | null },
  now: number,
  planRequested = false,
): "promised" | "disputed" | "plan_requested" | null {
  if (debtor.promiseEndsAt !== null && debtor.promiseEndsAt > now) return "promised";
  // The debtor asked for a payment plan (decisions/066): held until the user answers.
  if (planRequested) return "plan_requested";
  return statement.lines.length === 0 ? "disputed" : null;
}

/** What a given-up occurrence says in the report. */
export const STOPPED_MESSAGES = {
  paid: "Not sent: the debt was paid in full before this reminder went out.",
  opted_out: "Not sent: the debtor opted out of reminders before this one went out.",
  disputed:
    "Not sent: the debtor has no open invoice to remind them of (disputed invoices, those you said not to chase and those on a payment plan are left out).",
  promised: "Not sent: the debtor promised to pay by a date that has not passed yet.",
  plan_requested: "Not sent: the debtor asked for a payment plan you have not answered yet.",
  no_plan: "Not sent: the account has no plan (its trial or subscription ended). Choose a plan to resume reminders.",
  bounced: "Not sent: the debtor's address bounced before this reminder went out.",
  held: "Not sent: its schedule was paused or held before this reminder went out.",
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
  const reason = contactWaitMessage(slot, rules, formatDateTime(slot.at, timeZone)) ?? "Waiting for the contact rules.";
  await recordDeferral(db, delivery.id, reason);
  return { kind: "deferred", nextAlarmAt: slot.at, occurrenceKey: delivery.occurrenceKey, reason };
}

/**
 * A sending limit held the occurrence back: the deferred delivery says which and until when, the
 * schedule stays on this occurrence (same key) and the alarm comes back once the limit has room.
 */
async function defer(db: Db, claim: ClaimRequest, delivery: Delivery, now: number): Promise<FireOutcome> {
  const { ownerId, recipient } = claim.occurrence;
  const wait = limitWait(await countedInstants(db, ownerId, recipient, now), claim.limits);
  const reason = deferralMessage(wait, recipient, claim.scheduleTimeZone);
  await recordDeferral(db, delivery.id, reason);
  // Room already (a slot freed since the claim): look again shortly rather than wait.
  const nextAlarmAt = wait && wait.until > now ? wait.until : now + DEFER_RECHECK_MS;
  return { kind: "deferred", nextAlarmAt, occurrenceKey: delivery.occurrenceKey, reason };
}
