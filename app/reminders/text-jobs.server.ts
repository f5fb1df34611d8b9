import { and, eq, inArray, sql } from "drizzle-orm";
import { chunk, IDS_PER_STATEMENT, unique } from "~/db/chunk";
import type { Db } from "~/db/client.server";
import { deliveries, textMessages, textOptOuts, textSettings } from "~/db/schema";
import { countriesOf, takeTextStatement } from "~/db/text-allowance";
import { recipientKey } from "~/domain/limits";
import { formatMoney } from "~/domain/money";
import type { Pacer } from "~/domain/pacer";
import { textAllowedTo, textMonth } from "~/domain/phone";
import { localDateString } from "~/domain/schedule-time";
import { DEFAULT_TEXT_TEMPLATE, overdueStatus, renderText, textOccurrenceKey } from "~/domain/text-message";
import { ALLOWANCE_NOTE, NO_TEXT_MESSAGES, noTextReason } from "~/domain/text-reach";
import { shortPortalLink } from "~/links/index.server";
import { readConfig } from "~/platform/config.server";
import type { DataScope } from "~/platform/scope.server";
import { sendText, textFatesOf, textsAvailable } from "~/texts/index.server";
import { abandonOccurrence, markDeliveryFailed, markDeliverySent, recordDeliveryError } from "./deliveries.server";
import type { MailJob } from "./engine.server";
import type { MessageParts } from "./firing.server";
import { allowanceWait, textHeldStatements } from "./text-hold.server";

/**
 * The texts of a call of the mail queue's consumer (decisions/070). A text-only step's delivery is
 * its text; a step that sends both has its e-mail as the delivery and a companion text row under
 * textOccurrenceKey, written here once (its unique key) so the same occurrence is never texted
 * twice. Each text is looked at again as things are now (the channel on, the mobile, the user's
 * consent, no STOP, an enabled country), takes one text of the month's allowance in one
 * conditional statement (never past it, never twice for one key), waits for a slot of the same
 * pacer as the e-mails and goes through the one Twilio client under its key.
 */

/** A job whose step sends a text, with what its message is built from. */
export interface TextItem {
  job: MailJob & { text: NonNullable<MailJob["text"]> };
  parts: MessageParts;
}

/** How a text-only job ended for the consumer: settled (the schedule moves on), or to try again. */
export type TextJobOutcome =
  | { kind: "sent"; providerId: string }
  | { kind: "failed"; error: string }
  | { kind: "skipped"; reason: string }
  /** Not sent: the month's texts are used up; the delivery waits (deferred) and the alarm comes back. */
  | { kind: "waiting" }
  | { kind: "retry"; delayMs: number };

/** The reach facts of the jobs' debtors as they are now: the owners' text settings and STOPs. */
export async function textReachNow(db: Db, items: readonly { ownerId: string; phone: string | null }[]) {
  const owners = unique(items.map((i) => i.ownerId));
  const settings = new Map<string, { enabled: boolean; countries: string[]; template: string }>();
  const stopped = new Set<string>();
  for (const part of chunk(owners, IDS_PER_STATEMENT)) {
    const phones = unique(items.filter((i) => part.includes(i.ownerId) && i.phone).map((i) => i.phone as string));
    const [rows, stops] = await db.batch([
      db.select().from(textSettings).where(inArray(textSettings.ownerId, part)),
      db
        .select({ ownerId: textOptOuts.ownerId, number: textOptOuts.number })
        .from(textOptOuts)
        .where(
          and(
            inArray(textOptOuts.ownerId, part),
            // The numbers as one JSON value: any number of them in one bound parameter.
            sql`${textOptOuts.number} IN (SELECT value FROM json_each(${JSON.stringify(phones)}))`,
          ),
        ),
    ]);
    for (const r of rows) {
      settings.set(r.ownerId, {
        enabled: r.enabled,
        countries: countriesOf(r.countries),
        template: r.template ?? DEFAULT_TEXT_TEMPLATE,
      });
    }
    for (const s of stops) stopped.add(`${s.ownerId} ${s.number}`);
  }
  return {
    settingsOf: (ownerId: string) =>
      settings.get(ownerId) ?? { enabled: false, countries: [], template: DEFAULT_TEXT_TEMPLATE },
    stoppedBy: (ownerId: string, phone: string) => stopped.has(`${ownerId} ${phone}`),
  };
}

export type TextReachNow = Awaited<ReturnType<typeof textReachNow>>;

/** Why the job's debtor cannot be texted now (the message the delivery keeps), or null. */
export function textBlockedNow(env: Env, reach: TextReachNow, item: TextItem): string | null {
  const { debtor } = item.parts;
  const settings = reach.settingsOf(debtor.ownerId);
  const reason = noTextReason({
    configured: textsAvailable(readConfig(env)),
    enabled: settings.enabled,
    phone: debtor.phone,
    consentAt: debtor.textConsentAt,
    optedOut: debtor.phone ? reach.stoppedBy(debtor.ownerId, debtor.phone) : false,
    countryEnabled: debtor.phone ? textAllowedTo(debtor.phone, settings) : false,
  });
  // The number the claim chose is the one texted: a number changed since goes at the next step.
  if (!reason && debtor.phone !== item.job.text.to) return NO_TEXT_MESSAGES["no-consent"];
  return reason ? NO_TEXT_MESSAGES[reason] : null;
}

