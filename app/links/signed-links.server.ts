import {
  decodeBase64urlIgnorePadding,
  decodeHex,
  encodeBase64urlNoPadding,
  encodeHexLowerCase,
} from "@oslojs/encoding";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { debtors, organizations, schedules, users } from "~/db/schema";
import { type MessageBrand, messageBrand } from "~/domain/brand";
import { debtorWriting } from "~/domain/debtor-mail-copy";
import { oneLine, safeDisplayName } from "~/domain/header-safe";
import { formatReplyAddress, isReplyKey, parseReplyAddress, REPLY_SIGNATURE_HEX } from "~/domain/inbound-mail";
import { debtorLanguage, debtorLocale, type Language } from "~/domain/languages";
import type { NumberLocale } from "~/domain/number-locale";
import { type AppConfig, linkOrigin } from "~/platform/config.server";

/**
 * The opt-out link of every reminder (RFC 8058): `/u/<key>.<signature>`. The key
 * is the debtor's random opt_out_key (nothing in it says who the debtor is, and it cannot be
 * guessed); the signature is base64url(HMAC-SHA256(OPT_OUT_SECRET, "<key>:<ownerId>:<debtorId>")),
 * so a token cannot be forged, altered or moved to another debtor without the secret.
 */

export const OPT_OUT_SECRET_MISSING = "OPT_OUT_SECRET is not set: opt-out links cannot be signed";

export type SigningConfig = Pick<AppConfig, "OPT_OUT_SECRET">;

/** A key as we make them (32 hex digits); a little room either way, never unbounded. */
const KEY_RE = /^[A-Za-z0-9_-]{16,64}$/;
/** An HMAC-SHA256 in base64url without padding: 32 bytes → 43 characters. */
const SIGNATURE_RE = /^[A-Za-z0-9_-]{43}$/;
/** Longer than any token we make: refused before any work. */
const MAX_TOKEN_LENGTH = 120;

/**
 * What a debtor's signed link is for. The signed text differs per purpose, so a token made for one
 * purpose never verifies as another: the opt-out link signs "<key>:<owner>:<debtor>" (as it always
 * has; links already sent stay valid), every other purpose "<purpose>:<key>:<owner>:<debtor>". A key
 * has 16 or more characters and no ":", so no purpose's text can equal an opt-out text.
 */
export type TokenPurpose = "opt-out" | "paid" | "portal" | "text";

/**
 * The imported HMAC key of each secret, kept for the isolate's life: an alarm signs four links
 * (opt-out, I've paid, the debtor's page, the reply address) and importing the key each time was a
 * measurable part of the alarm's work. Keyed by the secret itself, so a
 * rotated secret gets its own key; a failed import is not kept.
 */
const hmacKeys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    key.catch(() => hmacKeys.delete(secret));
    hmacKeys.set(secret, key);
  }
  return key;
}

async function mac(cryptoKey: CryptoKey, text: string) {
  return encodeBase64urlNoPadding(
    new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, new TextEncoder().encode(text))),
  );
}

async function sign(secret: string, purpose: TokenPurpose, key: string, ownerId: string, debtorId: number) {
  const text = purpose === "opt-out" ? `${key}:${ownerId}:${debtorId}` : `${purpose}:${key}:${ownerId}:${debtorId}`;
  return mac(await hmacKey(secret), text);
}

/**
 * The signature of a reply address (docs/decisions/020-inbound-replies.md): HMAC-SHA256 over
 * "reply:<key>:<owner>:<debtor>" (no other purpose signs a text starting "reply:"), as lowercase hex
 * cut to 26 digits (104 bits), since mail systems may change the case of an address's local part.
 */
async function replySignature(secret: string, key: string, ownerId: string, debtorId: number) {
  const bytes = new Uint8Array(
    await crypto.subtle.sign(
      "HMAC",
      await hmacKey(secret),
      new TextEncoder().encode(`reply:${key}:${ownerId}:${debtorId}`),
    ),
  );
  return encodeHexLowerCase(bytes).slice(0, REPLY_SIGNATURE_HEX);
}

