import { and, asc, count, desc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, emails, userNotifications } from "~/db/schema";
import { ownerFromAddress } from "~/db/sending-from";
import { type AccountNoticeMessage, accountNoticeCopy } from "~/domain/account-notice";
import { type ClaimAnswerMessage, claimAnswerSubject } from "~/domain/claim-answer";
import { type DigestMessage, digestSubject, type NoticeKind, noticeCopy } from "~/domain/notice";
import { type PasswordChangedEmailProps, passwordChangedSubject } from "~/domain/password-changed";
import type { PlanLetterKind, PlanLetterMessage } from "~/domain/plan-letter";
import { type ReceiptMessage, receiptSubject } from "~/domain/receipt";
import { type ReplyCopyMessage, replyCopySubject } from "~/domain/reply-copy";
import { mail } from "./client.server";
import type { SendResult } from "./contract";

/**
 * Every e-mail other than a reminder or a notice is recorded before its first attempt (the
 * `emails` table): the debtor's receipt, the copy of a debtor's reply, the user's daily digest,
 * Dunly's e-mails about the user's plan and the password-changed notice. A send that may pass later stays 'pending' with its
 * error and is tried again by the watchdog, under the same Idempotency-Key with the same message,
 * at most EMAIL_MAX_ATTEMPTS times in about a day; one that cannot pass is 'failed' with its error.
 * The user sees every one of them, with the notices, in Settings → E-mails (`listEmails`).
 * Reminders have their own record (deliveries) and notices theirs (user_notifications). The
 * sign-in link has none: it carries a live secret, and the user who did not get it asks again.
 */

/** One recorded e-mail: its kind and the message as the mail client takes it. */
export type RecordedEmail =
  | { kind: "receipt"; message: ReceiptMessage }
  | { kind: "claim-answer"; message: ClaimAnswerMessage }
  | { kind: "plan-letter"; message: PlanLetterMessage }
  | { kind: "reply-copy"; message: ReplyCopyMessage }
  | { kind: "account-notice"; message: AccountNoticeMessage }
  | { kind: "password-changed"; message: PasswordChangedEmailProps & { to: string } }
  | { kind: "digest"; message: DigestMessage };

/** Attempts in all: the first, then after 5 min, 15 min, 1 h, 3 h and 8 h (about 12.5 h in all). */
export const EMAIL_MAX_ATTEMPTS = 6;
const RETRY_AFTER_MS = [5, 15, 60, 180, 480].map((minutes) => minutes * 60_000);
/** While an attempt is under way its row is leased this long: a second sender leaves it alone. */
const ATTEMPT_LEASE_MS = 10 * 60_000;
/** Due retries the watchdog makes per run. */
const RETRIES_PER_RUN = 50;

type EmailRecord = typeof emails.$inferSelect;

/**
 * Sends it. A receipt and a claim answer go to a debtor in the user's name: from the user's
 * verified domain as it is at this attempt (`fromAddress`, docs/decisions/059), else Dunly's.
 */
function dispatch(
  env: Pick<Env, "MAILER">,
  email: RecordedEmail,
  key: string,
  fromAddress: string | null,
): Promise<SendResult> {
  switch (email.kind) {
    case "receipt":
      return mail.receipt(env, { ...email.message, fromAddress }, key);
    case "claim-answer":
      return mail.claimAnswer(env, { ...email.message, fromAddress }, key);
    case "plan-letter":
      return mail.planLetter(env, { ...email.message, fromAddress }, key);
    case "reply-copy":
      return mail.replyCopy(env, email.message, key);
    case "account-notice":
      return mail.accountNotice(env, email.message, key);
    case "password-changed":
      return mail.passwordChanged(env, email.message, key);
    case "digest":
      return mail.digest(env, email.message, key);
  }
}

/**
 * One attempt at a recorded e-mail, if it is still 'pending' with the attempts the caller read:
 * claimed first (attempts + 1 and a lease), so two senders never both send it. Returns its status after.
 */
async function attempt(env: Pick<Env, "MAILER">, db: Db, row: EmailRecord, now: number) {
  const claimed = await db
    .update(emails)
    .set({ attempts: row.attempts + 1, nextAttemptAt: now + ATTEMPT_LEASE_MS })
    .where(and(eq(emails.id, row.id), eq(emails.status, "pending"), eq(emails.attempts, row.attempts)))
    .returning({ id: emails.id });
  if (claimed.length === 0) return row.status;
  const attempts = row.attempts + 1;
  const email = JSON.parse(row.payload) as RecordedEmail;
  const toDebtor = email.kind === "receipt" || email.kind === "claim-answer" || email.kind === "plan-letter";
  // An instalment's reminder or nudge re-checks the debtor at every attempt (decisions/066).
  const refused = await instalmentLetterRefusal(db, row, email);
  if (refused) {
    await db.update(emails).set({ status: "failed", error: refused, nextAttemptAt: null }).where(eq(emails.id, row.id));
    return "failed" as const;
  }
  const result = await dispatch(env, email, row.idemKey, toDebtor ? await ownerFromAddress(db, row.ownerId) : null);
  if (result.ok) {
    await db
      .update(emails)
      .set({ status: "sent", sentAt: Date.now(), error: null, nextAttemptAt: null })
      .where(eq(emails.id, row.id));
    return "sent" as const;
  }
  const more = result.retryable && attempts < EMAIL_MAX_ATTEMPTS;
  const error = result.retryable && !more ? `Gave up after ${attempts} attempts: ${result.error}` : result.error;
  await db
    .update(emails)
    .set(
      more
        ? { status: "pending", error, nextAttemptAt: now + (RETRY_AFTER_MS[attempts - 1] ?? RETRY_AFTER_MS[0]) }
        : { status: "failed", error, nextAttemptAt: null },
    )
    .where(eq(emails.id, row.id));
  return more ? ("pending" as const) : ("failed" as const);
}

