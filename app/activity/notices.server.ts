import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, type SQLWrapper, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtorEvents, debtors, userNotifications, users } from "~/db/schema";
import {
  DEBTOR_ACTION_KINDS,
  DELIVERY_PROBLEM_KINDS,
  DIGEST_MAX_ITEMS,
  isDebtorAction,
  type NoticeKind,
  SCHEDULE_KINDS,
} from "~/domain/notice";
import { mail, sendRecorded } from "~/mail/index.server";
import { type AppConfig, linkOrigin } from "~/platform/config.server";

/**
 * The user is told: one e-mail to the user's own
 * address for each debtor action ("I've paid", a promise, a dispute, an opt-out) and each hard
 * bounce and complaint, while the user's switch for that kind is on (Settings → Info). A notice is
 * written in the batch that records its event, by `noticeInsert` right after the event's insert,
 * and sent after the batch (`sendNotices`); the watchdog sends what was left 'pending'. Notices
 * are no deliveries: no quota, no sending limit, never to a debtor.
 */

/**
 * The notice of the `kind` event the same batch just recorded for the debtor at `at`: an
 * INSERT … SELECT from that debtor_events row, so an action that recorded no event (a repeated
 * click) records no notice, and only while the owner's switch for the kind is on. The event key
 * `<kind>:<event id>` is unique: the same event is told once. Put it after the event's insert.
 */
export function noticeInsert(
  db: Db,
  e: { ownerId: string | SQLWrapper; debtorId: number | SQLWrapper; kind: NoticeKind; at: number },
) {
  const on = isDebtorAction(e.kind)
    ? users.notifyDebtorActions
    : e.kind === "schedule_ended"
      ? users.notifyScheduleEnds
      : users.notifyDeliveryProblems;
  return db
    .insert(userNotifications)
    .select(
      db
        // Every column in the table's order (INSERT … SELECT lists them all); id: the next one.
        .select({
          id: sql<number>`null`.as("id"),
          ownerId: debtorEvents.ownerId,
          kind: sql<string>`${e.kind}`.as("kind"),
          debtorId: debtorEvents.debtorId,
          eventId: sql<number>`${debtorEvents.id}`.as("event_id"),
          eventKey: sql<string>`${e.kind} || ':' || ${debtorEvents.id}`.as("event_key"),
          status: sql<string>`'pending'`.as("status"),
          createdAt: sql<number>`${e.at}`.as("created_at"),
          sentAt: sql<number | null>`null`.as("sent_at"),
          error: sql<string | null>`null`.as("error"),
        })
        .from(debtorEvents)
        .innerJoin(users, eq(users.id, debtorEvents.ownerId))
        .where(
          and(
            eq(debtorEvents.debtorId, e.debtorId),
            eq(debtorEvents.ownerId, e.ownerId),
            eq(debtorEvents.type, e.kind),
            eq(debtorEvents.createdAt, e.at),
            eq(on, true),
          ),
        ),
    )
    .onConflictDoNothing();
}

/**
 * Whether the owner is e-mailed about their debtors' actions, not yet run (a statement of the
 * debtor pages' batch): the pages say "has been told" only then.
 */
export function noticeSwitchQuery(db: Db, ownerId: string) {
  return db.select({ on: users.notifyDebtorActions }).from(users).where(eq(users.id, ownerId)).limit(1);
}

/** Notices sent per call: a request's own are one or two; the watchdog's net takes this many a run. */
export const NOTICES_PER_RUN = 25;

/** A notice still 'pending' this long after it was written was not sent by its request: the watchdog sends it. */
export const NOTICE_STALE_MS = 5 * 60_000;

/**
 * A notice pending longer than this is given up ('failed'): the provider keeps an Idempotency-Key
 * for 24 hours, so a later send could not be told from a first one.
 */
export const NOTICE_GIVE_UP_MS = 23 * 60 * 60_000;

type Which = { ownerId: string } | { before: number };

/**
 * Sends pending notices through the mail client (`mail.notice`, the event key as Idempotency-Key,
 * so a notice two callers send at once goes out once) and marks each 'sent', or 'failed' when
 * the failure will not pass; a retryable failure stays 'pending' for the watchdog. `ownerId`: that
 * owner's (after their event's batch); `before`: everyone's written before then (the watchdog).
 * Never throws; returns how many were sent.
 */
export async function sendNotices(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  which: Which,
  now = Date.now(),
): Promise<number> {
  try {
    const scope =
      "ownerId" in which
        ? eq(userNotifications.ownerId, which.ownerId)
        : and(lt(userNotifications.createdAt, which.before), gte(userNotifications.createdAt, now - NOTICE_GIVE_UP_MS));
    const pending = await db
      .select({
        id: userNotifications.id,
        kind: userNotifications.kind,
        debtorId: userNotifications.debtorId,
        eventKey: userNotifications.eventKey,
        to: users.email,
        debtorName: debtors.fullName,
        debtorEmail: debtors.email,
        detail: debtorEvents.detail,
      })
      .from(userNotifications)
      .innerJoin(users, eq(users.id, userNotifications.ownerId))
      .innerJoin(debtors, eq(debtors.id, userNotifications.debtorId))
      .leftJoin(debtorEvents, eq(debtorEvents.id, userNotifications.eventId))
      // An account being deleted is told nothing more.
      .where(and(eq(userNotifications.status, "pending"), scope, isNull(users.deletingAt)))
      .orderBy(asc(userNotifications.createdAt))
      .limit(NOTICES_PER_RUN);
    const origin = linkOrigin(config);
    let sent = 0;
    for (const n of pending) {
      const result = await mail.notice(
        env,
        {
          to: n.to,
          kind: n.kind as NoticeKind,
          debtorName: n.debtorName,
          debtorEmail: n.debtorEmail,
          detail: n.detail ?? "",
          debtorUrl: `${origin}/debtors/${n.debtorId}`,
          settingsUrl: `${origin}/iam/info`,
        },
        n.eventKey,
      );
      if (result.ok) sent += 1;
      // Sent, failed for good, or still pending for the watchdog: each with why it is not sent.
      const status = result.ok ? "sent" : result.retryable ? "pending" : "failed";
      await db
        .update(userNotifications)
        .set({ status, sentAt: result.ok ? Date.now() : null, error: result.ok ? null : result.error })
        .where(and(eq(userNotifications.id, n.id), eq(userNotifications.status, "pending")));
    }
    return sent;
  } catch (error) {
    console.error("[dunly] could not send notices", error);
    return 0;
  }
}