/** Characters of an invoice reference: 132 bits of the HMAC. */
const INVOICE_REF_LENGTH = 22;

/**
 * The debtor's page names each of the debtor's invoices in its forms by a reference, never by its
 * id: an HMAC over "portal-invoice:<key>:<invoice
 * id>" (no token's signed text starts so: a purpose is a word without "-invoice", a key has 16 or
 * more characters), cut to 22 characters. It says nothing about the id or about other invoices, and
 * it means something only beside the token of the debtor it was made for: the page's action
 * recomputes the references of that debtor's own invoices and looks the posted one up among them.
 * Returns a function that makes references with one imported key. Throws without OPT_OUT_SECRET.
 */
export async function invoiceRefs(config: SigningConfig, key: string): Promise<(invoiceId: number) => Promise<string>> {
  if (!config.OPT_OUT_SECRET) throw new Error(OPT_OUT_SECRET_MISSING);
  const cryptoKey = await hmacKey(config.OPT_OUT_SECRET);
  return async (invoiceId) => (await mac(cryptoKey, `portal-invoice:${key}:${invoiceId}`)).slice(0, INVOICE_REF_LENGTH);
}

/**
 * Compares two strings in time that depends only on their length. The signature is compared as
 * text, not as decoded bytes: base64url's last character carries spare bits, and a token with
 * them flipped must not pass as the same signature.
 */
function constantTimeEqual(a: string, b: string) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A fresh random key: 16 bytes as 32 hex digits, like the schema's default. */
export function newOptOutKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return encodeHexLowerCase(bytes);
}

/**
 * The debtor's opt_out_key after an edit that sets their address to `email` (lower-cased): kept
 * while the address stays the same (compared without case), a fresh random one when it changes
 *. Every signed link (opt-out, "I've paid", the debtor's
 * page, the reply address) names the debtor through this key, so a link sent to the old address
 * then answers like any unknown link and can never show or act on the new one. A SQL expression
 * for the UPDATE's SET: SQLite reads the row's old email there.
 */
export function keyAfterAddressChange(email: string) {
  return sql<string>`CASE WHEN lower(${debtors.email}) = ${email.toLowerCase()} THEN ${debtors.optOutKey} ELSE ${newOptOutKey()} END`;
}

/** The signed token of one debtor for `purpose`. Throws when OPT_OUT_SECRET is not set. */
async function debtorToken(
  config: SigningConfig,
  purpose: TokenPurpose,
  debtor: { id: number; ownerId: string; optOutKey: string },
): Promise<string> {
  if (!config.OPT_OUT_SECRET) throw new Error(OPT_OUT_SECRET_MISSING);
  const signature = await sign(config.OPT_OUT_SECRET, purpose, debtor.optOutKey, debtor.ownerId, debtor.id);
  return `${debtor.optOutKey}.${signature}`;
}

/**
 * The absolute URL `${linkOrigin(config)}${prefix}${token}` of a debtor's signed link for
 * `purpose`. A debtor without a key (a row written by raw SQL) gets a random one first; of two
 * concurrent callers the first key written wins and both read it back. Throws when OPT_OUT_SECRET
 * is not set.
 */
export async function debtorLink(
  db: Db,
  config: AppConfig,
  purpose: TokenPurpose,
  prefix: string,
  debtor: { id: number; ownerId: string; optOutKey: string | null },
): Promise<string> {
  if (!config.OPT_OUT_SECRET) throw new Error(OPT_OUT_SECRET_MISSING);
  const key = await ensureDebtorKey(db, purpose, debtor);
  const url = `${linkOrigin(config)}${prefix}${await debtorToken(config, purpose, { ...debtor, optOutKey: key })}`;
  // Ours (an origin and base64url), but it may become a header value: never a line break in it.
  if (/[\r\n]/.test(url)) throw new Error(`The ${purpose} link contains a line break`);
  return url;
}

