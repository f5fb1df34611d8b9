import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { debtors, deliveries, organizations, schedules, users } from "~/db/schema";
import type { FrequencyId } from "~/domain/frequencies";
import type { PresetId, TemplateId } from "~/domain/presets";
import { templateForStep } from "~/domain/presets";
import { nextRunAfter } from "~/domain/schedule-time";
import type { ReminderMessage, SendResult } from "./mail/index";

/** A retryable provider failure is tried again by the alarm this many times before it is 'failed'. */
export const MAX_SEND_ATTEMPTS = 5;
/** Waits between alarm retries of one occurrence (the mail Worker already retried quickly). */
export const RETRY_BACKOFF_MS = [60_000, 5 * 60_000, 15 * 60_000, 30 * 60_000] as const;
/** An alarm that fires this early is not due yet: it re-arms for the real time. */
const EARLY_TOLERANCE_MS = 1_000;

export type FireOutcome =
  | { kind: "gone" } // deleted, disabled or completed: no alarm
  | { kind: "not-due"; nextAlarmAt: number }
  | { kind: "retry"; nextAlarmAt: number; attempt: number; error: string }
  | { kind: "done"; status: "sent" | "failed" | "skipped" | "duplicate"; nextAlarmAt: number | null };

/** One line for a header: names with line breaks or runs of spaces are collapsed, not rejected. */
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/**
 * Fires the occurrence a schedule is due for (DESIGN §4): exactly-once effect on top of
 * at-least-once alarms. The delivery row (unique occurrence key) is written before the provider
 * is called, the key is the provider's Idempotency-Key, and an occurrence already 'sent' or
 * 'failed' sends nothing. `attempt` counts alarm retries of this occurrence (1 = first try).
 */
export async function fireSchedule(env: Env, scheduleId: string, now: number, attempt = 1): Promise<FireOutcome> {
  const db = getDb(env.DB);
  const s = await db.select().from(schedules).where(eq(schedules.id, scheduleId)).get();
  if (!s || s.state !== "ENABLED" || s.nextRunAt == null) return { kind: "gone" };
  if (s.nextRunAt > now + EARLY_TOLERANCE_MS) return { kind: "not-due", nextAlarmAt: s.nextRunAt };

  const scheduledAt = s.nextRunAt;
  const occurrenceKey = `${s.id}:${scheduledAt}`;
  const [userRows, debtorRows, orgRows] = await db.batch([
    db.select({ fullName: users.fullName, email: users.email }).from(users).where(eq(users.id, s.ownerId)).limit(1),
    db
      .select()
      .from(debtors)
      .where(and(eq(debtors.id, s.debtorId), eq(debtors.ownerId, s.ownerId)))
      .limit(1),
    db
      .select({ name: organizations.name, address: organizations.address })
      .from(organizations)
      .where(and(eq(organizations.id, s.organizationId ?? -1), eq(organizations.ownerId, s.ownerId)))
      .limit(1),
  ]);
  const user = userRows[0];
  const debtor = debtorRows[0];
  if (!user || !debtor) return { kind: "gone" };

  // Nothing is owed any more (or the debtor opted out): the schedule is finished, not failed.
  const outstanding = debtor.debtCents - debtor.paidCents;
  if (outstanding <= 0 || debtor.status === "paid" || debtor.status === "opted_out") {
    const completed = await db
      .update(schedules)
      .set({ state: "COMPLETED", nextRunAt: null, updatedAt: now })
      .where(and(eq(schedules.id, s.id), eq(schedules.nextRunAt, scheduledAt)))
      .returning({ id: schedules.id });
    // Edited meanwhile: keep the alarm the edit set.
    return { kind: "done", status: "skipped", nextAlarmAt: completed.length > 0 ? null : await currentAlarm(db, s.id) };
  }

  const template: TemplateId = templateForStep(s.preset as PresetId, s.templateStep);
  const tone = ([1, 2, 3] as const).find((t) => t === debtor.activeStrategy) ?? 1;
  await db
    .insert(deliveries)
    .values({
      ownerId: s.ownerId,
      scheduleId: s.id,
      debtorId: debtor.id,
      occurrenceKey,
      template,
      tone,
      status: "sending",
      createdAt: now,
    })
    .onConflictDoNothing({ target: deliveries.occurrenceKey });
  const delivery = (await db.select().from(deliveries).where(eq(deliveries.occurrenceKey, occurrenceKey)).get())!;

  let status: "sent" | "failed" | "duplicate";
  if (delivery.status === "sending") {
    const org = orgRows[0];
    const message: ReminderMessage = {
      to: debtor.email,
      template: delivery.template as TemplateId,
      tone: delivery.tone as 1 | 2 | 3,
      receiverName: debtor.fullName,
      senderName: oneLine(org?.name ?? (user.fullName || user.email)),
      senderEmail: user.email,
      senderCompany: org ? { name: oneLine(org.name), address: org.address } : null,
      amountCents: outstanding,
      currency: debtor.currency,
      dueDate: s.dueDate,
      locale: "en",
    };
    const result: SendResult = await env.MAILER.sendReminder(message, occurrenceKey).catch((error: unknown) => ({
      ok: false as const,
      retryable: true,
      status: null,
      error: `Mail Worker: ${error instanceof Error ? error.message : String(error)}`,
      attempts: 0,
    }));
    if (result.ok) {
      await db
        .update(deliveries)
        .set({ status: "sent", providerId: result.id, error: null, sentAt: Date.now() })
        .where(eq(deliveries.id, delivery.id));
      status = "sent";
    } else if (result.retryable && attempt < MAX_SEND_ATTEMPTS) {
      // Still 'sending': the next alarm retries under the same key; the error is visible meanwhile.
      await db.update(deliveries).set({ error: result.error }).where(eq(deliveries.id, delivery.id));
      const wait = RETRY_BACKOFF_MS[Math.min(attempt - 1, RETRY_BACKOFF_MS.length - 1)]!;
      return { kind: "retry", nextAlarmAt: now + wait, attempt: attempt + 1, error: result.error };
    } else {
      const error = result.retryable ? `Gave up after ${attempt} attempts. ${result.error}` : result.error;
      await db.update(deliveries).set({ status: "failed", error }).where(eq(deliveries.id, delivery.id));
      status = "failed";
    }
  } else {
    // Handled by an earlier firing: only a delivered one ('sent', later maybe 'bounced') counts as
    // sent; a 'failed' one keeps its template, as when it first failed.
    status = delivery.status === "failed" ? "failed" : "duplicate";
  }

  return { kind: "done", status, nextAlarmAt: await advance(db, s, scheduledAt, status, now) };
}