/**
 * Why an instalment's reminder or nudge (a plan letter 'before' or 'after', key
 * `plan:<plan>:<instalment>:<kind>`) must not go now, or null: the debtor paid, opted out, bounces
 * or is held (an "I've paid" being checked, a pending promise, an unhandled reply), the plan is no
 * longer running, or the ledger covers the instalment already. Read at every attempt, so a retry
 * never reaches a debtor the first attempt would not have.
 */
async function instalmentLetterRefusal(db: Db, row: EmailRecord, email: RecordedEmail): Promise<string | null> {
  if (email.kind !== "plan-letter" || (email.message.kind !== "before" && email.message.kind !== "after")) return null;
  const [, plan, seq] = /^plan:(\d+):(\d+):/.exec(row.idemKey) ?? [];
  if (!plan || !seq || row.debtorId === null) return null;
  const found = await db.get<{ why: string | null }>(sql`SELECT CASE
    WHEN d.id IS NULL THEN 'the debtor is gone'
    WHEN d.status = 'paid' THEN 'the debtor paid'
    WHEN d.status = 'opted_out' OR EXISTS (SELECT 1 FROM opt_outs AS o WHERE o.owner_id = d.owner_id AND o.email = lower(d.email)) THEN 'the debtor opted out'
    WHEN d.status = 'bouncing' THEN 'the debtor''s address bounces'
    WHEN d.paid_claimed_at IS NOT NULL OR (d.promise_ends_at IS NOT NULL AND d.promise_ends_at > ${Date.now()})
      OR EXISTS (SELECT 1 FROM debtor_replies AS r WHERE r.debtor_id = d.id AND r.handled_at IS NULL AND r.auto = 0)
      THEN 'the debtor is held (their answer waits for you)'
    WHEN NOT EXISTS (SELECT 1 FROM payment_plans AS p WHERE p.id = ${Number(plan)} AND p.debtor_id = d.id AND p.status = 'active') THEN 'the plan is no longer running'
    WHEN (SELECT coalesce(sum(pl.amount_cents), 0) FROM plan_instalments AS pl WHERE pl.plan_id = ${Number(plan)} AND pl.seq <= ${Number(seq)})
      <= (SELECT coalesce(sum(i.paid_cents), 0) FROM plan_invoices AS pi JOIN invoices AS i ON i.id = pi.invoice_id WHERE pi.plan_id = ${Number(plan)})
        - (SELECT p.paid_at_start_cents FROM payment_plans AS p WHERE p.id = ${Number(plan)})
      THEN 'the instalment is paid'
    ELSE NULL END AS why
    FROM (SELECT ${row.debtorId} AS want) AS w LEFT JOIN debtors AS d ON d.id = w.want AND d.owner_id = ${row.ownerId}`);
  return found?.why ? `Not sent: ${found.why} before it went out.` : null;
}

/**
 * Records the e-mail under `key` (its Idempotency-Key) and makes the first attempt. A key recorded
 * before (a webhook delivered again, a retried request) sends nothing new: its status is returned,
 * and a 'pending' one is left to its retry. Never throws for the mail (a failed send is recorded);
 * a database error does throw, before anything was sent.
 */
export async function sendRecorded(
  env: Pick<Env, "MAILER">,
  db: Db,
  input: { ownerId: string; debtorId?: number | null; key: string; email: RecordedEmail },
  now = Date.now(),
): Promise<"sent" | "pending" | "failed"> {
  const inserted = await db
    .insert(emails)
    .values({
      ownerId: input.ownerId,
      kind: input.email.kind,
      debtorId: input.debtorId ?? null,
      recipient: input.email.message.to.toLowerCase(),
      idemKey: input.key,
      payload: JSON.stringify(input.email),
      status: "pending",
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: emails.idemKey })
    .returning();
  const row = inserted[0];
  if (!row) {
    const [known] = await db.select({ status: emails.status }).from(emails).where(eq(emails.idemKey, input.key));
    return known?.status ?? "pending";
  }
  return attempt(env, db, row, now);
}