/** The debtor's opt_out_key; a debtor without one (a row written by raw SQL) gets a random one first. */
async function ensureDebtorKey(
  db: Db,
  purpose: string,
  debtor: { id: number; ownerId: string; optOutKey: string | null },
): Promise<string> {
  let key = debtor.optOutKey;
  if (!key) {
    const owned = and(eq(debtors.id, debtor.id), eq(debtors.ownerId, debtor.ownerId));
    await db
      .update(debtors)
      .set({ optOutKey: newOptOutKey() })
      .where(and(owned, isNull(debtors.optOutKey)));
    const row = await db.select({ optOutKey: debtors.optOutKey }).from(debtors).where(owned).get();
    key = row?.optOutKey ?? null;
    if (!key) throw new Error(`Debtor ${debtor.id} not found: no ${purpose} link can be made`);
  }
  return key;
}

/**
 * The debtor's reply address on INBOUND_DOMAIN (docs/decisions/020-inbound-replies.md): the
 * reminders' Reply-To, `r-<key>-<26 hex signature>@<domain>`. Null when no inbound domain or secret is
 * configured, or the debtor's key is not lowercase hex (a row written by raw SQL): the reminder's
 * Reply-To then stays the user's own address.
 */
export async function replyAddress(
  db: Db,
  config: Pick<AppConfig, "OPT_OUT_SECRET" | "INBOUND_DOMAIN">,
  debtor: { id: number; ownerId: string; optOutKey: string | null },
): Promise<string | null> {
  if (!config.OPT_OUT_SECRET || !config.INBOUND_DOMAIN) return null;
  const key = await ensureDebtorKey(db, "reply", debtor);
  if (!isReplyKey(key)) return null;
  const signature = await replySignature(config.OPT_OUT_SECRET, key, debtor.ownerId, debtor.id);
  return formatReplyAddress(key, signature, config.INBOUND_DOMAIN);
}

/**
 * The debtor a reply address belongs to, or null for anything not ours: another domain, a
 * malformed, forged, altered or other-purpose token, a deleted debtor, or no domain or secret
 * configured. Never throws on bad input.
 */
export async function verifyReplyAddress(
  db: Db,
  config: Pick<AppConfig, "OPT_OUT_SECRET" | "INBOUND_DOMAIN">,
  address: string,
): Promise<{ debtorId: number; ownerId: string; email: string; fullName: string; userEmail: string } | null> {
  if (!config.OPT_OUT_SECRET || !config.INBOUND_DOMAIN) return null;
  const parsed = parseReplyAddress(address, config.INBOUND_DOMAIN);
  if (!parsed) return null;
  const row = await db
    .select({
      id: debtors.id,
      ownerId: debtors.ownerId,
      email: debtors.email,
      fullName: debtors.fullName,
      userEmail: users.email,
    })
    .from(debtors)
    .innerJoin(users, eq(users.id, debtors.ownerId))
    .where(eq(debtors.optOutKey, parsed.key))
    .get();
  if (!row) return null;
  const expected = await replySignature(config.OPT_OUT_SECRET, parsed.key, row.ownerId, row.id);
  if (!constantTimeEqual(parsed.signature, expected)) return null;
  return { debtorId: row.id, ownerId: row.ownerId, email: row.email, fullName: row.fullName, userEmail: row.userEmail };
}

/**
 * The absolute opt-out URL of a debtor: `${linkOrigin(config)}/u/${token}` (see debtorLink).
 * Throws when OPT_OUT_SECRET is not set: the engine records a failed delivery rather than send a
 * reminder without an opt-out link.
 */
export async function optOutLink(
  db: Db,
  config: AppConfig,
  debtor: { id: number; ownerId: string; optOutKey: string | null },
): Promise<string> {
  return debtorLink(db, config, "opt-out", "/u/", debtor);
}

