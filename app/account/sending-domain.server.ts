import { and, asc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { sendingDomains, users } from "~/db/schema";
import type { AccountNoticeKind } from "~/domain/account-notice";
import { formatDate } from "~/domain/dates";
import { userLocale } from "~/domain/number-locale";
import { type DnsRecord, domainStatusOf, type SendingDomainStatus } from "~/domain/sending-domain";
import { type DomainResult, mail, sendRecorded } from "~/mail/index.server";
import { type AppConfig, linkOrigin } from "~/platform/config.server";
import type { SendingDomainInput } from "~/schemas/sending-domain";

/**
 * The user's own sending domain (docs/decisions/059-sending-domains.md), one per account: added at
 * Resend through the mail client (`mail.createDomain`), its DNS records kept to show, its
 * verification checked on the user's button and by the watchdog, removed on request. While Resend
 * says it is verified, reminders, receipts and claim answers go from it (app/db/sending-from.ts);
 * when it stops being verified or Resend no longer has it, mail goes from Dunly's address at once
 * and the user is told by e-mail (an account notice) and on the tab. Every call is scoped to the
 * owner; a provider that fails changes nothing here and is said plainly.
 */

export interface SendingDomain {
  name: string;
  localPart: string;
  status: SendingDomainStatus;
  providerStatus: string;
  records: DnsRecord[];
  createdAt: number;
  checkedAt: number | null;
  verifiedAt: number | null;
}

type Row = typeof sendingDomains.$inferSelect;

const view = (row: Row): SendingDomain => ({
  name: row.name,
  localPart: row.localPart,
  status: row.status as SendingDomainStatus,
  providerStatus: row.providerStatus,
  records: JSON.parse(row.records) as DnsRecord[],
  createdAt: row.createdAt,
  checkedAt: row.checkedAt,
  verifiedAt: row.verifiedAt,
});

async function rowOf(db: Db, ownerId: string): Promise<Row | undefined> {
  const [row] = await db.select().from(sendingDomains).where(eq(sendingDomains.ownerId, ownerId)).limit(1);
  return row;
}

/** The owner's sending domain, or null. */
export async function sendingDomainOf(db: Db, ownerId: string): Promise<SendingDomain | null> {
  const row = await rowOf(db, ownerId);
  return row ? view(row) : null;
}

/** What a provider's failure means for the user: plain words, and that nothing was lost. */
function providerTrouble(result: Extract<DomainResult, { ok: false }>, doing: string) {
  const when = result.retryable ? "Please try again in a minute." : "Please check the domain and try again.";
  return `Resend could not ${doing} just now (${result.error}). Nothing was changed. ${when}`;
}

export type AddOutcome =
  | { ok: true; domain: SendingDomain }
  | { ok: false; field: "domain"; message: string }
  | { ok: false; field?: undefined; status: 409 | 502; message: string };

/** Names Dunly answers on itself (its site, its reply domain): refused as a user's sending domain. */
function ownHosts(config: Pick<AppConfig, "APP_ORIGIN" | "INBOUND_DOMAIN">): string[] {
  const hosts: string[] = [];
  if (config.APP_ORIGIN) hosts.push(new URL(config.APP_ORIGIN).hostname.toLowerCase());
  if (config.INBOUND_DOMAIN) hosts.push(config.INBOUND_DOMAIN.toLowerCase());
  return hosts.filter((h) => h.includes("."));
}

/**
 * Adds the owner's sending domain at Resend and keeps it with its DNS records. Refused: a second
 * domain (one per account: remove the first), a name another account holds, Dunly's own names.
 */
export async function addSendingDomain(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ORIGIN" | "INBOUND_DOMAIN">,
  ownerId: string,
  input: SendingDomainInput,
  now = Date.now(),
): Promise<AddOutcome> {
  const name = input.domain;
  if (ownHosts(config).some((h) => name === h || name.endsWith(`.${h}`) || h.endsWith(`.${name}`))) {
    return { ok: false, field: "domain", message: "This is Dunly's own domain: please enter your business's domain" };
  }
  const [existing] = await db
    .select({ ownerId: sendingDomains.ownerId, name: sendingDomains.name })
    .from(sendingDomains)
    .where(or(eq(sendingDomains.ownerId, ownerId), eq(sendingDomains.name, name)));
  if (existing?.ownerId === ownerId) {
    return {
      ok: false,
      status: 409,
      message: `You already send from ${existing.name}: remove it first to use another domain.`,
    };
  }
  if (existing) {
    return { ok: false, field: "domain", message: "This domain is already used by another Dunly account" };
  }
  const created = await mail.createDomain(env, name);
  if (!created.ok) {
    if (!created.retryable && created.status !== null && created.status < 500) {
      return { ok: false, field: "domain", message: `Resend refused this domain: ${created.error}` };
    }
    return { ok: false, status: 502, message: providerTrouble(created, "add the domain") };
  }
  const { domain } = created;
  const inserted = await db
    .insert(sendingDomains)
    .values({
      ownerId,
      name,
      localPart: input.local_part,
      providerId: domain.id,
      status: domainStatusOf(domain.status),
      providerStatus: domain.status,
      records: JSON.stringify(domain.records),
      createdAt: now,
      checkedAt: now,
      verifiedAt: domainStatusOf(domain.status) === "verified" ? now : null,
    })
    .onConflictDoNothing()
    .returning();
  const row = inserted[0];
  if (!row) {
    // Another request of the same account (or another account, for the same name) got there first.
    const winner = await rowOf(db, ownerId);
    if (winner?.providerId !== domain.id) await mail.removeDomain(env, domain.id);
    return winner
      ? {
          ok: false,
          status: 409,
          message: `You already send from ${winner.name}: remove it first to use another domain.`,
        }
      : { ok: false, field: "domain", message: "This domain is already used by another Dunly account" };
  }
  return { ok: true, domain: view(row) };
}

export type CheckOutcome =
  | { ok: true; domain: SendingDomain; was: SendingDomainStatus }
  | { ok: false; notFound: true }
  | { ok: false; notFound?: undefined; message: string };

/**
 * Records what Resend answered about the row's domain: its status and records, when it was
 * checked; a domain Resend no longer has is 'removed'. Only if the row is still the one read (a
 * concurrent check or removal wins), so a change of status is seen, and told, once: a domain that
 * was verified and is no longer is told to the user by e-mail. A provider that did not answer
 * changes nothing (a verified domain stays verified: Resend did not say otherwise).
 */
async function record(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  row: Row,
  result: DomainResult,
  now: number,
): Promise<CheckOutcome> {
  if (!result.ok && !result.notFound) return { ok: false, message: providerTrouble(result, "check the domain") };
  const status: SendingDomainStatus = result.ok ? domainStatusOf(result.domain.status) : "removed";
  const updated = await db
    .update(sendingDomains)
    .set({
      status,
      providerStatus: result.ok ? result.domain.status : "removed",
      ...(result.ok ? { records: JSON.stringify(result.domain.records) } : {}),
      checkedAt: now,
      verifiedAt: status === "verified" ? (row.verifiedAt ?? now) : row.verifiedAt,
    })
    .where(
      and(
        eq(sendingDomains.ownerId, row.ownerId),
        eq(sendingDomains.providerId, row.providerId),
        eq(sendingDomains.status, row.status),
      ),
    )
    .returning();
  const after = updated[0];
  if (!after) {
    const now_ = await rowOf(db, row.ownerId);
    return now_
      ? { ok: true, domain: view(now_), was: now_.status as SendingDomainStatus }
      : { ok: false, notFound: true };
  }
  if (row.status === "verified" && (status === "failed" || status === "removed")) {
    await tellFallback(
      env,
      db,
      config,
      row,
      status === "failed" ? "sending_domain_failed" : "sending_domain_removed",
      now,
    );
  }
  return { ok: true, domain: view(after), was: row.status as SendingDomainStatus };
}

/** The user's e-mail that their domain no longer sends (recorded, retried, listed in Settings → E-mails). */
async function tellFallback(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  row: Row,
  kind: Extract<AccountNoticeKind, "sending_domain_failed" | "sending_domain_removed">,
  now: number,
) {
  const [owner] = await db
    .select({ email: users.email, locale: users.locale })
    .from(users)
    .where(eq(users.id, row.ownerId))
    .limit(1);
  if (!owner) return;
  const date = formatDate(new Date(now).toISOString().slice(0, 10), userLocale(owner.locale));
  try {
    await sendRecorded(env, db, {
      ownerId: row.ownerId,
      key: `${kind}:${row.ownerId}:${row.providerId}:${now}`,
      email: {
        kind: "account-notice",
        message: { to: owner.email, kind, date, about: row.name, actionUrl: `${linkOrigin(config)}/iam/domain` },
      },
    });
  } catch (error) {
    // The tab says it too; the e-mail could not even be recorded (a database error).
    console.error(`[dunly] sending-domain notice for ${row.ownerId} not recorded`, error);
  }
}

/** "Check verification": Resend checks the DNS again (POST verify), then the domain is read and recorded. */
export async function checkSendingDomain(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  ownerId: string,
  now = Date.now(),
): Promise<CheckOutcome> {
  const row = await rowOf(db, ownerId);
  if (!row) return { ok: false, notFound: true };
  if (row.status === "removed") {
    return { ok: false, message: "Resend no longer has this domain: remove it here, then add it again." };
  }
  return record(env, db, config, row, await mail.verifyDomain(env, row.providerId), now);
}

export type RemoveOutcome = { ok: true; name: string } | { ok: false; notFound: true } | { ok: false; message: string };

/** Removes the owner's domain at Resend, then here: mail goes from Dunly's address from now on. */
export async function removeSendingDomain(env: Env, db: Db, ownerId: string): Promise<RemoveOutcome> {
  const row = await rowOf(db, ownerId);
  if (!row) return { ok: false, notFound: true };
  if (row.status !== "removed") {
    const removed = await mail.removeDomain(env, row.providerId);
    if (!removed.ok) return { ok: false, message: providerTrouble(removed, "remove the domain") };
  }
  await db
    .delete(sendingDomains)
    .where(and(eq(sendingDomains.ownerId, ownerId), eq(sendingDomains.providerId, row.providerId)));
  return { ok: true, name: row.name };
}

/** Domains the watchdog reads per run: each is a request to Resend. */
export const DOMAIN_CHECKS_PER_RUN = 5;
/** A pending domain is read again after this long (Resend checks the DNS itself for 72 hours). */
export const PENDING_RECHECK_MS = 15 * 60_000;
/** A verified one after this long: a record taken down is noticed within the day. */
export const VERIFIED_RECHECK_MS = 6 * 60 * 60_000;

/**
 * The watchdog's step: the few pending or verified domains read longest ago (GET /domains/:id, no
 * new DNS check asked for), each recorded as the user's button does, falls back and notices
 * included. Bounded: DOMAIN_CHECKS_PER_RUN a run. Returns how many were read.
 */
export async function recheckSendingDomains(
  env: Env,
  db: Db,
  config: Pick<AppConfig, "APP_ENV" | "APP_ORIGIN">,
  now = Date.now(),
): Promise<number> {
  const due = await db
    .select()
    .from(sendingDomains)
    .where(
      or(
        and(
          eq(sendingDomains.status, "pending"),
          or(isNull(sendingDomains.checkedAt), lt(sendingDomains.checkedAt, now - PENDING_RECHECK_MS)),
        ),
        and(
          eq(sendingDomains.status, "verified"),
          or(isNull(sendingDomains.checkedAt), lt(sendingDomains.checkedAt, now - VERIFIED_RECHECK_MS)),
        ),
      ),
    )
    .orderBy(asc(sendingDomains.checkedAt))
    .limit(DOMAIN_CHECKS_PER_RUN);
  for (const row of due) {
    const outcome = await record(env, db, config, row, await mail.getDomain(env, row.providerId), now);
    if (!outcome.ok && !outcome.notFound)
      console.warn(`[dunly] watchdog domain check ${row.ownerId}: ${outcome.message}`);
  }
  return due.length;
}
