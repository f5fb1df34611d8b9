import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users } from "~/db/schema";
import type { AccountNoticeKind } from "~/domain/account-notice";
import { formatDate } from "~/domain/dates";
import { userLocale } from "~/domain/number-locale";
import { TRIAL_WARNING_MS } from "~/domain/plans";
import { type AppConfig, linkOrigin } from "~/platform/config.server";
import { sendAccountNotice } from "./account-notices.server";

/** Trial e-mails sent per watchdog run, of each kind. */
export const TRIAL_NOTICES_PER_RUN = 25;

/** Not subscribed: no status, or one that gives no plan. */
const notSubscribed = or(
  isNull(users.subscriptionStatus),
  sql`${users.subscriptionStatus} NOT IN ('active', 'trialing', 'past_due')`,
);

/**
 * The watchdog's trial e-mails (docs/decisions/019): "your trial ends in 3 days" once the end is
 * three days away, "your trial has ended" once it has, each once per account (trial_warned_at,
 * trial_ended_sent_at: claimed before the e-mail is recorded, released only when it could not be
 * recorded; a recorded one that could not be sent is retried by the watchdog), never to an account
 * that subscribed. Through the index on users (trial_ends_at). Returns how many were recorded.
 */
export async function sendTrialNotices(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  now: number,
) {
  const origin = linkOrigin(config);
  let sent = 0;
  for (const kind of ["trial_ending", "trial_ended"] as const) {
    const mark = kind === "trial_ending" ? users.trialWarnedAt : users.trialEndedSentAt;
    const due =
      kind === "trial_ending"
        ? and(lte(users.trialEndsAt, now + TRIAL_WARNING_MS), gt(users.trialEndsAt, now))
        : lte(users.trialEndsAt, now);
    const rows = await db
      .select({ id: users.id, email: users.email, trialEndsAt: users.trialEndsAt, locale: users.locale })
      .from(users)
      .where(and(due, isNull(mark), notSubscribed, isNull(users.deletingAt)))
      .limit(TRIAL_NOTICES_PER_RUN);
    for (const row of rows) {
      const claimed = await db
        .update(users)
        .set(kind === "trial_ending" ? { trialWarnedAt: now } : { trialEndedSentAt: now })
        .where(and(eq(users.id, row.id), isNull(mark)))
        .returning({ id: users.id });
      if (claimed.length === 0) continue;
      try {
        await sendTrialNotice(env, db, origin, kind, row);
        sent += 1;
      } catch (error) {
        console.error(`[dunly] trial notice ${kind} for ${row.id} not recorded`, error);
        await db
          .update(users)
          .set(kind === "trial_ending" ? { trialWarnedAt: null } : { trialEndedSentAt: null })
          .where(eq(users.id, row.id));
      }
    }
  }
  return sent;
}

function sendTrialNotice(
  env: Env,
  db: Db,
  origin: string,
  kind: Extract<AccountNoticeKind, "trial_ending" | "trial_ended">,
  row: { id: string; email: string; trialEndsAt: number | null; locale: string | null },
) {
  const date = formatDate(new Date(row.trialEndsAt ?? 0).toISOString().slice(0, 10), userLocale(row.locale));
  return sendAccountNotice(
    env,
    db,
    row.id,
    { to: row.email, kind, date, actionUrl: `${origin}/pricing` },
    `${kind}:${row.id}`,
  );
}