/** Whom a valid token speaks for. The address is for our use only: pages show it masked. */
export interface OptOutTarget {
  debtorId: number;
  ownerId: string;
  /** The debtor's opt_out_key, the token's public half (the portal's invoice references use it). */
  key: string;
  email: string;
  /** Who the reminders come from, named as they named themselves (debtorSenderName). */
  senderName: string;
  /** The sender's payment page ('Pay now'), https only; null: none. */
  payUrl: string | null;
  /** The user's brand as the debtor's pages show it (docs/decisions/058); the logo's URL is a same-origin path. */
  brand: MessageBrand;
  /** The language the debtor's pages are written in: the debtor's own, else the user's (debtorLanguage). */
  language: Language;
  /** Where those pages write dates and amounts (debtorLocale). */
  locale: NumberLocale;
}

/**
 * What the user's brand needs of their row (docs/decisions/058): read in the same statement as the
 * sender's name, wherever a debtor-facing page or e-mail names them; the plan decides "Powered by Dunly".
 */
export const BRAND_COLUMNS = {
  brandLogo: users.brandLogo,
  brandAccent: users.brandAccent,
  brandSignature: users.brandSignature,
  brandPoweredBy: users.brandPoweredBy,
  plan: users.plan,
  subscriptionStatus: users.subscriptionStatus,
  trialEndsAt: users.trialEndsAt,
  createdAt: users.createdAt,
};

/** The brand of a row read with BRAND_COLUMNS, named `name`; `origin` prefixes the logo's path ("" on our own pages). */
export function brandOfRow(
  row: { [K in keyof typeof BRAND_COLUMNS]: (typeof BRAND_COLUMNS)[K]["_"]["data"] | null },
  name: string,
  origin: string,
  now = Date.now(),
): MessageBrand {
  return messageBrand(
    {
      brandLogo: row.brandLogo,
      brandAccent: row.brandAccent,
      brandSignature: row.brandSignature,
      brandPoweredBy: row.brandPoweredBy !== false,
    },
    name,
    row.plan === null || row.createdAt === null
      ? undefined
      : {
          plan: row.plan,
          subscriptionStatus: row.subscriptionStatus,
          trialEndsAt: row.trialEndsAt,
          createdAt: row.createdAt,
        },
    origin,
    now,
  );
}

/**
 * Who a debtor's reminders come from, as the debtor's pages name them:
 * the organization of the debtor's most recent schedule when it was sent as one, else the user's
 * name, else the local part of the user's address (the name a new account starts with). One line,
 * nothing that looks like an address or a link, as the reminder's From name (app/domain/sender.ts).
 */
export function debtorSenderName(sender: {
  orgName: string | null;
  businessName: string | null;
  fullName: string;
  userEmail: string;
}): string {
  const org = sender.orgName ? safeDisplayName(sender.orgName) : "";
  if (org) return org;
  const business = sender.businessName ? safeDisplayName(sender.businessName) : "";
  if (business) return business;
  return safeDisplayName(sender.fullName) || oneLine(sender.userEmail.split("@")[0] ?? "") || "the sender";
}

/** Only an https page is a payment page (as the reminder's 'Pay now' button, emails/reminder.tsx). */
function httpsUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The organization of the debtor's most recent schedule (newest by created_at), for a join: null
 * when that schedule was sent as the person. Through the index on schedules (debtor_id, …).
 */
const NEWEST_SCHEDULE_ORG = sql`${organizations.id} = (SELECT s.organization_id FROM ${schedules} AS s WHERE s.debtor_id = ${debtors.id} ORDER BY s.created_at DESC, s.id DESC LIMIT 1) AND ${organizations.ownerId} = ${debtors.ownerId}`;

/**
 * The debtor a token belongs to, or null for anything forged, altered, malformed, unknown or too
 * long, or when no secret is configured. Never throws on bad input.
 */