/**
 * Moves the schedule past the occurrence at `scheduledAt`, once: last_run_at records the
 * occurrence handled, so a repeated firing does not skip a template. A failed send keeps the
 * template (the next occurrence tries it again) and never stops the schedule.
 */
async function advance(
  db: ReturnType<typeof getDb>,
  s: typeof schedules.$inferSelect,
  scheduledAt: number,
  status: "sent" | "failed" | "duplicate",
  now: number,
): Promise<number | null> {
  const alreadyAdvanced = s.lastRunAt != null && s.lastRunAt >= scheduledAt;
  const frequency = s.frequency as FrequencyId;
  const once = frequency === "now";
  const nextRunAt = once ? null : nextRunAfter(frequency, Math.max(scheduledAt, now), s.timeZone);
  const sentNow = status === "sent" || (status === "duplicate" && !alreadyAdvanced);
  const changed = await db
    .update(schedules)
    .set({
      templateStep: alreadyAdvanced || !sentNow ? s.templateStep : s.templateStep + 1,
      lastRunAt: scheduledAt,
      nextRunAt,
      state: once ? "COMPLETED" : "ENABLED",
      updatedAt: now,
    })
    // Only if nobody edited or deleted the schedule meanwhile; an edit has re-armed it already.
    .where(and(eq(schedules.id, s.id), eq(schedules.nextRunAt, scheduledAt), eq(schedules.state, "ENABLED")))
    .returning({ id: schedules.id });
  if (changed.length > 0) return nextRunAt;
  return currentAlarm(db, s.id);
}

/** The next run of a schedule someone changed meanwhile (null when it is gone or finished). */
async function currentAlarm(db: ReturnType<typeof getDb>, id: string) {
  const fresh = await db
    .select({ state: schedules.state, nextRunAt: schedules.nextRunAt })
    .from(schedules)
    .where(eq(schedules.id, id))
    .get();
  return fresh?.state === "ENABLED" ? fresh.nextRunAt : null;
}