/**
 * The watchdog's net: notices left 'pending' for NOTICE_STALE_MS (their
 * request ended before the send, or the send failed and may pass now) are sent, NOTICES_PER_RUN a
 * run; those older than NOTICE_GIVE_UP_MS are marked 'failed'.
 */
export async function sendStaleNotices(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  now = Date.now(),
) {
  await db
    .update(userNotifications)
    .set({
      status: "failed",
      // What the last attempt said stays in front of it.
      error: sql`'Gave up after 23 hours of retries' || coalesce(': ' || ${userNotifications.error}, '')`,
    })
    .where(and(eq(userNotifications.status, "pending"), lt(userNotifications.createdAt, now - NOTICE_GIVE_UP_MS)));
  return sendNotices(env, db, config, { before: now - NOTICE_STALE_MS }, now);
}

/**
 * After an event's batch: the owner's pending notices are sent once the response has gone
 * (`ctx.waitUntil`), so the debtor's page never waits on the provider; the watchdog catches a
 * send that did not finish.
 */
export function sendNoticesAfter(
  ctx: Pick<ExecutionContext, "waitUntil">,
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  ownerId: string,
) {
  ctx.waitUntil(sendNotices(env, db, config, { ownerId }));
}

// The daily digest -------------------------------------------------------------------------------

/** The UTC hour from which the day's digests go out (users have no stored time zone). */
export const DIGEST_HOUR_UTC = 8;

/** Digests sent per watchdog run: a backlog waits for the next run, five minutes on. */
export const DIGESTS_PER_RUN = 10;

const DAY_MS = 24 * 60 * 60_000;
const DIGEST_KINDS = [...DEBTOR_ACTION_KINDS, ...DELIVERY_PROBLEM_KINDS, ...SCHEDULE_KINDS];

/**
 * The watchdog's daily digest: from 08:00 UTC, each
 * user who switched it on and has no digest for today gets one e-mail listing the last 24 hours'
 * debtor actions and delivery problems (whatever their other switches), DIGESTS_PER_RUN users a
 * run. A day with nothing to tell sends nothing. The digest is recorded before it is sent
 * (`sendRecorded`, key `digest:<user>:<day>`), so one that could not be sent is retried by the
 * watchdog as it was built; digest_sent_on marks the day once it is recorded. Never throws; returns
 * how many were sent at once.
 */
export async function sendDailyDigests(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  now = Date.now(),
): Promise<number> {
  if (new Date(now).getUTCHours() < DIGEST_HOUR_UTC) return 0;
  const day = new Date(now).toISOString().slice(0, 10);
  const origin = linkOrigin(config);
  let sent = 0;
  try {
    const due = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        and(
          eq(users.notifyDigest, true),
          or(isNull(users.digestSentOn), lt(users.digestSentOn, day)),
          isNull(users.deletingAt),
        ),
      )
      .limit(DIGESTS_PER_RUN);
    for (const user of due) {
      const since = now - DAY_MS;
      // Through the owner's debtors (their owner index) and each one's events (debtor_id, created_at).
      const recent = and(
        eq(debtors.ownerId, user.id),
        eq(debtorEvents.ownerId, user.id),
        inArray(debtorEvents.type, DIGEST_KINDS),
        gte(debtorEvents.createdAt, since),
        lt(debtorEvents.createdAt, now),
      );
      const [items, totals] = await db.batch([
        db
          .select({
            kind: debtorEvents.type,
            debtorId: debtorEvents.debtorId,
            detail: debtorEvents.detail,
            debtorName: debtors.fullName,
          })
          .from(debtors)
          .innerJoin(debtorEvents, eq(debtorEvents.debtorId, debtors.id))
          .where(recent)
          .orderBy(desc(debtorEvents.createdAt), desc(debtorEvents.id))
          .limit(DIGEST_MAX_ITEMS),
        db
          .select({ n: count() })
          .from(debtors)
          .innerJoin(debtorEvents, eq(debtorEvents.debtorId, debtors.id))
          .where(recent),
      ]);
      if (items.length > 0) {
        // Recorded before it is sent: one that could not be sent is retried by the watchdog under
        // its key, with the same items, and shown in Settings → E-mails (app/mail/recorded.server.ts).
        const status = await sendRecorded(env, db, {
          ownerId: user.id,
          key: `digest:${user.id}:${day}`,
          email: {
            kind: "digest",
            message: {
              to: user.email,
              day,
              items: items.map((i) => ({
                kind: i.kind as NoticeKind,
                debtorName: i.debtorName,
                detail: i.detail,
                debtorUrl: `${origin}/debtors/${i.debtorId}`,
              })),
              total: totals[0]?.n ?? items.length,
              settingsUrl: `${origin}/iam/info`,
            },
          },
        });
        if (status === "sent") sent += 1;
      }
      await db.update(users).set({ digestSentOn: day }).where(eq(users.id, user.id));
    }
  } catch (error) {
    console.error("[dunly] could not send digests", error);
  }
  return sent;
}