/** A text-only job whose debtor can no longer be texted goes as its e-mail: the row becomes the e-mail's. */
export async function turnIntoEmail(db: Db, job: MailJob, email: string) {
  await db
    .update(deliveries)
    .set({ channel: "email", recipient: recipientKey(email) })
    .where(and(eq(deliveries.id, job.deliveryId), eq(deliveries.status, "sending")));
}

/**
 * Sends a text-only job's text (the delivery is the text): what became of it, for the consumer to
 * settle (and move the schedule on) or to try again under the same key.
 */
export async function sendTextJob(
  scope: DataScope,
  item: TextItem,
  template: string,
  options: { pacer: Pacer; now: () => number },
): Promise<TextJobOutcome> {
  const { job } = item;
  return await sendOne(scope, item, template, { id: job.deliveryId, key: job.occurrenceKey }, options);
}

/**
 * A step that sends both: its companion text, beside the e-mail (which settles the schedule).
 * Never throws; a text whose request got no answer stays 'sending' and the watchdog settles it
 * from Twilio's record (recoverCompanionTexts).
 */
export async function sendCompanionText(
  scope: DataScope,
  item: TextItem,
  blocked: string | null,
  template: string,
  options: { pacer: Pacer; now: () => number },
): Promise<void> {
  const { db } = scope;
  const { job, parts } = item;
  const key = textOccurrenceKey(job.occurrenceKey);
  const at = options.now();
  const skip = blocked ? `Not sent: ${blocked}; the e-mail of this step went.` : (job.text.skip ?? null);
  try {
    const [row] = await db
      .insert(deliveries)
      .values({
        ownerId: parts.debtor.ownerId,
        scheduleId: job.scheduleId,
        debtorId: parts.debtor.id,
        occurrenceKey: key,
        template: parts.template,
        tone: parts.tone,
        status: skip ? "skipped" : "sending",
        error: skip,
        recipient: job.text.to,
        channel: "text",
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: deliveries.id });
    // Written before: an earlier copy of this job has it (or settled it).
    if (!row || skip) return;
    const outcome = await sendOne(scope, item, template, { id: row.id, key }, options);
    if (outcome.kind === "sent") await markDeliverySent(db, row.id, outcome.providerId, options.now());
    else if (outcome.kind === "failed") await markDeliveryFailed(db, row.id, outcome.error);
    else if (outcome.kind === "skipped") await abandonOccurrence(db, key, outcome.reason);
    else if (outcome.kind === "waiting") {
      await abandonOccurrence(db, key, `Not sent: ${ALLOWANCE_NOTE}; the e-mail of this step went.`);
    } else await recordDeliveryError(db, row.id, "Twilio did not answer yet: it is looked up and tried again.");
  } catch (error) {
    console.error(`[dunly] text ${key}: could not be sent or recorded; the watchdog looks at it`, error);
  }
}

/**
 * One text's path: the allowance (taken once per key), the words, a pacer slot, Twilio. A text
 * whose status callback came before this records it (undelivered, failed) ends failed.
 */
async function sendOne(
  { env, db }: DataScope,
  item: TextItem,
  template: string,
  delivery: { id: number; key: string },
  options: { pacer: Pacer; now: () => number },
): Promise<TextJobOutcome> {
  const { parts, job } = item;
  const { debtor } = parts;
  const now = options.now();
  const config = readConfig(env);
  const allowance = planTextsOf(parts);
  const [taken] = await db.batch([takeTextStatement(db, debtor.ownerId, textMonth(now), allowance, delivery.key)]);
  if (taken.length === 0) {
    const fates = await textFatesOf(db, [delivery.key]);
    // Nothing asked under this key yet and nothing left to take: the month's texts are used up.
    if (!fates.has(delivery.key)) return { kind: "waiting" };
  }
  const facts = await textFactsOf(db, config, item, now);
  if (!facts) return { kind: "failed", error: "Not sent: no short link to the debtor's page could be made for it." };
  const rendered = renderText(template, facts);
  if (!rendered.ok) return { kind: "failed", error: `Not sent: ${rendered.error}` };
  await options.pacer.take();
  const result = await sendText(env, config, {
    ownerId: debtor.ownerId,
    debtorId: debtor.id,
    deliveryId: delivery.id,
    to: job.text.to,
    body: rendered.body,
    idempotencyKey: delivery.key,
  });
  if (result.ok) {
    const fate = (await textFatesOf(db, [delivery.key])).get(delivery.key);
    if (fate && (fate.status === "undelivered" || fate.status === "failed")) {
      return {
        kind: "failed",
        error: `Twilio could not deliver it${fate.errorCode ? ` (error ${fate.errorCode})` : ""}.`,
      };
    }
    return { kind: "sent", providerId: result.sid };
  }
  if (result.retryable) return { kind: "retry", delayMs: result.retryAfterMs ?? 60_000 };
  if (result.reason === "opted-out" || result.reason === "off")
    return { kind: "skipped", reason: `Not sent: ${result.error}` };
  return { kind: "failed", error: `Not sent: ${result.error}` };
}

