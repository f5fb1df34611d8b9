import { eq, sql } from "drizzle-orm";
import { generateId } from "~/auth/crypto.server";
import type { Bindable, Db } from "~/db/client.server";
import { passwordCredentials, users } from "~/db/schema";
import { TRIAL_MS } from "~/domain/plans";

/** The name a new user starts with when the provider gives none: the e-mail's local part. */
export function nameFromEmail(email: string) {
  return email.split("@")[0] ?? email;
}

/**
 * The user with this (verified) e-mail, created on first sign-in with the provider's name.
 * Marks the e-mail verified, since every caller has just proven control of it.
 */
export async function upsertVerifiedUser(db: Db, input: { email: string; fullName?: string | null }, now = Date.now()) {
  const email = input.email.toLowerCase();
  const fullName = input.fullName?.trim() || nameFromEmail(email);
  // One statement, so two first sign-ins at once cannot create two users.
  const row = await db
    .insert(users)
    // A new account's 14-day trial of Medium starts now (docs/decisions/019).
    .values({ id: generateId(), email, fullName, emailVerifiedAt: now, createdAt: now, trialEndsAt: now + TRIAL_MS })
    .onConflictDoUpdate({ target: users.email, set: { emailVerifiedAt: now } })
    .returning({ id: users.id })
    .get();
  return row.id;
}

export async function getProfile(db: Db, userId: string) {
  return db
    .select({ id: users.id, email: users.email, fullName: users.fullName, imgKey: users.imgKey, plan: users.plan })
    .from(users)
    .where(eq(users.id, userId))
    .get();
}

/** The user's name and, when given (null clears it), the business they send as. */
export async function updateProfileName(db: Db, userId: string, fullName: string, businessName?: string | null) {
  await db
    .update(users)
    .set(businessName === undefined ? { fullName } : { fullName, businessName })
    .where(eq(users.id, userId));
}

/**
 * Points the profile at a new photo; returns the previous key so its object can be removed (an
 * account keeps one photo). The read and the write are one batch, which D1 runs as one
 * transaction: of two uploads at once, each gets back the key it really replaced, so no object is
 * left behind unreferenced.
 */
export async function setProfileImage(db: Db, userId: string, imgKey: string | null) {
  const [before] = await db.batch([
    db.select({ imgKey: users.imgKey }).from(users).where(eq(users.id, userId)),
    db.update(users).set({ imgKey }).where(eq(users.id, userId)),
  ]);
  return before[0]?.imgKey ?? null;
}

/**
 * The account's sending settings as stored: its contact rules (null: Dunly's default for that rule)
 * and its payment link (null: none), which Settings → Info shows; with whether the account has a
 * password (the password form's wording), in the same statement.
 */
export async function getInfoSettings(db: Db, userId: string) {
  return infoSettingsOf((await infoSettingsQuery(db, userId))[0]);
}

/** getInfoSettings' statement, unrun (Settings → Info batches it with the Stripe account's). */
export function infoSettingsQuery(db: Db, userId: Bindable<string>) {
  return db
    .select({
      startHour: users.quietStartHour,
      endHour: users.quietEndHour,
      maxPerWindow: users.contactCap,
      paymentUrl: users.paymentUrl,
      defaultCurrency: users.defaultCurrency,
      notifyDebtorActions: users.notifyDebtorActions,
      notifyDeliveryProblems: users.notifyDeliveryProblems,
      notifyScheduleEnds: users.notifyScheduleEnds,
      notifyDigest: users.notifyDigest,
      hasPassword: sql<number>`EXISTS (SELECT 1 FROM ${passwordCredentials} WHERE ${passwordCredentials.userId} = ${users.id})`,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
}

/** The Info tab's settings from infoSettingsQuery's row (none: the defaults). */
export function infoSettingsOf(row: Awaited<ReturnType<typeof infoSettingsQuery>>[number] | undefined) {
  const { hasPassword = 0, ...settings } = row ?? {
    startHour: null,
    endHour: null,
    maxPerWindow: null,
    paymentUrl: null,
    defaultCurrency: "USD",
    notifyDebtorActions: true,
    notifyDeliveryProblems: true,
    notifyScheduleEnds: true,
    notifyDigest: false,
  };
  return { settings, hasPassword: hasPassword === 1 };
}

/** Saves which notices the user gets. */
export async function setNoticeSwitches(
  db: Db,
  userId: string,
  switches: {
    notifyDebtorActions: boolean;
    notifyDeliveryProblems: boolean;
    notifyScheduleEnds: boolean;
    notifyDigest: boolean;
  },
) {
  await db.update(users).set(switches).where(eq(users.id, userId));
}

/** Saves the account's payment link (already checked to be https); null clears it. */
export async function setPaymentUrl(db: Db, userId: string, paymentUrl: string | null) {
  await db.update(users).set({ paymentUrl }).where(eq(users.id, userId));
}

/** Saves the account's currency (already checked to be one of CURRENCIES). */
export async function setDefaultCurrency(db: Db, userId: string, defaultCurrency: string, locale?: string) {
  await db
    .update(users)
    .set(locale ? { defaultCurrency, locale } : { defaultCurrency })
    .where(eq(users.id, userId));
}

/** Saves the account's contact rules (already checked to be no looser than the defaults). */
export async function updateContactSettings(
  db: Db,
  userId: string,
  rules: { startHour: number; endHour: number; maxPerWindow: number },
) {
  await db
    .update(users)
    .set({ quietStartHour: rules.startHour, quietEndHour: rules.endHour, contactCap: rules.maxPerWindow })
    .where(eq(users.id, userId));
}

/** The API shape of a profile. */
export function profileToJson(p: { id: string; email: string; fullName: string; imgKey: string | null }) {
  return { id: p.id, fb_uuid: p.id, full_name: p.fullName, email: p.email, img: p.imgKey };
}