export async function verifyOptOutToken(
  db: Db,
  config: SigningConfig,
  token: string | null | undefined,
): Promise<OptOutTarget | null> {
  return verifyDebtorToken(db, config, "opt-out", token);
}

/**
 * The debtor a token signed for `purpose` belongs to, or null for anything forged, altered,
 * malformed, unknown, too long or signed for another purpose, or when no secret is configured.
 * Never throws on bad input.
 */
export async function verifyDebtorToken(
  db: Db,
  config: SigningConfig,
  purpose: TokenPurpose,
  token: string | null | undefined,
): Promise<OptOutTarget | null> {
  if (!config.OPT_OUT_SECRET || typeof token !== "string" || token.length > MAX_TOKEN_LENGTH) return null;
  const dot = token.indexOf(".");
  if (dot < 0) return null;
  const key = token.slice(0, dot);
  const signature = token.slice(dot + 1);
  if (!KEY_RE.test(key) || !SIGNATURE_RE.test(signature)) return null;
  const row = await db
    .select({
      id: debtors.id,
      ownerId: debtors.ownerId,
      email: debtors.email,
      fullName: users.fullName,
      userEmail: users.email,
      userPaymentUrl: users.paymentUrl,
      orgName: organizations.name,
      businessName: users.businessName,
      orgPaymentUrl: organizations.paymentUrl,
      ...BRAND_COLUMNS,
      language: debtors.language,
      userLocale: users.locale,
    })
    .from(debtors)
    .innerJoin(users, eq(users.id, debtors.ownerId))
    .leftJoin(organizations, NEWEST_SCHEDULE_ORG)
    .where(eq(debtors.optOutKey, key))
    .get();
  if (!row) return null;
  const expected = await sign(config.OPT_OUT_SECRET, purpose, key, row.ownerId, row.id);
  if (!constantTimeEqual(signature, expected)) return null;
  return {
    debtorId: row.id,
    ownerId: row.ownerId,
    key,
    email: row.email.toLowerCase(),
    senderName: debtorSenderName(row),
    // The organization's page when sent as one, else the user's (app/domain/sender.ts reminderSender).
    payUrl: httpsUrl((row.orgName !== null ? row.orgPaymentUrl : null) ?? row.userPaymentUrl),
    brand: brandOfRow(row, debtorSenderName(row), ""),
    ...debtorPageLanguage(row.language, row.userLocale),
  };
}

/** The language and locale of a debtor's pages from the debtor's stored language and the user's format. */
export function debtorPageLanguage(stored: string | null, userStoredLocale: string | null) {
  const language = debtorLanguage(stored, userStoredLocale);
  return { language, locale: debtorLocale(language, userStoredLocale) };
}

/**
 * The owner's debtor's address and name, and who their reminders come from as the debtor's pages
 * name them (debtorSenderName): the receipt of a payment online (decisions/018). Undefined when
 * the debtor is not the owner's.
 */
export async function debtorParties(
  db: Db,
  ownerId: string,
  debtorId: number,
  config?: Parameters<typeof linkOrigin>[0],
) {
  const row = await db
    .select({
      email: debtors.email,
      debtorName: debtors.fullName,
      debtorStatus: debtors.status,
      debtorLanguage: debtors.language,
      optOutKey: debtors.optOutKey,
      fullName: users.fullName,
      userEmail: users.email,
      userLocale: users.locale,
      orgName: organizations.name,
      businessName: users.businessName,
      ...BRAND_COLUMNS,
    })
    .from(debtors)
    .innerJoin(users, eq(users.id, debtors.ownerId))
    .leftJoin(organizations, NEWEST_SCHEDULE_ORG)
    .where(and(eq(debtors.id, debtorId), eq(debtors.ownerId, ownerId)))
    .get();
  if (!row) return undefined;
  return {
    email: row.email,
    debtorName: row.debtorName,
    /** 'opted_out' or 'bouncing': a courtesy e-mail (a receipt, an answer) is not sent there. */
    status: row.debtorStatus,
    optOutKey: row.optOutKey,
    senderName: debtorSenderName(row),
    replyTo: row.userEmail,
    /**
     * What is written to the debtor is in their language (their own, else the user's), its dates in
     * that language's locale (the user's format when it is of that language), its amounts too
     * unless English (app/domain/debtor-mail-copy.ts debtorWriting).
     */
    ...debtorWriting(row.debtorLanguage, row.userLocale),
    /** The user's brand for an e-mail to the debtor (the logo's absolute URL needs `config`; without it, none). */
    brand: config ? brandOfRow(row, debtorSenderName(row), linkOrigin(config)) : null,
  };
}