/** The watchdog's run: every recorded e-mail whose retry is due (leases that ran out included). */
export async function retryRecordedEmails(env: Pick<Env, "MAILER">, db: Db, now = Date.now()) {
  const due = await db
    .select()
    .from(emails)
    .where(
      and(
        eq(emails.status, "pending"),
        lte(emails.nextAttemptAt, now),
        // Nothing of an account being deleted is sent (its rows go with it).
        sql`${emails.ownerId} NOT IN (SELECT id FROM users WHERE deleting_at IS NOT NULL)`,
      ),
    )
    .orderBy(asc(emails.nextAttemptAt))
    .limit(RETRIES_PER_RUN);
  const counts = { sent: 0, pending: 0, failed: 0 };
  for (const row of due) {
    const status = await attempt(env, db, row, now);
    counts[status] += 1;
  }
  return counts;
}

/** One line of Settings → E-mails: a recorded e-mail or a notice. */
export interface EmailRow {
  source: "email" | "notice";
  id: number;
  subject: string;
  recipient: string;
  status: "pending" | "sent" | "failed";
  error: string | null;
  attempts: number;
  nextAttemptAt: number | null;
  createdAt: number;
  sentAt: number | null;
}

/** What a payment-plan e-mail to a debtor was (decisions/066), as the user's list of e-mails names it. */
const PLAN_LETTER_LABELS: Record<PlanLetterKind, string> = {
  confirmed: "Payment plan confirmation",
  offered: "Payment plan offer",
  declined: "Payment plan declined",
  before: "Instalment reminder",
  after: "Instalment overdue",
  broken: "Payment plan ended",
};

/** The subject an e-mail went (or goes) out with, from its recorded message. */
export function emailLabel(email: RecordedEmail): string {
  switch (email.kind) {
    case "receipt":
      return receiptSubject(email.message);
    case "claim-answer":
      return claimAnswerSubject(email.message);
    case "plan-letter":
      // The user's list names it in English (the debtor's subject is the mail Worker's, in their language).
      return `${PLAN_LETTER_LABELS[email.message.kind]} to ${email.message.debtorName}`;
    case "reply-copy":
      return replyCopySubject(email.message);
    case "account-notice":
      return accountNoticeCopy(email.message.kind, email.message.date, email.message.about).subject;
    case "password-changed":
      return passwordChangedSubject;
    case "digest":
      return digestSubject(email.message.total);
  }
}

/**
 * The user's e-mails, newest first, a page at a time: the recorded ones and the notices (to the
 * user's own address), each with its status and error, in one batch: two indexed reads of at most
 * `offset + limit` rows each (both tables by owner and time), merged, and the two counts.
 */
export async function listEmails(db: Db, ownerId: string, userEmail: string, offset: number, limit: number) {
  const take = offset + limit;
  const [recorded, notices, [recordedCount], [noticeCount]] = await db.batch([
    db
      .select({
        id: emails.id,
        payload: emails.payload,
        recipient: emails.recipient,
        status: emails.status,
        error: emails.error,
        attempts: emails.attempts,
        nextAttemptAt: emails.nextAttemptAt,
        createdAt: emails.createdAt,
        sentAt: emails.sentAt,
      })
      .from(emails)
      .where(eq(emails.ownerId, ownerId))
      .orderBy(desc(emails.createdAt), desc(emails.id))
      .limit(take),
    db
      .select({
        id: userNotifications.id,
        kind: userNotifications.kind,
        debtorName: debtors.fullName,
        status: userNotifications.status,
        error: userNotifications.error,
        createdAt: userNotifications.createdAt,
        sentAt: userNotifications.sentAt,
      })
      .from(userNotifications)
      .innerJoin(debtors, eq(debtors.id, userNotifications.debtorId))
      .where(eq(userNotifications.ownerId, ownerId))
      .orderBy(desc(userNotifications.createdAt), desc(userNotifications.id))
      .limit(take),
    db.select({ n: count() }).from(emails).where(eq(emails.ownerId, ownerId)),
    db.select({ n: count() }).from(userNotifications).where(eq(userNotifications.ownerId, ownerId)),
  ]);
  const listed: EmailRow[] = [
    ...recorded.map((r) => ({
      source: "email" as const,
      id: r.id,
      subject: emailLabel(JSON.parse(r.payload) as RecordedEmail),
      recipient: r.recipient,
      status: r.status,
      error: r.error,
      attempts: r.attempts,
      nextAttemptAt: r.nextAttemptAt,
      createdAt: r.createdAt,
      sentAt: r.sentAt,
    })),
    ...notices.map(
      (n): EmailRow => ({
        source: "notice",
        id: n.id,
        subject: noticeCopy(n.kind as NoticeKind, n.debtorName).subject,
        recipient: userEmail,
        status: n.status === "sent" || n.status === "failed" ? n.status : "pending",
        error: n.error,
        attempts: 0,
        nextAttemptAt: null,
        createdAt: n.createdAt,
        sentAt: n.sentAt,
      }),
    ),
  ];
  const rows = listed.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id).slice(offset, offset + limit);
  return { rows, total: (recordedCount?.n ?? 0) + (noticeCount?.n ?? 0) };
}
