import { and, count, desc, eq, gt, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { debtorEventInsert, noticeInsert } from "~/activity/index.server";
import { chunk } from "~/db/chunk";
import { type Db, getDb } from "~/db/client.server";
import { bouncingStatement } from "~/db/debtor-status";
import { debtorReplies, debtors, textMessages, textOptOuts, users } from "~/db/schema";
import { MAX_REPLY_BYTES, oneLineOf, REPLIES_PER_DEBTOR_PER_DAY } from "~/domain/inbound-mail";
import { type ParsedReply, parseReply } from "~/domain/parse-reply";
import { textKeyword } from "~/domain/text-keywords";
import { verifyReplyAddress } from "~/links/index.server";
import { sendRecorded } from "~/mail/index.server";
import type { AppConfig } from "~/platform/config.server";
import { linkOrigin } from "~/platform/config.server";
import type { OwnerScope } from "~/platform/scope.server";
import { commit, type HandleHow, handleRepliesOf, type ResumeOutcome } from "~/reminders/index.server";
import { consentStatement } from "./text-opt-outs.server";

/**
 * Replies come home (docs/decisions/020-inbound-replies.md):
 * the one function that receives a debtor's e-mail reply, for the Worker's email() handler and
 * POST /dev/inbound alike, and the user's handling of it. Nothing a debtor writes changes anything
 * but the timeline and the hold: no money, no invoice, no address.
 */

/** One message as the email() handler (or /dev/inbound) hands it over. */
export interface InboundMessage {
  /** The envelope recipient (RCPT TO): the reply address. */
  to: string;
  /** The envelope sender (MAIL FROM). */
  from: string;
  raw: string | ArrayBuffer | Uint8Array;
  /** The raw size in bytes, as the handler knows it before reading. */
  size: number;
}

export type ReceiveOutcome =
  | { ok: true; kind: "reply" | "automatic"; replyId: number; debtorId: number }
  | { ok: true; kind: "bounce"; debtorId: number }
  | { ok: false; reason: "not-configured" | "too-large" | "unknown-recipient" | "unreadable" | "over-daily-cap" };

/** Why a message is refused, in the SMTP rejection the sender sees: nothing about our data. */
export const REJECTIONS: Record<Extract<ReceiveOutcome, { ok: false }>["reason"], string> = {
  "not-configured": "This address does not accept mail.",
  "too-large": "Message too large.",
  "unknown-recipient": "No such recipient.",
  unreadable: "The message could not be read.",
  "over-daily-cap": "Too many messages to this address today; try again tomorrow.",
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Receives one message sent to a reply address. Refused before anything is stored: no inbound
 * domain or secret configured (production fails closed), a message over 1 MB, an address that is
 * not a valid reply token (forged, altered, another purpose's, a deleted debtor), a message that
 * cannot be parsed, or the debtor's 21st reply within 24 hours (rejected, so the sender learns it
 * was not delivered). A delivery-status report counts as a hard bounce of the debtor's address. An
 * automatic reply is stored and shown on the timeline only. A debtor's own reply is stored, shown,
 * holds the debtor's reminders until the user handles it, and is copied to the user. Dunly never
 * answers a reply, so no mail loop can start.
 */
export async function receiveReply(
  env: Env,
  config: AppConfig,
  message: InboundMessage,
  now = Date.now(),
): Promise<ReceiveOutcome> {
  if (!config.INBOUND_DOMAIN || !config.OPT_OUT_SECRET) return { ok: false, reason: "not-configured" };
  if (!(message.size >= 0) || message.size > MAX_REPLY_BYTES) return { ok: false, reason: "too-large" };
  const db = getDb(env.DB);
  const debtor = await verifyReplyAddress(db, config, message.to);
  if (!debtor) return { ok: false, reason: "unknown-recipient" };
  let parsed: ParsedReply;
  try {
    parsed = await parseReply(message.raw);
  } catch (error) {
    const tooLarge = error instanceof Error && /size cap/.test(error.message);
    return { ok: false, reason: tooLarge ? "too-large" : "unreadable" };
  }
  const { ownerId, debtorId } = debtor;
  if (parsed.bounce) {
    await recordReplyBounce(env, db, ownerId, debtorId, now);
    return { ok: true, kind: "bounce", debtorId };
  }
  const recent = await db
    .select({ n: count() })
    .from(debtorReplies)
    .where(and(eq(debtorReplies.debtorId, debtorId), gt(debtorReplies.createdAt, now - DAY_MS)))
    .get();
  if ((recent?.n ?? 0) >= REPLIES_PER_DEBTOR_PER_DAY) return { ok: false, reason: "over-daily-cap" };

  const from = parsed.from || oneLineOf(message.from, 254).toLowerCase();
  const row = {
    ownerId,
    debtorId,
    fromAddress: from,
    subject: parsed.subject,
    sentAt: parsed.sentAt,
    text: parsed.text,
    attachments: JSON.stringify(parsed.attachments),
    auto: parsed.automatic,
    createdAt: now,
  };
  const detail = parsed.subject || "(no subject)";
  if (parsed.automatic) {
    const [inserted] = await db.batch([
      db.insert(debtorReplies).values(row).returning({ id: debtorReplies.id }),
      debtorEventInsert(db, { ownerId, debtorId, type: "auto_replied", detail, at: now }),
    ]);
    return { ok: true, kind: "automatic", replyId: inserted[0]?.id ?? 0, debtorId };
  }
  const { results } = await commit({ env, db, now }, (consequences) => [
    db.insert(debtorReplies).values(row).returning({ id: debtorReplies.id }),
    debtorEventInsert(db, { ownerId, debtorId, type: "replied", detail, at: now }),
    consequences({ kind: "held", ownerId, debtorId, reason: "replied" }),
  ]);
  const replyId = results[0][0]?.id ?? 0;
  await sendCopy(env, db, config, { ...parsed, from }, { replyId, ...debtor });
  return { ok: true, kind: "reply", replyId, debtorId };
}

// Text messages (decisions/068) ------------------------------------------------------------------

/** One text a debtor sent to the Messaging Service, as Twilio's inbound webhook (or the dev outbox) gives it. */
export interface InboundText {
  /** The debtor's number, E.164. */
  from: string;
  body: string;
  /** Twilio's Advanced Opt-Out verdict (OptOutType), when it gave one. */
  optOutType?: string | null;
}

export type TextOutcome =
  | { ok: true; kind: "stop" | "start"; ownerIds: string[] }
  | { ok: true; kind: "help" | "unmatched" | "over-daily-cap" }
  | { ok: true; kind: "reply"; replyId: number; debtorId: number; ownerId: string };

/** What the user sees as the subject of a debtor's text message. */
export const TEXT_REPLY_SUBJECT = "Text message";
/** A text is at most 1,600 characters (Twilio's own limit): anything longer is cut there. */
const MAX_TEXT_REPLY = 1600;
/** The accounts one number's STOP reaches at most (the latest that texted it). */
const MAX_ACCOUNTS_PER_NUMBER = 30;

/**
 * Receives one text from a debtor (verified by the caller). Texts share one Messaging Service, so a
 * number is matched to the accounts that texted it (`text_messages`, latest first):
 * - STOP (or UNSUBSCRIBE, CANCEL, END, QUIT, …): the number is opted out of every one of those
 *   accounts' texts at once, in one batch, each debtor's timeline says so and each user is told;
 * - START: those opt-outs end (a user's own opt-out stays); texts may resume;
 * - HELP: Twilio's Messaging Service answers it; nothing is stored;
 * - anything else is a reply to the latest account that texted the number, stored like an e-mailed
 *   one: on the timeline, holding the debtor's reminders ('replied') and copied to the user, within the
 *   same daily cap.
 */
export async function receiveText(
  env: Env,
  config: AppConfig,
  text: InboundText,
  now = Date.now(),
): Promise<TextOutcome> {
  const db = getDb(env.DB);
  const latest = sql<number>`max(${textMessages.createdAt})`;
  const texted = await db
    .select({ ownerId: textMessages.ownerId, debtorId: textMessages.debtorId, latest })
    .from(textMessages)
    .where(and(eq(textMessages.to, text.from), isNotNull(textMessages.sid)))
    .groupBy(textMessages.ownerId)
    .orderBy(desc(latest))
    .limit(MAX_ACCOUNTS_PER_NUMBER);
  const keyword = textKeyword(text.body, text.optOutType);
  if (keyword === "help") return { ok: true, kind: "help" };
  if (keyword === "stop" || keyword === "start") {
    // A STOP also reaches the accounts whose debtors carry the number but never texted it: none of
    // them may text it later on an old consent.
    const carried = await db
      .select({ ownerId: debtors.ownerId, debtorId: sql<number>`min(${debtors.id})` })
      .from(debtors)
      .where(eq(debtors.phone, text.from))
      .groupBy(debtors.ownerId)
      .limit(MAX_ACCOUNTS_PER_NUMBER);
    const reached = [...texted];
    for (const row of carried) {
      if (!reached.some((t) => t.ownerId === row.ownerId)) reached.push({ ...row, latest: 0 });
    }
    if (reached.length === 0) return { ok: true, kind: keyword, ownerIds: [] };
    // Told once: only the accounts whose state this changes (a repeated STOP records nothing new).
    const current = await db
      .select({ ownerId: textOptOuts.ownerId, source: textOptOuts.source })
      .from(textOptOuts)
      .where(
        and(
          eq(textOptOuts.number, text.from),
          inArray(
            textOptOuts.ownerId,
            reached.map((t) => t.ownerId),
          ),
        ),
      );
    const optedOut = new Map(current.map((row) => [row.ownerId, row.source]));
    const changing = reached.filter(({ ownerId }) =>
      keyword === "stop" ? !optedOut.has(ownerId) : optedOut.has(ownerId) && optedOut.get(ownerId) !== "user",
    );
    if (changing.length === 0) return { ok: true, kind: keyword, ownerIds: [] };
    const ownerIds = changing.map((t) => t.ownerId);
    const type = keyword === "stop" ? "text_opted_out" : "text_opted_in";
    const detail = `${text.from} texted ${oneLineOf(text.body, 20).toUpperCase() || keyword.toUpperCase()}`;
    const told = changing.flatMap(({ ownerId, debtorId }) =>
      debtorId === null
        ? []
        : [
            debtorEventInsert(db, { ownerId, debtorId, type, detail, at: now }),
            ...(keyword === "stop" ? [noticeInsert(db, { ownerId, debtorId, kind: "text_opted_out", at: now })] : []),
          ],
    );
    // Four bound values a row: 20 rows a statement stays under D1's 100.
    const changes = chunk(ownerIds, 20).map((owners) =>
      keyword === "stop"
        ? db
            .insert(textOptOuts)
            .values(owners.map((ownerId) => ({ ownerId, number: text.from, source: "keyword", at: now })))
            .onConflictDoNothing()
        : db
            .delete(textOptOuts)
            .where(
              and(
                eq(textOptOuts.number, text.from),
                inArray(textOptOuts.ownerId, owners),
                ne(textOptOuts.source, "user"),
              ),
            ),
    );
    // The debtors' consent follows: STOP ends it; START is the debtor's own consent, recorded as such.
    const consents = chunk(ownerIds, 90).map((owners) => consentStatement(db, keyword, owners, text.from, now));
    const [first, ...rest] = changes;
    if (!first) return { ok: true, kind: keyword, ownerIds: [] };
    await db.batch([first, ...rest, ...consents, ...told]);
    return { ok: true, kind: keyword, ownerIds };
  }

  const target = texted.find((t) => t.debtorId !== null);
  if (!target || target.debtorId === null) return { ok: true, kind: "unmatched" };
  const { ownerId, debtorId } = target;
  const { recent, debtor } = await replyContext(db, ownerId, debtorId, now);
  if (!debtor) return { ok: true, kind: "unmatched" };
  if (recent >= REPLIES_PER_DEBTOR_PER_DAY) return { ok: true, kind: "over-daily-cap" };
  const replyId = await storePlainReply(
    { env, db, config, now },
    { ownerId, debtorId, from: text.from, subject: TEXT_REPLY_SUBJECT, text: text.body.slice(0, MAX_TEXT_REPLY) },
    debtor,
  );
  return { ok: true, kind: "reply", replyId, debtorId, ownerId };
}

/** What the user sees as the subject of a debtor's "contact me another way". */
export const CONTACT_SUBJECT = "Please contact me another way";

/**
 * "Contact me another way", from the opt-out page: instead of stopping every reminder, the debtor
 * writes how they want to be reached. It is their reply in all but the channel: stored as one,
 * shown on the timeline and the dashboard, holding the debtor's reminders ('replied') until the user
 * handles it, and copied to the user. The same daily cap as e-mailed replies.
 */
export async function askForContact(
  env: Env,
  config: AppConfig,
  target: { ownerId: string; debtorId: number; email: string },
  message: string,
  now = Date.now(),
): Promise<{ ok: true } | { ok: false; reason: "over-daily-cap" | "gone" }> {
  const db = getDb(env.DB);
  const { ownerId, debtorId } = target;
  const { recent, debtor } = await replyContext(db, ownerId, debtorId, now);
  if (!debtor) return { ok: false, reason: "gone" };
  if (recent >= REPLIES_PER_DEBTOR_PER_DAY) return { ok: false, reason: "over-daily-cap" };
  const from = target.email.toLowerCase();
  await storePlainReply(
    { env, db, config, now },
    { ownerId, debtorId, from, subject: CONTACT_SUBJECT, text: message },
    { ...debtor, email: from },
  );
  return { ok: true };
}

/** A debtor's replies of the last day (the daily cap) and who they and their user are; no debtor: not the owner's. */
async function replyContext(db: Db, ownerId: string, debtorId: number, now: number) {
  const [recent, who] = await db.batch([
    db
      .select({ n: count() })
      .from(debtorReplies)
      .where(and(eq(debtorReplies.debtorId, debtorId), gt(debtorReplies.createdAt, now - DAY_MS))),
    db
      // Aliased: a batch's rows are keyed by column name, and both tables have an "email".
      .select({
        fullName: debtors.fullName,
        email: sql<string>`${debtors.email}`.as("debtor_email"),
        userEmail: users.email,
      })
      .from(debtors)
      .innerJoin(users, eq(users.id, debtors.ownerId))
      .where(and(eq(debtors.id, debtorId), eq(debtors.ownerId, ownerId))),
  ]);
  return { recent: recent[0]?.n ?? 0, debtor: who[0] };
}

/**
 * A reply that came another way than e-mail (a text, "contact me another way"): stored as one, on
 * the timeline, holding the debtor's reminders ('replied') until the user handles it, and copied to
 * the user. Returns its id.
 */
async function storePlainReply(
  { env, db, config, now }: { env: Env; db: Db; config: AppConfig; now: number },
  r: { ownerId: string; debtorId: number; from: string; subject: string; text: string },
  debtor: { fullName: string; email: string; userEmail: string },
): Promise<number> {
  const { ownerId, debtorId } = r;
  const { results } = await commit({ env, db, now }, (consequences) => [
    db
      .insert(debtorReplies)
      .values({ ownerId, debtorId, fromAddress: r.from, subject: r.subject, sentAt: now, text: r.text, createdAt: now })
      .returning({ id: debtorReplies.id }),
    debtorEventInsert(db, { ownerId, debtorId, type: "replied", detail: r.subject, at: now }),
    consequences({ kind: "held", ownerId, debtorId, reason: "replied" }),
  ]);
  const replyId = results[0][0]?.id ?? 0;
  const reply: ParsedReply = {
    from: r.from,
    fromName: "",
    subject: r.subject,
    sentAt: now,
    text: r.text,
    attachments: [],
    automatic: false,
    bounce: false,
  };
  await sendCopy(env, db, config, reply, { replyId, ownerId, debtorId, ...debtor });
  return replyId;
}

/**
 * The copy to the user, always (not governed by the notices switch: without Dunly the reply would
 * have reached the user's mailbox anyway). Idempotency-Key `reply:<id>`. Recorded before it is sent:
 * one that could not be sent is retried by the watchdog and shown in Settings → E-mails; the reply
 * is stored and shown either way.
 */
async function sendCopy(
  env: Env,
  db: Db,
  config: AppConfig,
  parsed: ParsedReply,
  d: { replyId: number; ownerId: string; debtorId: number; email: string; fullName: string; userEmail: string },
) {
  await sendRecorded(env, db, {
    ownerId: d.ownerId,
    debtorId: d.debtorId,
    key: `reply:${d.replyId}`,
    email: {
      kind: "reply-copy",
      message: {
        to: d.userEmail,
        debtorName: d.fullName,
        debtorEmail: d.email,
        from: parsed.from,
        subject: parsed.subject,
        text: parsed.text,
        attachments: parsed.attachments,
        debtorUrl: `${linkOrigin(config)}/debtors/${d.debtorId}`,
      },
    },
  });
}

/**
 * A delivery-status report to a reply address: the debtor's address bounced, as a provider's hard
 * bounce (app/responses/mail-events.server.ts recordHardBounce): the debtor turns 'bouncing', their ENABLED
 * schedules hold ('bounced'), 'bounced' is recorded and the user told. Only once: a debtor already
 * bouncing changes nothing.
 */
async function recordReplyBounce(env: Env, db: Db, ownerId: string, debtorId: number, now: number) {
  const changed = await bouncingStatement(db, ownerId, debtorId, now);
  if (changed.length === 0) return;
  const detail = "A delivery-status report came back to the reply address.";
  await commit({ env, db, now }, (consequences) => [
    consequences({ kind: "held", ownerId, debtorId, reason: "bounced" }),
    debtorEventInsert(db, { ownerId, debtorId, type: "bounced", detail, at: now }),
    // The user is told.
    noticeInsert(db, { ownerId, debtorId, kind: "bounced", at: now }),
  ]);
}

// The user handles a reply ----------------------------------------------------------------------

/**
 * The user handles a debtor's reply: Resume, Mark handled, or Record a payment. Every unhandled
 * reply of that debtor is marked handled ('reply_handled' recorded once), and the schedules held for
 * 'replied' run again (resumeHeld's rules; a payment in full has completed them already). Another
 * user's reply is 'not-found'; one already handled, 'handled'.
 */
export async function handleReply(
  scope: OwnerScope,
  replyId: number,
  how: HandleHow,
): Promise<{ error: "not-found" | "handled" } | { debtorId: number; resumed: ResumeOutcome }> {
  const found = await scope.db
    .select({ debtorId: debtorReplies.debtorId, handledAt: debtorReplies.handledAt })
    .from(debtorReplies)
    .where(and(eq(debtorReplies.ownerId, scope.ownerId), eq(debtorReplies.id, replyId)))
    .get();
  if (!found) return { error: "not-found" };
  if (found.handledAt !== null) return { error: "handled" };
  const resumed = await handleRepliesOf(scope, found.debtorId, how);
  if (!resumed) return { error: "handled" };
  return { debtorId: found.debtorId, resumed };
}

/** A reply as the timeline shows it (text only: never HTML). */
export { type ReplyView, repliesOf } from "./reply-list.server";