/** A short link's signature: 96 bits of the HMAC, as base64url (the reply address keeps 104). */
const SHORT_SIGNATURE_LENGTH = 16;
/** A key as Dunly makes them: 16 random bytes as 32 lowercase hex digits. */
const HEX_KEY_RE = /^[0-9a-f]{32}$/;
/** The short token: the key's 16 bytes as 22 base64url characters, a dot, the short signature. */
const SHORT_TOKEN_RE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{16})$/;

/**
 * The debtor's page in a form short enough for a text message (decisions/070):
 * `${linkOrigin(config)}/t/<key as base64url>.<signature>`, the signature HMAC-SHA256 over
 * "text:<key>:<owner>:<debtor>" (its own purpose: never another link's token) cut to 16 base64url
 * characters. It leads to the debtor's page and dies with it when the debtor's address changes.
 * Null for a key Dunly did not make (a row written by raw SQL): no text then. Throws without
 * OPT_OUT_SECRET.
 */
export async function shortPortalLink(
  db: Db,
  config: AppConfig,
  debtor: { id: number; ownerId: string; optOutKey: string | null },
): Promise<string | null> {
  if (!config.OPT_OUT_SECRET) throw new Error(OPT_OUT_SECRET_MISSING);
  const key = await ensureDebtorKey(db, "text", debtor);
  if (!HEX_KEY_RE.test(key)) return null;
  const signature = (await sign(config.OPT_OUT_SECRET, "text", key, debtor.ownerId, debtor.id)).slice(
    0,
    SHORT_SIGNATURE_LENGTH,
  );
  return `${linkOrigin(config)}/t/${encodeBase64urlNoPadding(decodeHex(key))}.${signature}`;
}

/**
 * The debtor a short token belongs to (their id, owner and key, to make their page's link), or
 * null for anything else: malformed, forged, altered, another purpose's, a key not written the one
 * way Dunly writes it, or an unknown debtor. Never throws on bad input.
 */
export async function verifyShortPortalToken(
  db: Db,
  config: SigningConfig,
  token: string | null | undefined,
): Promise<{ id: number; ownerId: string; optOutKey: string } | null> {
  if (!config.OPT_OUT_SECRET || typeof token !== "string") return null;
  const match = SHORT_TOKEN_RE.exec(token);
  if (!match?.[1] || !match[2]) return null;
  const bytes = decodeBase64urlIgnorePadding(match[1]);
  // One spelling per key: the last character's spare bits must be the encoder's own.
  if (bytes.length !== 16 || encodeBase64urlNoPadding(bytes) !== match[1]) return null;
  const key = encodeHexLowerCase(bytes);
  const row = await db
    .select({ id: debtors.id, ownerId: debtors.ownerId })
    .from(debtors)
    .where(eq(debtors.optOutKey, key))
    .get();
  if (!row) return null;
  const expected = (await sign(config.OPT_OUT_SECRET, "text", key, row.ownerId, row.id)).slice(
    0,
    SHORT_SIGNATURE_LENGTH,
  );
  if (!constantTimeEqual(match[2], expected)) return null;
  return { id: row.id, ownerId: row.ownerId, optOutKey: key };
}