/** The plan's monthly texts as the consumer read the account (no plan: none). */
function planTextsOf(parts: MessageParts): number {
  return parts.plan?.monthlyTexts ?? 0;
}

/** The values of the text: the debtor's name, the business, what is owed, where the oldest invoice stands, the short link. */
async function textFactsOf(db: Db, config: ReturnType<typeof readConfig>, item: TextItem, now: number) {
  const { parts } = item;
  const { debtor, statement, user, org } = parts;
  const locale = user.locale ?? undefined;
  const amount = statement.totals.map((t) => formatMoney(t.cents, t.currency, locale)).join(" + ");
  const oldest = statement.lines[0]?.dueOn ?? localDateString(now, debtor.timeZone);
  // Null for a key Dunly did not make (an old import's): the text is not sent without its link.
  const link = await shortPortalLink(db, config, debtor);
  if (!link) return null;
  return {
    name: debtor.fullName,
    business: org?.name ?? user.businessName ?? user.fullName,
    amount,
    status: overdueStatus(oldest, localDateString(now, debtor.timeZone), locale),
    link,
  };
}

/**
 * A text-only step past the month's texts (another text took the last one since its claim): its
 * delivery waits (deferred, with why) and the user is told; the schedule stays on it, and its
 * alarm's next look defers it to the month's end (the claim's own hold).
 */
export async function holdForAllowance(db: Db, item: TextItem, now: number) {
  const { job, parts } = item;
  const { reason } = allowanceWait(parts.plan, now, parts.debtor.timeZone, parts.user.locale);
  const [held] = await db
    .update(deliveries)
    .set({ status: "deferred", error: reason })
    .where(and(eq(deliveries.id, job.deliveryId), eq(deliveries.status, "sending")))
    .returning({ id: deliveries.id });
  if (!held) return;
  await db.batch([
    ...textHeldStatements(db, { ownerId: parts.debtor.ownerId, debtorId: parts.debtor.id }, reason, now),
  ]);
}

/**
 * The watchdog's look at companion texts left 'sending' (their consumer died, or Twilio did not
 * answer): Twilio's record under the key settles each. Accepted: 'sent' (or 'failed' when its
 * callback said undelivered); asked without an answer: asked again under the same key (the client
 * looks it up first, so it never goes twice); never asked: 'failed', saying so (the step's e-mail
 * went). Returns how many it settled.
 */
export async function recoverCompanionTexts({ env, db }: DataScope, before: number, limit: number): Promise<number> {
  const rows = await db
    .select({ id: deliveries.id, key: deliveries.occurrenceKey, ownerId: deliveries.ownerId })
    .from(deliveries)
    .where(
      and(
        eq(deliveries.status, "sending"),
        eq(deliveries.channel, "text"),
        sql`${deliveries.occurrenceKey} LIKE '%:text'`,
        sql`${deliveries.createdAt} < ${before}`,
      ),
    )
    .limit(limit);
  if (rows.length === 0) return 0;
  const asked = new Map<string, typeof textMessages.$inferSelect>();
  for (const part of chunk(
    rows.map((r) => r.key),
    IDS_PER_STATEMENT,
  )) {
    for (const t of await db.select().from(textMessages).where(inArray(textMessages.idempotencyKey, part))) {
      asked.set(t.idempotencyKey, t);
    }
  }
  let settled = 0;
  for (const row of rows) {
    const text = asked.get(row.key);
    if (!text) {
      await markDeliveryFailed(
        db,
        row.id,
        "Not sent: Dunly stopped before the text was handed to Twilio; the e-mail of this step went.",
      );
    } else if (text.sid && (text.status === "undelivered" || text.status === "failed")) {
      await markDeliveryFailed(
        db,
        row.id,
        `Twilio could not deliver it${text.errorCode ? ` (error ${text.errorCode})` : ""}.`,
      );
    } else if (text.sid) {
      await markDeliverySent(db, row.id, text.sid, text.attemptedAt);
    } else if (text.status === "refused") {
      await markDeliveryFailed(db, row.id, `Not sent: ${text.error ?? "Twilio refused it"}`);
    } else {
      const result = await sendText(env, readConfig(env), {
        ownerId: text.ownerId,
        debtorId: text.debtorId,
        deliveryId: row.id,
        to: text.to,
        body: text.body,
        idempotencyKey: row.key,
      });
      if (result.ok) await markDeliverySent(db, row.id, result.sid);
      else if (result.retryable) continue;
      else await markDeliveryFailed(db, row.id, `Not sent: ${result.error}`);
    }
    settled += 1;
  }
  return settled;
}
