import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Epoch milliseconds, the unit of every time column. */
const nowMs = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export const users = sqliteTable(
  "users",
  {
    // The spec's fb_uuid.
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    fullName: text("full_name").notNull().default(""),
    imgKey: text("img_key"),
    emailVerifiedAt: integer("email_verified_at"),
    plan: text("plan").notNull().default("medium"),
    // Contact rules (app/domain/contact-rules.ts): the account may tighten the defaults; null = default.
    quietStartHour: integer("quiet_start_hour"),
    quietEndHour: integer("quiet_end_hour"),
    contactCap: integer("contact_cap"),
    // 'Pay now' in every reminder: the account's https payment page (0006); an organization may have its own.
    paymentUrl: text("payment_url"),
    // New debtors' and imported rows' currency unless given.
    defaultCurrency: text("default_currency").notNull().default("USD"),
    // The user's number format, a locale (app/domain/number-locale.ts): how their amounts are typed
    // and read; null: the browser's languages.
    locale: text("locale"),
    // The user's business (0037), asked on the welcome page and in Settings: the name reminders and
    // the debtor's pages go out under when not sent as an organization. Null: their own name.
    businessName: text("business_name"),
    // The user's e-mails about their debtors (0014):
    // "I've paid", promises, disputes and opt-outs; bounces and complaints. On unless switched off.
    notifyDebtorActions: integer("notify_debtor_actions", { mode: "boolean" }).notNull().default(true),
    notifyDeliveryProblems: integer("notify_delivery_problems", { mode: "boolean" }).notNull().default(true),
    // Told when a due-date schedule has sent its last step and ends.
    notifyScheduleEnds: integer("notify_schedule_ends", { mode: "boolean" }).notNull().default(true),
    // The daily digest of the last 24 hours' events (off unless switched on; 0014), and the UTC day
    // of the last one (the watchdog's mark, so a day gets one).
    notifyDigest: integer("notify_digest", { mode: "boolean" }).notNull().default(false),
    digestSentOn: text("digest_sent_on"),
    // Dunly's own plans (docs/decisions/019; 0018): the Stripe customer and subscription, its status
    // ('active', 'past_due', 'canceled'…; null: never subscribed), its period end and whether it ends
    // then; `plan` is the subscription's plan (the trial's before one). The trial ends at
    // trial_ends_at (null: 14 days after created_at); the watchdog's two trial e-mails mark
    // trial_warned_at and trial_ended_sent_at. subscription_event_at: the `created` of the newest
    // event applied, so an older event never overwrites a newer state.
    stripeCustomerId: text("stripe_customer_id").unique(),
    stripeSubscriptionId: text("stripe_subscription_id"),
    subscriptionStatus: text("subscription_status"),
    currentPeriodEnd: integer("current_period_end"),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    subscriptionEventAt: integer("subscription_event_at"),
    trialEndsAt: integer("trial_ends_at"),
    trialWarnedAt: integer("trial_warned_at"),
    trialEndedSentAt: integer("trial_ended_sent_at"),
    createdAt: integer("created_at").notNull().default(nowMs),
    // When the user asked for the account to be deleted (0026): from then on nothing of it is read
    // or sent, and a background job deletes it in bounded steps (app/account/delete.server.ts).
    deletingAt: integer("deleting_at"),
    // The user's brand (docs/decisions/058): the logo's public name (its R2 object is
    // IMAGES/<id>/<brand_logo>, served by /logos/<brand_logo> for mail clients), the accent colour
    // (#rrggbb; null: Dunly's violet), the e-mail signature (plain text) and whether reminders and
    // the debtor's pages say "Powered by Dunly" (only the top plan may turn it off).
    brandLogo: text("brand_logo").unique(),
    brandAccent: text("brand_accent"),
    brandSignature: text("brand_signature"),
    brandPoweredBy: integer("brand_powered_by", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [
    index("users_digest_idx").on(t.notifyDigest, t.digestSentOn),
    // The watchdog puts every account still being deleted back on the jobs queue.
    index("users_deleting_idx").on(t.deletingAt).where(sql`${t.deletingAt} IS NOT NULL`),
    // The watchdog's trial e-mails find the accounts whose trial ends soon through this.
    index("users_trial_idx").on(t.trialEndsAt),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // hex(SHA-256(token)); the token itself is never stored.
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at").notNull(),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  // expires_at: the housekeeping job's purge (app/watchdog/housekeeping.server.ts).
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

export const loginTokens = sqliteTable(
  "login_tokens",
  {
    hash: text("hash").primaryKey(),
    email: text("email").notNull(),
    // Where to go after sign-in (a same-site path, checked when stored).
    redirectTo: text("redirect_to"),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("login_tokens_expires_idx").on(t.expiresAt)],
);

export const oauthStates = sqliteTable(
  "oauth_states",
  {
    // hex(SHA-256(state)); single use, consumed by the callback.
    hash: text("hash").primaryKey(),
    codeVerifier: text("code_verifier").notNull(),
    redirectTo: text("redirect_to"),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("oauth_states_expires_idx").on(t.expiresAt)],
);

export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    provider: text("provider").notNull(),
    providerUserId: text("provider_user_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerUserId] }), index("oauth_accounts_user_idx").on(t.userId)],
);

export const passwordCredentials = sqliteTable("password_credentials", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  salt: text("salt").notNull(),
  iterations: integer("iterations").notNull(),
});

/** One row per rate-limited action (sign-in e-mails, password attempts); the housekeeping job purges old rows. */
export const rateLimitEvents = sqliteTable(
  "rate_limit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("rate_limit_events_key_idx").on(t.key, t.createdAt),
    index("rate_limit_events_created_idx").on(t.createdAt),
  ],
);

export const debtors = sqliteTable(
  "debtors",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["person", "company"] })
      .notNull()
      .default("person"),
    fullName: text("full_name").notNull(),
    email: text("email").notNull(),
    debtCents: integer("debt_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    activeStrategy: integer("active_strategy").notNull().default(1),
    paidCents: integer("paid_cents").notNull().default(0),
    status: text("status", {
      enum: ["active", "paid", "opted_out", "bouncing"],
    })
      .notNull()
      .default("active"),
    // The debtor's own IANA zone: quiet hours are theirs (0005; the user's zone when added).
    timeZone: text("time_zone").notNull().default("UTC"),
    // The language Dunly writes to them in (app/domain/languages.ts); null: the user's.
    language: text("language"),
    // When the debtor clicked "I've paid" and the user has not yet confirmed or resumed (0006).
    paidClaimedAt: integer("paid_claimed_at"),
    // What the pending claim says was paid (0035), as the debtor gave it: the amount (null: the
    // invoices they picked, in full) in its currency, the day, and their reference. Null without a claim.
    paidClaimCents: integer("paid_claim_cents"),
    paidClaimCurrency: text("paid_claim_currency"),
    paidClaimOn: text("paid_claim_on"),
    paidClaimReference: text("paid_claim_reference"),
    // The debtor's promise to pay (0010): the date they gave (YYYY-MM-DD, their zone) and the
    // instant reminders resume by themselves (the start of the next day in their zone); both null
    // when no promise is pending.
    promisedOn: text("promised_on"),
    promiseEndsAt: integer("promise_ends_at"),
    // When a promise passed with something still owed; while set, a new promise needs the user's consent.
    promiseBrokenAt: integer("promise_broken_at"),
    // Random and unique: the public half of the opt-out token (app/links/signed-links.server.ts). Set on
    // insert; a row written without it (older rows, raw SQL) gets one when its first link is made.
    optOutKey: text("opt_out_key").$defaultFn(() => crypto.randomUUID().replaceAll("-", "")),
    // The primary contact: the person behind `email` (decisions/057). A reminder greets them by
    // name ("Hi Jane,"); null: it greets the debtor by full_name as before. The role is free text.
    contactName: text("contact_name"),
    contactRole: text("contact_role"),
    // The accounting tool it came from (decisions/060): 'xero' with the contact's id there; null: Dunly's own.
    sourceProvider: text("source_provider", { enum: ["xero", "quickbooks"] }),
    externalId: text("external_id"),
    // Late-payment charges for this debtor (decisions/065): 'on' or 'off'; null: the account's
    // setting. Only a debtor of kind 'company' is ever charged, whatever this says.
    lateCharges: text("late_charges", { enum: ["on", "off"] }),
    // The debtor's mobile number in E.164 (decisions/069; app/domain/phone.ts), null: none. Texts
    // go to it only while text_consent_at is set: when the user confirmed they may text this debtor,
    // and who (the user's e-mail). A change of number, the debtor's STOP (text_opt_outs) or their
    // opt-out from e-mails clears the consent.
    phone: text("phone"),
    textConsentAt: integer("text_consent_at"),
    textConsentBy: text("text_consent_by"),
    createdAt: integer("created_at").notNull().default(nowMs),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [
    index("debtors_owner_idx").on(t.ownerId, t.id),
    // One debtor per contact of the accounting tool (decisions/060).
    uniqueIndex("debtors_owner_external_idx")
      .on(t.ownerId, t.sourceProvider, t.externalId)
      .where(sql`external_id IS NOT NULL`),
    uniqueIndex("debtors_opt_out_key_idx").on(t.optOutKey),
    // The dashboard's notices (0007): bouncing addresses counted, "I've paid" claims newest first.
    index("debtors_owner_status_idx").on(t.ownerId, t.status),
    index("debtors_paid_claim_idx").on(t.ownerId, t.paidClaimedAt),
    // The watchdog's resume of promises that have ended (0010).
    index("debtors_promise_ends_idx").on(t.promiseEndsAt),
    // The dashboard's answers (0012): an account's promises, pending or broken, without its other debtors.
    index("debtors_promises_idx").on(t.ownerId).where(sql`promised_on IS NOT NULL OR promise_broken_at IS NOT NULL`),
    // A debtor found by address within the account (0011): an add with an address the user already
    // has offers that debtor instead of a twin, and the CSV import matches its rows by address.
    index("debtors_owner_email_idx").on(t.ownerId, sql`lower(${t.email})`),
    // An incoming text finds the accounts whose debtors carry that number, and each account's
    // debtors with it (decisions/069).
    index("debtors_phone_idx").on(t.phone, t.ownerId).where(sql`phone IS NOT NULL`),
  ],
);

/**
 * A debtor's other contacts (decisions/057): the primary is the debtor's own email and
 * contact_name; these are copied (CC) on the debtor's reminders while `cc` is on, their address has
 * not opted out of the owner's reminders (opt_outs) and has not bounced (`bounced_at`). At most
 * MAX_DEBTOR_CONTACTS a debtor, primary included (app/domain/contacts.ts).
 */
export const debtorContacts = sqliteTable(
  "debtor_contacts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // Lower-cased, as debtors.email and opt_outs.email.
    email: text("email").notNull(),
    role: text("role"),
    // Copied on the debtor's reminders.
    cc: integer("cc", { mode: "boolean" }).notNull().default(true),
    // A hard bounce of this address (the provider's webhook): no copy goes to it until the address changes.
    bouncedAt: integer("bounced_at"),
    bounceError: text("bounce_error"),
    // This contact's mobile in E.164 (decisions/069), kept for the user; texts go only to the
    // debtor's own number (debtors.phone), which carries the consent.
    phone: text("phone"),
    createdAt: integer("created_at").notNull().default(nowMs),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [
    index("debtor_contacts_owner_idx").on(t.ownerId, t.debtorId, t.id),
    // One row per address a debtor; the consumer reads a batch's debtors' contacts by debtor_id.
    uniqueIndex("debtor_contacts_debtor_email_idx").on(t.debtorId, t.email),
    // A bounce or an opt-out finds the owner's contacts with that address.
    index("debtor_contacts_owner_email_idx").on(t.ownerId, t.email),
  ],
);

/**
 * What a debtor owes, one row per invoice (0010). paid_cents is the sum of
 * the payment_allocations on it, kept in the same batch as every payment write; the CHECK keeps the
 * ledger whole on every path: nothing is paid beyond an invoice's amount, and no amount is lowered
 * below what was paid on it. The debtor's debt_cents and paid_cents are the sums over its invoices
 * in the debtor's currency that are not void, and its status follows them (app/ledger/ledger.server.ts).
 */
export const invoices = sqliteTable(
  "invoices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    // Optional; unique within the account when given.
    number: text("number"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    // Calendar dates, YYYY-MM-DD.
    issuedOn: text("issued_on").notNull(),
    dueOn: text("due_on").notNull(),
    status: text("status", { enum: ["open", "paid", "void", "disputed"] })
      .notNull()
      .default("open"),
    paidCents: integer("paid_cents").notNull().default(0),
    // The debtor's reason, when they disputed it from the portal.
    disputeReason: text("dispute_reason"),
    disputedAt: integer("disputed_at"),
    // The user said "don't chase this one" (a payment plan, an arrangement): reminders leave it out
    // and say so, until "Chase again". Still owed. Null: chased.
    chasePausedAt: integer("chase_paused_at"),
    // The debtor said they paid it (0035): reminders leave it out and say so until the user confirms
    // or rejects the claim. Null: not claimed.
    claimedAt: integer("claimed_at"),
    // The invoice's own PDF (0036), in the DOCUMENTS bucket under its owner and debtor: the key, the
    // file's name as uploaded (shown, and the download's name) and its size in bytes. Null: none.
    documentKey: text("document_key"),
    documentName: text("document_name"),
    documentSize: integer("document_size"),
    createdAt: integer("created_at").notNull().default(nowMs),
    updatedAt: integer("updated_at").notNull().default(nowMs),
    // Synced from an accounting tool (decisions/060): 'xero' and the invoice's id there. Read-only
    // in Dunly (the books are its truth); null: typed in or imported by the user, editable.
    sourceProvider: text("source_provider", { enum: ["xero", "quickbooks"] }),
    externalId: text("external_id"),
    // The invoice in the accounting tool, for the user (its page there); null: none known.
    sourceUrl: text("source_url"),
    // The day (YYYY-MM-DD) its late-payment charges were last accrued through (decisions/065): the
    // watchdog's daily accrual takes the invoices still behind today; null: never accrued.
    chargesThrough: text("charges_through"),
  },
  (t) => [
    // Never imported twice (decisions/060).
    uniqueIndex("invoices_owner_external_idx")
      .on(t.ownerId, t.sourceProvider, t.externalId)
      .where(sql`external_id IS NOT NULL`),
    // A debtor's invoices, oldest due first (the statement, allocation, the debtor page).
    index("invoices_debtor_idx").on(t.debtorId, t.status, t.dueOn),
    index("invoices_owner_idx").on(t.ownerId, t.id),
    // The dashboard's answers (0012): an account's open disputes, without its other invoices.
    index("invoices_disputed_idx").on(t.ownerId, t.disputedAt).where(sql`status = 'disputed'`),
    uniqueIndex("invoices_owner_number_idx").on(t.ownerId, t.number).where(sql`number IS NOT NULL`),
    // The money figures: an account's owed invoices by due date,
    // without its paid or void ones, ordering the oldest debts and covering the aging sums (status
    // too: SQLite counts a column of the condition as read unless the index holds it).
    index("invoices_owner_owed_idx")
      .on(t.ownerId, t.dueOn, t.currency, t.amountCents, t.paidCents, t.status)
      .where(sql`status IN ('open', 'disputed')`),
    check("invoices_ledger", sql`paid_cents >= 0 AND paid_cents <= amount_cents AND amount_cents > 0`),
  ],
);

/**
 * An account's owed invoices summed per due date and currency (docs/decisions/028): what the aging
 * table reads (app/ledger/money.server.ts agingQuery), one row per day that has something owed
 * instead of one per invoice. Kept by SQLite triggers on `invoices` (migrations/0024): every
 * insert, delete (a debtor's or an account's cascade included) and change of an invoice's owner,
 * due date, currency, amount, paid part or status moves its row; a row whose count reaches 0 is
 * deleted. Written by nothing else.
 */
export const invoiceOwedDays = sqliteTable(
  "invoice_owed_days",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Calendar date, YYYY-MM-DD (the invoices' due_on).
    dueOn: text("due_on").notNull(),
    currency: text("currency").notNull(),
    // How many owed invoices ('open' or 'disputed') fall due that day in that currency, and what they still owe.
    invoices: integer("invoices").notNull().default(0),
    balanceCents: integer("balance_cents").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.dueOn, t.currency] })],
);

/** A payment a debtor made; the debtor's paid_cents is the sum of theirs (kept in the same batch). */
export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
    // The currency of the invoices it pays (0010): the debtor's, or the chosen invoice's.
    currency: text("currency").notNull().default("USD"),
    // The invoice the user chose it for (0010); null: the open invoices, oldest due date first.
    invoiceId: integer("invoice_id").references(() => invoices.id, { onDelete: "set null" }),
    // The calendar date it was paid, YYYY-MM-DD.
    paidOn: text("paid_on").notNull(),
    note: text("note").notNull().default(""),
    createdAt: integer("created_at").notNull().default(nowMs),
    // Where it came from (0018, decisions/018): 'manual' (typed in by the user) or 'stripe' (a
    // debtor's payment online, recorded from a verified event), with the provider's payment id
    // (the PaymentIntent): unique, so one payment is recorded once whatever events repeat it.
    // 'xero', 'quickbooks' (decisions/060, 061): what the books say was paid or credited on a synced
    // invoice, keyed by the invoice, its total (decisions/062) and the amount still due after it.
    source: text("source", { enum: ["manual", "stripe", "xero", "quickbooks"] })
      .notNull()
      .default("manual"),
    providerPaymentId: text("provider_payment_id"),
  },
  (t) => [
    uniqueIndex("payments_provider_payment_idx").on(t.providerPaymentId),
    index("payments_debtor_idx").on(t.debtorId, t.paidOn),
    // The money figures: an account's payments by date,
    // covering what was collected in a month.
    index("payments_owner_paid_idx").on(t.ownerId, t.paidOn, t.currency, t.amountCents),
  ],
);

/** What a payment paid on each invoice (0010): deleting or lowering a payment reopens exactly this. */
export const paymentAllocations = sqliteTable(
  "payment_allocations",
  {
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.paymentId, t.invoiceId] }),
    index("payment_allocations_invoice_idx").on(t.invoiceId),
  ],
);

/**
 * An address that opted out of one user's reminders (RFC 8058 one-click or the page). No reminder
 * from that user goes to it, for any debtor with that address, until the user records consent.
 */
export const optOuts = sqliteTable(
  "opt_outs",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Lower-cased, as deliveries.recipient.
    email: text("email").notNull(),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.email] })],
);

/**
 * A number that must not be texted by an account (decisions/069): the debtor's STOP (or another
 * carrier opt-out keyword) recorded at once, removed by their START. `source`: 'keyword' (the
 * debtor's text), 'carrier' (the provider said so) or 'user' (the user's own choice, which START
 * does not lift). No text goes from this account to the number while its row exists, whatever a
 * debtor's consent says.
 */
export const textOptOuts = sqliteTable(
  "text_opt_outs",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // E.164, as debtors.phone.
    number: text("number").notNull(),
    source: text("source").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.number] })],
);

/**
 * The account's text settings (Settings → Text messages, decisions/069): the channel on or off and
 * the countries (ISO 3166 codes, comma-separated, app/domain/phone.ts TEXT_COUNTRIES) whose
 * numbers may be texted. No row: off. The channel also needs Twilio's configuration: without it
 * production hides it, whatever this says.
 */
export const textSettings = sqliteTable("text_settings", {
  ownerId: text("owner_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  countries: text("countries").notNull().default(""),
  // The text step's words (app/domain/text-message.ts placeholders); null: DEFAULT_TEXT_TEMPLATE.
  template: text("template"),
  updatedAt: integer("updated_at").notNull().default(nowMs),
});

/**
 * Texts counted against the plan's monthly allowance (decisions/069): one row per account and
 * month ("YYYY-MM", UTC), `used` raised by the claim of each text in the claim's own statement,
 * only while `used` is below the plan's `monthlyTexts` (so two claims cannot both take the last).
 */
export const textUsage = sqliteTable(
  "text_usage",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    used: integer("used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.month] })],
);

/** Provider webhook events already handled, by their id: a repeat changes nothing (housekeeping purges old ones). */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [index("webhook_events_received_idx").on(t.receivedAt)],
);

export const organizations = sqliteTable(
  "organizations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    address: text("address").notNull(),
    // 'Pay now' when a reminder is sent as this organization; null: the user's (0006).
    paymentUrl: text("payment_url"),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [index("organizations_owner_idx").on(t.ownerId, t.id)],
);

export const schedules = sqliteTable(
  "schedules",
  {
    // The spec's schedule Name, prefixed by the owner id; derived by the server.
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    organizationId: integer("organization_id").references(() => organizations.id, { onDelete: "set null" }),
    preset: text("preset").notNull(),
    templateStep: integer("template_step").notNull().default(0),
    frequency: text("frequency", {
      enum: ["daily", "weekly", "now", "due"],
    }).notNull(),
    // A due-date cadence: the day offsets from
    // each open invoice's due date ("-3,0,3,7,14"), the repeat after the last step (null: it ends)
    // and the local hour in the debtor's zone. Null for the other frequencies.
    cadenceSteps: text("cadence_steps"),
    cadenceRepeatDays: integer("cadence_repeat_days"),
    // What a step of the account's cadence sends, copied with it to a follower (domain/cadence.ts serializeVoices).
    cadenceVoices: text("cadence_voices"),
    sendHour: integer("send_hour"),
    timeZone: text("time_zone").notNull(),
    dueDate: text("due_date"),
    state: text("state", { enum: ["ENABLED", "DISABLED", "COMPLETED"] })
      .notNull()
      .default("ENABLED"),
    // Why Dunly (not the user) stopped or paused it: 'paid', 'opted_out', 'bounced', 'paid_claimed'
    // (the debtor said they paid), 'promised' (a promise to pay, until its date), 'disputed' (nothing
    // undisputed is left), 'payment_pending' (a bank payment online is being processed, decisions/018),
    // 'replied' (the debtor replied to a reminder, until the user handles it, decisions/020);
    // null otherwise.
    stoppedReason: text("stopped_reason", {
      enum: [
        "paid",
        "opted_out",
        "bounced",
        "paid_claimed",
        "promised",
        "disputed",
        "payment_pending",
        "no_plan",
        "replied",
        // Autopilot was turned off: turning it on again resumes these, not what the user paused.
        "autopilot_off",
        // The debtor asked for a payment plan (decisions/066): held until the user answers.
        "plan_requested",
      ],
    }),
    nextRunAt: integer("next_run_at"),
    lastRunAt: integer("last_run_at"),
    // When the last run's e-mail went out (or was given up): a due-date cadence's steps up to that
    // day, of the invoices open then, are covered (app/domain/cadence-plan.ts). last_run_at is the
    // occurrence's own time, which a deferral can leave hours earlier.
    coveredAt: integer("covered_at"),
    // It follows the account's cadence (account_cadences): its cadence columns are a copy of the
    // account's, rewritten when the account's changes. False: the debtor's own cadence.
    followsAccount: integer("follows_account", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(nowMs),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [
    // The lists' default order (newest first, id breaking ties) and their totals, from the index alone (0007).
    index("schedules_owner_idx").on(t.ownerId, t.createdAt, t.id),
    // A debtor's schedules; covers the debtors list's count of resumable ones (0007).
    index("schedules_debtor_idx").on(t.debtorId, t.state, t.stoppedReason),
    index("schedules_due_idx").on(t.state, t.nextRunAt),
    // The account's followers: rewritten together when the account's cadence changes.
    index("schedules_following_idx").on(t.ownerId, t.debtorId).where(sql`follows_account = 1`),
  ],
);

/**
 * The account's cadence (docs/decisions/049): the steps every debtor with open invoices follows
 * unless the user gives a debtor its own or pauses it, and whether autopilot is on (every debtor
 * with open invoices joins by itself). No row: the default cadence, autopilot off.
 */
export const accountCadences = sqliteTable("account_cadences", {
  ownerId: text("owner_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  // As schedules.cadence_steps: "-3,0,7,14,30,45".
  cadenceSteps: text("cadence_steps").notNull(),
  cadenceRepeatDays: integer("cadence_repeat_days"),
  sendHour: integer("send_hour").notNull(),
  // Each step's template and tone where the user chose them: "7:follow-up:2,45:final-notice:3".
  cadenceVoices: text("cadence_voices"),
  autopilot: integer("autopilot", { mode: "boolean" }).notNull().default(false),
  autopilotSince: integer("autopilot_since"),
  updatedAt: integer("updated_at").notNull().default(nowMs),
});

/**
 * Durable Object calls that failed after their D1 change committed: the schedule's alarm may not match its row. The watchdog's next run sets the alarm
 * from the row as it is then (armed when ENABLED, deleted otherwise) and removes the entry. No
 * foreign key: a deleted schedule's alarm must still be deleted.
 */
export const alarmRepairs = sqliteTable("alarm_repairs", {
  scheduleId: text("schedule_id").primaryKey(),
  error: text("error").notNull(),
  failedAt: integer("failed_at").notNull(),
});

export const deliveries = sqliteTable(
  "deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // No foreign key: a delivery outlives the schedule it came from (the report keeps it).
    scheduleId: text("schedule_id"),
    debtorId: integer("debtor_id").notNull(),
    occurrenceKey: text("occurrence_key").notNull(),
    template: text("template").notNull(),
    tone: integer("tone").notNull(),
    // 'deferred': held back by a sending limit, sent later under the same key.
    status: text("status", { enum: ["sending", "sent", "failed", "bounced", "complained", "deferred", "skipped"] })
      .notNull()
      .default("sending"),
    // How it reached the debtor (decisions/070): 'email', or 'text' (an SMS through Twilio; its
    // occurrence key ends ":text", its recipient is the E.164 number, its provider_id Twilio's SID).
    // The contact cap and quiet hours count both alike; the report and the exports count them apart.
    channel: text("channel", { enum: ["email", "text"] })
      .notNull()
      .default("email"),
    // The debtor's address when claimed, lower-cased: the per-address daily cap counts by it (0003).
    recipient: text("recipient"),
    providerId: text("provider_id"),
    error: text("error"),
    createdAt: integer("created_at").notNull().default(nowMs),
    sentAt: integer("sent_at"),
    // When the provider reported it delivered (webhook 'email.delivered').
    deliveredAt: integer("delivered_at"),
    // The mail batch (mail_batches) this 'sending' delivery went into: from then on only that batch,
    // resent identically under its key, may send it (docs/decisions/021-batch-sending.md).
    batchKey: text("batch_key"),
  },
  (t) => [
    uniqueIndex("deliveries_occurrence_key_idx").on(t.occurrenceKey),
    // The report (newest first, the id breaking ties) and the account's sending limit; with the
    // status, the report's totals and the limit's count are read from the index alone (0007).
    index("deliveries_owner_idx").on(t.ownerId, t.createdAt, t.id, t.status),
    index("deliveries_debtor_idx").on(t.debtorId, t.createdAt),
    // Covering the lists' "sent" counts per debtor (test sends told apart by their key) and per
    // schedule (sentCountOf in app/reminders/deliveries.server.ts), computed for a page's rows only (0007).
    index("deliveries_debtor_sent_idx").on(t.debtorId, t.status, t.occurrenceKey),
    index("deliveries_schedule_idx").on(t.scheduleId, t.status),
    index("deliveries_recipient_idx").on(t.recipient, t.createdAt),
    // The provider's id: webhook events find their delivery by it.
    index("deliveries_provider_idx").on(t.providerId),
    // The archive finds the oldest delivery of any account in one step.
    index("deliveries_created_idx").on(t.createdAt),
    // The watchdog's look for reminders a restart left 'sending' with no queue message (0023).
    index("deliveries_sending_idx").on(t.createdAt).where(sql`status = 'sending'`),
  ],
);

/**
 * Deliveries older than 13 months, counted per debtor, UTC month (YYYY-MM) and status once they
 * moved to the account's archive file in R2 (app/reminders/delivery-archive.server.ts, migration
 * 0021): a debtor's report totals, the lists'
 * "sent" counts and the timeline add them to the live rows. Per schedule too, and test sends
 * apart, as the lists' "sent" counts leave them out.
 */
export const deliveryRollups = sqliteTable(
  "delivery_rollups",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id").notNull(),
    month: text("month").notNull(),
    status: text("status", {
      enum: ["sending", "sent", "failed", "bounced", "complained", "deferred", "skipped"],
    }).notNull(),
    testSend: integer("test_send", { mode: "boolean" }).notNull(),
    // The schedule it came from, '' for none (a test send): the schedules list's "sent" counts it.
    scheduleId: text("schedule_id").notNull().default(""),
    n: integer("n").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.ownerId, t.debtorId, t.month, t.status, t.testSend, t.scheduleId] }),
    // A schedule's archived sends (sentCountOf in app/reminders/deliveries.server.ts).
    index("delivery_rollups_schedule_idx").on(t.ownerId, t.scheduleId, t.status),
  ],
);

/** One archive file per account and month in the ARCHIVE bucket: where a month's deliveries went. */
export const deliveryArchives = sqliteTable(
  "delivery_archives",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    month: text("month").notNull(),
    objectKey: text("object_key").notNull(),
    rows: integer("rows").notNull(),
    bytes: integer("bytes").notNull(),
    archivedAt: integer("archived_at").notNull().default(nowMs),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.month] })],
);

/**
 * A request to the provider's batch endpoint, written before it is first sent (docs/decisions/021):
 * the jobs it carries (JSON, the order of the request) and its Idempotency-Key, so that a retry
 * after an unanswered request, even after a restart, resends exactly the same batch under the same
 * key. The consumer holds it while sending (lease_until); the watchdog puts a batch whose lease ran
 * out and whose retry is due back on the queue. Deleted once every e-mail in it is settled.
 */
export const mailBatches = sqliteTable(
  "mail_batches",
  {
    key: text("key").primaryKey(),
    jobs: text("jobs").notNull(),
    // Attempts that failed without a definite answer (timeout, reset, 5xx).
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    leaseUntil: integer("lease_until").notNull().default(0),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [index("mail_batches_due_idx").on(t.nextAttemptAt)],
);

/**
 * How many of an owner's deliveries have each status, kept by triggers on deliveries (migration
 * 0008), archived ones included (the archive adds them back as it deletes them, migration 0021):
 * the report's totals for all time and every debtor, read in one short statement however many
 * deliveries the account holds. A filtered report counts the deliveries it covers.
 */
export const deliveryStatusCounts = sqliteTable(
  "delivery_status_counts",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", {
      enum: ["sending", "sent", "failed", "bounced", "complained", "deferred", "skipped"],
    }).notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.status] })],
);

/**
 * The text messages among delivery_status_counts, per owner and status (decisions/070), kept by
 * triggers on deliveries whose channel is 'text' (a hand-written migration, as 0008's): the report
 * counts texts apart from e-mails (e-mails: the totals less these) in one short read.
 */
export const textStatusCounts = sqliteTable(
  "text_status_counts",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", {
      enum: ["sending", "sent", "failed", "bounced", "complained", "deferred", "skipped"],
    }).notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.status] })],
);

/**
 * Local development and tests only: the objects of the local Stripe stand-in (app/http/stripe-pages/,
 * decisions/017): accounts, Checkout Sessions, customers, subscriptions, as Stripe's JSON.
 */
export const devStripeObjects = sqliteTable(
  "dev_stripe_objects",
  {
    id: text("id").primaryKey(),
    // Stripe's object name: 'account', 'checkout.session', 'customer', 'subscription'…
    object: text("object").notNull(),
    // The connected account the object belongs to (the Stripe-Account header); null: the platform's.
    account: text("account"),
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [index("dev_stripe_objects_object_idx").on(t.object, t.createdAt)],
);

/** Local development and tests only: what the mail Worker would have sent. */
export const devOutbox = sqliteTable(
  "dev_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // The occurrence key of a reminder: the outbox honours it like Resend's Idempotency-Key.
    idempotencyKey: text("idempotency_key"),
    to: text("to").notNull(),
    from: text("from").notNull(),
    replyTo: text("reply_to"),
    // The copies (a reminder's CC'd contacts), comma-separated; null: none.
    cc: text("cc"),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [uniqueIndex("dev_outbox_idempotency_key_idx").on(t.idempotencyKey)],
);

/**
 * What happened with a debtor besides e-mails and payments (their own tables), for the timeline:
 * the types of DebtorEventType (app/activity/debtor-events.server.ts), from opt-outs, bounces and
 * "I've paid" (0006) to promises to pay and disputes (0010).
 */
export const debtorEvents = sqliteTable(
  "debtor_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    // A short, already human-readable detail ("Weekly, Friendly Reminder"), or "".
    detail: text("detail").notNull().default(""),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [
    index("debtor_events_debtor_idx").on(t.debtorId, t.createdAt),
    // An account's events in id order (0022): its export's keyset pages and its deletion's slices.
    index("debtor_events_owner_idx").on(t.ownerId, t.id),
  ],
);

/**
 * A debtor's e-mail reply to a reminder (docs/decisions/020-inbound-replies.md), received by the
 * Worker's email() handler for a valid reply address: who sent it, its subject and date, its text
 * (at most 64 KB; never HTML), its attachments' names and sizes (JSON, never their content).
 * `auto`: an out-of-office or other automatic mail (timeline only, never holds). `handled_at`: the
 * user resumed, recorded a payment or marked it handled; an unhandled reply holds the reminders.
 */
export const debtorReplies = sqliteTable(
  "debtor_replies",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    fromAddress: text("from_address").notNull(),
    subject: text("subject").notNull().default(""),
    sentAt: integer("sent_at"),
    text: text("text").notNull().default(""),
    attachments: text("attachments").notNull().default("[]"),
    auto: integer("auto", { mode: "boolean" }).notNull().default(false),
    handledAt: integer("handled_at"),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [
    // A debtor's timeline and the 20-per-day cap.
    index("debtor_replies_debtor_idx").on(t.debtorId, t.createdAt),
    // The dashboard's unhandled replies of an owner, newest first.
    index("debtor_replies_owner_idx").on(t.ownerId, t.handledAt, t.createdAt),
  ],
);

/**
 * An e-mail to the user about one debtor event (* 0014): written in the event's own batch, sent after it (the watchdog sends what was left
 * 'pending'). event_key (`<kind>:<debtor_events.id>`) is unique and the provider's
 * Idempotency-Key, so one event is told once.
 */
export const userNotifications = sqliteTable(
  "user_notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // 'paid_claimed', 'promised', 'disputed', 'opted_out', 'bounced', 'complained' (NoticeKind).
    kind: text("kind").notNull(),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    // The debtor_events row told about (its type and detail say what happened).
    eventId: integer("event_id").notNull(),
    eventKey: text("event_key").notNull(),
    // 'pending'', 'sent', 'failed'.
    status: text("status").notNull().default("pending"),
    createdAt: integer("created_at").notNull().default(nowMs),
    sentAt: integer("sent_at"),
    // Why the last attempt failed (0027): kept while a retryable one stays 'pending', and on
    // 'failed'; null once it is sent.
    error: text("error"),
  },
  (t) => [
    uniqueIndex("user_notifications_event_key_idx").on(t.eventKey),
    // The watchdog's pending ones; a request's owner's own; a debtor's delete (the cascade).
    index("user_notifications_pending_idx").on(t.status, t.createdAt),
    index("user_notifications_owner_idx").on(t.ownerId, t.status),
    // The user's list of e-mails (Settings → E-mails), newest first (0028).
    index("user_notifications_owner_created_idx").on(t.ownerId, t.createdAt, t.id),
    index("user_notifications_debtor_idx").on(t.debtorId),
  ],
);

/**
 * Every e-mail other than a reminder or a notice (0028): the debtor's receipt, the copy of a
 * debtor's reply, Dunly's e-mails about the user's plan, the password-changed notice. Recorded
 * before the first attempt, so one that could not be sent is retried by the watchdog (bounded) and
 * shown to the user, never lost. `payload` is the message as the mail client takes it, so a retry
 * sends the same e-mail under the same `idem_key` (the provider's Idempotency-Key).
 */
export const emails = sqliteTable(
  "emails",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // No CHECK: a new kind needs no migration (app/mail/recorded.server.ts RecordedEmail).
    kind: text("kind", {
      enum: ["receipt", "claim-answer", "plan-letter", "reply-copy", "account-notice", "password-changed", "digest"],
    }).notNull(),
    // The debtor it is about (receipts, reply copies); no foreign key: the record outlives a deleted debtor.
    debtorId: integer("debtor_id"),
    recipient: text("recipient").notNull(),
    idemKey: text("idem_key").notNull(),
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    // When the watchdog may try a 'pending' one (again); also a lease while an attempt is under way.
    nextAttemptAt: integer("next_attempt_at"),
    createdAt: integer("created_at").notNull().default(nowMs),
    sentAt: integer("sent_at"),
  },
  (t) => [
    uniqueIndex("emails_idem_key_idx").on(t.idemKey),
    // The user's list, newest first.
    index("emails_owner_idx").on(t.ownerId, t.createdAt, t.id),
    // The watchdog's due retries.
    index("emails_retry_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    check("emails_status_check", sql`${t.status} IN ('pending', 'sent', 'failed')`),
  ],
);

/**
 * The user's own Stripe account, connected through Stripe's hosted onboarding (decisions/018,
 * decisions/018; 0018): one per user. Debtors pay into it by Checkout
 * (direct charges). Disconnecting keeps the row (disconnected_at) and the history it explains.
 */
export const stripeAccounts = sqliteTable(
  "stripe_accounts",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    // Stripe's account.updated says these; Pay uses the account only while charges are enabled.
    chargesEnabled: integer("charges_enabled", { mode: "boolean" }).notNull().default(false),
    detailsSubmitted: integer("details_submitted", { mode: "boolean" }).notNull().default(false),
    livemode: integer("livemode", { mode: "boolean" }).notNull().default(false),
    connectedAt: integer("connected_at").notNull(),
    disconnectedAt: integer("disconnected_at"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("stripe_accounts_account_idx").on(t.accountId)],
);

/**
 * A debtor's payment online (decisions/018; 0018): one Checkout Session created by the server on the
 * user's connected account, for what the ledger said was owed (one invoice, or every open invoice
 * in one currency). The webhook maps a session back to its debtor through this row, never through
 * metadata alone. status: 'open' (created), 'pending' (a bank payment is being processed: the
 * debtor's schedules are held), 'paid', 'failed', 'expired'. received_cents: what the ledger
 * recorded; refunded_cents (Stripe's cumulative amount_refunded) and dispute_lost_cents: what went
 * back since, taken off the recorded payment.
 */
export const onlinePayments = sqliteTable(
  "online_payments",
  {
    sessionId: text("session_id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    // The invoice paid; null: the open invoices in `currency`, oldest due first.
    invoiceId: integer("invoice_id").references(() => invoices.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    status: text("status", { enum: ["open", "pending", "paid", "failed", "expired"] })
      .notNull()
      .default("open"),
    paymentIntentId: text("payment_intent_id"),
    receivedCents: integer("received_cents").notNull().default(0),
    refundedCents: integer("refunded_cents").notNull().default(0),
    disputeLostCents: integer("dispute_lost_cents").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("online_payments_debtor_idx").on(t.debtorId, t.status),
    // The dashboard's "paid online" lines: an account's recent payments online.
    index("online_payments_owner_idx").on(t.ownerId, t.status, t.updatedAt),
    index("online_payments_intent_idx").on(t.paymentIntentId),
    // The sweep of abandoned checkouts (0025): sessions still open, oldest first.
    index("online_payments_open_idx").on(t.createdAt).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * Bank-transfer details (docs/decisions/051): one account per currency of the owner, shown on
 * every reminder and on the portal of a debtor in that currency. An IBAN (with an optional BIC), or an
 * account number with its UK sort code or US routing number; the payment reference is a template
 * whose "{invoice}" becomes the invoices' numbers.
 */
export const bankAccounts = sqliteTable(
  "bank_accounts",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    holder: text("holder").notNull(),
    // Electronic format, upper case, no spaces ("DE89370400440532013000").
    iban: text("iban"),
    bic: text("bic"),
    accountNumber: text("account_number"),
    // Six digits, without dashes.
    sortCode: text("sort_code"),
    // Nine digits.
    routingNumber: text("routing_number"),
    reference: text("reference").notNull().default("{invoice}"),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.currency] })],
);

/**
 * A reminder's text in the user's own words (0039, decisions/056): the subject and body of one step
 * (template and tone) in one language, as typed (app/domain/template-body.ts checks it on save and
 * on send). None for a step and language: Dunly's own text in that language.
 */
export const messageTemplates = sqliteTable(
  "message_templates",
  {
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    template: text("template").notNull(),
    tone: integer("tone").notNull(),
    language: text("language").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.template, t.tone, t.language] })],
);
export type MessageTemplate = typeof messageTemplates.$inferSelect;

/**
 * The account's own sending domain (docs/decisions/059-sending-domains.md), one per account: the
 * domain as Resend knows it (its id), the name before the @, where verification stands and the DNS
 * records Resend asks for (JSON, Resend's list as last read). Reminders, receipts and claim answers
 * go from `local_part@name` only while status is 'verified'; otherwise from Dunly's address.
 */
export const sendingDomains = sqliteTable(
  "sending_domains",
  {
    ownerId: text("owner_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    // Lower case, an internationalized name in its ASCII (punycode) form.
    name: text("name").notNull(),
    localPart: text("local_part").notNull(),
    // Resend's id of the domain.
    providerId: text("provider_id").notNull(),
    // app/domain/sending-domain.ts SENDING_DOMAIN_STATUSES.
    status: text("status").notNull().default("not_started"),
    // Resend's own word for it, as last read ("partially_verified"…).
    providerStatus: text("provider_status").notNull().default("not_started"),
    records: text("records").notNull().default("[]"),
    createdAt: integer("created_at").notNull().default(nowMs),
    // The last time Resend was asked (the tab's "last checked"); the watchdog checks the oldest first.
    checkedAt: integer("checked_at"),
    verifiedAt: integer("verified_at"),
  },
  // A domain belongs to one account: a second one is refused.
  (t) => [
    uniqueIndex("sending_domains_name_idx").on(t.name),
    index("sending_domains_checked_idx").on(t.status, t.checkedAt),
  ],
);

/** Local development and tests only: the domains the local stand-in of Resend's Domains API holds. */
export const devResendDomains = sqliteTable("dev_resend_domains", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  status: text("status").notNull().default("not_started"),
  records: text("records").notNull(),
  createdAt: integer("created_at").notNull().default(nowMs),
});

/**
 * The account's accounting tool (decisions/060): one organisation (a Xero tenant, later a QuickBooks
 * realm) per account, one provider at a time. The tokens are AES-GCM ciphertexts under
 * ACCOUNTING_TOKEN_KEY (app/accounting/tokens.server.ts): the database never holds a plaintext
 * token. status: 'connected', or 'reconnect' when the tool refused the refresh token (nothing is
 * synced until the user connects again). sync_cursor: the tool's own modified-since mark of the
 * last complete sync; imported_at: when the user confirmed the first import (null: only a preview).
 */
export const accountingConnections = sqliteTable(
  "accounting_connections",
  {
    ownerId: text("owner_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["xero", "quickbooks"] }).notNull(),
    tenantId: text("tenant_id"),
    tenantName: text("tenant_name"),
    // Xero's connection id (DELETE /connections/{id} on disconnect).
    connectionId: text("connection_id"),
    accessToken: text("access_token").notNull(),
    refreshToken: text("refresh_token").notNull(),
    accessExpiresAt: integer("access_expires_at").notNull(),
    // A refresh under way holds the refresh token until then: a second one waits for its tokens.
    refreshLockUntil: integer("refresh_lock_until"),
    status: text("status", { enum: ["connected", "reconnect"] })
      .notNull()
      .default("connected"),
    importedAt: integer("imported_at"),
    syncCursor: text("sync_cursor"),
    // A sync under way holds the connection until then (two syncs never interleave).
    syncLeaseUntil: integer("sync_lease_until"),
    lastSyncAt: integer("last_sync_at"),
    lastError: text("last_error"),
    lastErrorAt: integer("last_error_at"),
    syncedPayments: integer("synced_payments").notNull().default(0),
    // The first import under way (decisions/060): the next page of open invoices its next step reads
    // (null: none running), and the open invoices it left out so far (their customer has no address).
    importPage: integer("import_page"),
    importSkipped: integer("import_skipped").notNull().default(0),
    // When the user was e-mailed to connect again (status 'reconnect'): once per lost connection.
    reconnectToldAt: integer("reconnect_told_at"),
    // "Record Dunly's payments in Xero" (decisions/063): the bank account (the tool's id and the name
    // shown) a payment recorded in Dunly is written back to. Null: off (the default).
    writebackAccountId: text("writeback_account_id"),
    writebackAccountName: text("writeback_account_name"),
    connectedAt: integer("connected_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  // A webhook names the organisation (a Xero tenant, a QuickBooks realm): its accounts found by index (decisions/061, 062).
  (t) => [index("accounting_connections_tenant_idx").on(t.provider, t.tenantId)],
);

/**
 * The outbox of payments written back to the accounting tool (decisions/063): one row per payment
 * and synced invoice it paid, written in the payment's own batch while the setting is on (never for
 * a payment that came from the tool). The amount, currency and bank account are those of that
 * moment, so every attempt sends the same payment under the same Idempotency-Key. status:
 * 'pending' (next_attempt_at: when the sender tries, last_error: why the last attempt failed),
 * 'sent' (external_payment_id: the tool's payment), 'failed' (given up: the tab shows it in words,
 * "Try again" makes it pending).
 */
export const accountingWritebacks = sqliteTable(
  "accounting_writebacks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["xero", "quickbooks"] }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    // The bank account in the tool, as chosen when the payment was recorded.
    accountId: text("account_id").notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    // Definite refusals so far (the tool answered and made nothing): part of the Idempotency-Key,
    // since the tool may keep a refusal under its key. Any other failure retries under the same key.
    refusals: integer("refusals").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at"),
    externalPaymentId: text("external_payment_id"),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // One Dunly payment on one invoice is written once.
    uniqueIndex("accounting_writebacks_payment_idx").on(t.paymentId, t.invoiceId),
    index("accounting_writebacks_owner_idx").on(t.ownerId, t.status, t.id),
    // The sender's queue: what is due, across accounts.
    index("accounting_writebacks_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

/** A connection to an accounting tool under way (decisions/060): the state's hash, its PKCE verifier, minutes long. */
export const accountingOauthStates = sqliteTable(
  "accounting_oauth_states",
  {
    hash: text("hash").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["xero", "quickbooks"] }).notNull(),
    codeVerifier: text("code_verifier").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("accounting_oauth_states_owner_idx").on(t.ownerId)],
);

/**
 * Local development and tests only: the Xero stand-in's objects (decisions/060), as Xero's own JSON:
 * kind 'tenant', 'contact', 'invoice', 'payment', and its identity's 'code', 'access' and 'refresh' grants.
 */
export const devXeroObjects = sqliteTable(
  "dev_xero_objects",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    tenantId: text("tenant_id"),
    data: text("data").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("dev_xero_objects_tenant_idx").on(t.tenantId, t.kind, t.updatedAt)],
);

/**
 * Local development and tests only: the QuickBooks Online stand-in's objects (decisions/061), as
 * Intuit's own JSON: kind 'company', 'customer', 'invoice', 'payment', and its identity's 'code',
 * 'access' and 'refresh' grants (under the SHA-256 of the token), plus 'fault' rows. `id` is the
 * stand-in's key (kind, realm and the object's Id: QuickBooks' Ids are per company).
 */
export const devQuickbooksObjects = sqliteTable(
  "dev_quickbooks_objects",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    realmId: text("realm_id"),
    data: text("data").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("dev_quickbooks_objects_realm_idx").on(t.realmId, t.kind, t.updatedAt)],
);

/**
 * Published reference rates (decisions/064): the central bank rate in force from `effective_on`
 * (YYYY-MM-DD) until the series' next row, in basis points (4.50% = 450). Not an account's: one
 * table for every account, seeded by a migration and kept by an operator (scripts/reference-rates.mjs).
 * series: 'ecb_mro' (ECB main refinancing operations), 'boe_base' (Bank of England Bank Rate),
 * 'de_basiszins' (Deutsche Bundesbank Basiszinssatz, §247 BGB).
 */
export const referenceRates = sqliteTable(
  "reference_rates",
  {
    series: text("series").notNull(),
    effectiveOn: text("effective_on").notNull(),
    rateBp: integer("rate_bp").notNull(),
    // Where the value was published (a URL or the publication's name).
    source: text("source").notNull(),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [primaryKey({ columns: [t.series, t.effectiveOn] })],
);

/**
 * The account's late-payment charges (decisions/065), off until the user turns them on. rule: a
 * statutory rule's id (app/domain/late-charges: 'gb', 'de', 'fr', …) or 'contract' (the user's own
 * terms: contract_kind 'fixed' (contract_fee_cents in contract_fee_currency, once), 'percent_once'
 * (contract_rate_bp of the invoice, once) or 'percent_monthly' (contract_rate_bp a month), each after
 * contract_grace_days and at most contract_cap_bp of the invoice). compensation: the statutory fixed
 * sum per invoice (the €40 or £40–£100) on top of statutory interest. payment_order: what a payment
 * settles first, the invoices' principal (the default) or their charges.
 */
export const lateChargeTerms = sqliteTable("late_charge_terms", {
  ownerId: text("owner_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(false),
  rule: text("rule").notNull(),
  compensation: integer("compensation", { mode: "boolean" }).notNull().default(true),
  contractKind: text("contract_kind", { enum: ["fixed", "percent_once", "percent_monthly"] }),
  contractFeeCents: integer("contract_fee_cents"),
  contractFeeCurrency: text("contract_fee_currency"),
  contractRateBp: integer("contract_rate_bp"),
  contractGraceDays: integer("contract_grace_days").notNull().default(0),
  contractCapBp: integer("contract_cap_bp"),
  paymentOrder: text("payment_order", { enum: ["principal_first", "charges_first"] })
    .notNull()
    .default("principal_first"),
  updatedAt: integer("updated_at").notNull().default(nowMs),
});

/**
 * A late-payment charge on an invoice (decisions/065): in the ledger beside the invoice, never in
 * its amount. One row per invoice and kind: 'interest' (statutory or contractual, accrued daily,
 * simple), 'compensation' (the statutory fixed sum) or 'fee' (the contract's fee). amount_cents is
 * what it has accrued through `accrued_through` (YYYY-MM-DD); basis is JSON saying how it was
 * computed (the rule, rates, days, principal), which every screen and e-mail explains in words.
 * paid_cents is the sum of its charge_allocations. A waived charge (waived_at, waived_by: the
 * user's e-mail, waived_cents: what was still owed then) owes nothing more and accrues no more.
 */
export const charges = sqliteTable(
  "charges",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["interest", "compensation", "fee"] }).notNull(),
    currency: text("currency").notNull(),
    amountCents: integer("amount_cents").notNull(),
    paidCents: integer("paid_cents").notNull().default(0),
    basis: text("basis").notNull(),
    accruedThrough: text("accrued_through").notNull(),
    waivedAt: integer("waived_at"),
    waivedBy: text("waived_by"),
    waivedCents: integer("waived_cents"),
    createdAt: integer("created_at").notNull().default(nowMs),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [
    uniqueIndex("charges_invoice_kind_idx").on(t.invoiceId, t.kind),
    index("charges_owner_debtor_idx").on(t.ownerId, t.debtorId, t.invoiceId),
    // The money figures: an account's charges by currency.
    index("charges_owner_currency_idx").on(t.ownerId, t.currency, t.amountCents, t.paidCents),
    check("charges_ledger", sql`amount_cents >= 0 AND paid_cents >= 0 AND paid_cents <= amount_cents`),
  ],
);

/** What a payment paid on each charge (decisions/065), as payment_allocations for invoices. */
export const chargeAllocations = sqliteTable(
  "charge_allocations",
  {
    paymentId: integer("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    chargeId: integer("charge_id")
      .notNull()
      .references(() => charges.id, { onDelete: "cascade" }),
    amountCents: integer("amount_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.paymentId, t.chargeId] }), index("charge_allocations_charge_idx").on(t.chargeId)],
);

/**
 * Days an invoice accrues no interest (decisions/065): while it is disputed (reason 'dispute',
 * closed when the dispute is resolved against the debtor; a dispute the debtor wins voids the
 * invoice) or under an active payment plan ('plan', plan_id; removed if the plan breaks, so its
 * days are charged after all). from_on inclusive, to_on exclusive (YYYY-MM-DD); null: still paused.
 */
export const chargePauses = sqliteTable(
  "charge_pauses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    reason: text("reason", { enum: ["dispute", "plan"] }).notNull(),
    planId: integer("plan_id"),
    fromOn: text("from_on").notNull(),
    toOn: text("to_on"),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [index("charge_pauses_invoice_idx").on(t.invoiceId, t.fromOn), index("charge_pauses_owner_idx").on(t.ownerId)],
);

/**
 * Payment plans (decisions/066): a debtor's unpaid principal in one currency paid in monthly
 * instalments (plan_instalments) over the invoices it covers (plan_invoices). Asked for by the
 * debtor ('requested') or offered by the user ('offered'); accepted it is 'active'; it ends
 * 'declined', 'cancelled' (withdrawn before an answer), 'completed' (the ledger covers every
 * instalment) or 'broken' (an instalment missed past its grace). At most one requested, offered
 * or active plan per debtor and currency (the unique partial index: two requests at once make one).
 * What is paid on it is never stored here: it is what payments allocated to its invoices on or after
 * `started_on` add up to, beyond `paid_at_start_cents` (what those invoices had paid when it was asked).
 */
export const paymentPlans = sqliteTable(
  "payment_plans",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id")
      .notNull()
      .references(() => debtors.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    status: text("status", {
      enum: ["requested", "offered", "active", "declined", "completed", "broken", "cancelled"],
    }).notNull(),
    // Who proposed the terms now on it: the debtor (a request) or the user (an offer, or an edit of a request).
    proposedBy: text("proposed_by", { enum: ["debtor", "user"] }).notNull(),
    totalCents: integer("total_cents").notNull(),
    // What the debtor asked: a count of instalments, or an amount per month (the other null).
    askedCount: integer("asked_count"),
    askedPerMonthCents: integer("asked_per_month_cents"),
    firstOn: text("first_on").notNull(),
    // After a missed instalment's date, the days before the plan may end, and whether it ends by itself.
    graceDays: integer("grace_days").notNull().default(7),
    autoBreak: integer("auto_break", { mode: "boolean" }).notNull().default(false),
    // What the covered invoices had paid when the plan was made: payments beyond it count on the plan.
    paidAtStartCents: integer("paid_at_start_cents").notNull().default(0),
    // The debtor's day it was accepted (YYYY-MM-DD): the charges pause from it.
    startedOn: text("started_on"),
    // The user's message with a decline, the reason it broke or was cancelled.
    message: text("message"),
    // The instalment whose miss the user was told of (the notice goes once per instalment).
    missedSeq: integer("missed_seq"),
    // Random, per write that makes or reshapes the plan: that write's later statements find the plan
    // by it (two requests in the same millisecond are told apart).
    writeKey: text("write_key"),
    decidedAt: integer("decided_at"),
    endedAt: integer("ended_at"),
    createdAt: integer("created_at").notNull().default(nowMs),
    updatedAt: integer("updated_at").notNull().default(nowMs),
  },
  (t) => [
    index("payment_plans_owner_idx").on(t.ownerId, t.debtorId, t.id),
    uniqueIndex("payment_plans_live_idx")
      .on(t.ownerId, t.debtorId, t.currency)
      .where(sql`status IN ('requested', 'offered', 'active')`),
    // The dashboard's answers: an account's plans waiting for the user.
    index("payment_plans_owner_status_idx").on(t.ownerId, t.status, t.updatedAt),
    // The watchdog's active plans.
    index("payment_plans_active_idx").on(t.status).where(sql`status = 'active'`),
    check("payment_plans_total", sql`total_cents > 0 AND grace_days >= 0`),
  ],
);

/** A plan's instalments (decisions/066): its dates and amounts, 1..n, summing to its total. */
export const planInstalments = sqliteTable(
  "plan_instalments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: integer("plan_id")
      .notNull()
      .references(() => paymentPlans.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    dueOn: text("due_on").notNull(),
    amountCents: integer("amount_cents").notNull(),
  },
  (t) => [
    uniqueIndex("plan_instalments_plan_idx").on(t.planId, t.seq),
    index("plan_instalments_owner_idx").on(t.ownerId, t.id),
    check("plan_instalments_amount", sql`amount_cents > 0`),
  ],
);

/** The invoices a plan covers (decisions/066): while it is active, reminders leave them out. */
export const planInvoices = sqliteTable(
  "plan_invoices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: integer("plan_id")
      .notNull()
      .references(() => paymentPlans.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
  },
  (t) => [
    uniqueIndex("plan_invoices_plan_idx").on(t.planId, t.invoiceId),
    index("plan_invoices_invoice_idx").on(t.invoiceId, t.planId),
    index("plan_invoices_owner_idx").on(t.ownerId, t.id),
  ],
);

/**
 * Every text message Dunly asked Twilio (or, in development and test, the dev outbox) to send
 * (decisions/068), written before the request under the caller's idempotency key, so the same
 * occurrence is never texted twice: a key with a `sid` was accepted; one whose request's answer never
 * came waits for Twilio's callback. Twilio's status callbacks update `status`; an inbound text is
 * matched to its owner and debtor through the latest text sent to that number.
 */
export const textMessages = sqliteTable(
  "text_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    debtorId: integer("debtor_id").references(() => debtors.id, { onDelete: "set null" }),
    // The reminder's delivery row, when the text is a reminder's (the engine sets it).
    deliveryId: integer("delivery_id"),
    idempotencyKey: text("idempotency_key").notNull(),
    // E.164.
    to: text("to").notNull(),
    body: text("body").notNull(),
    // Twilio's Message SID once accepted (SM…; the dev outbox's own SMdev…).
    sid: text("sid"),
    // 'twilio' or 'standin' (the dev outbox).
    provider: text("provider").notNull(),
    // 'pending' (asked, no answer yet), 'refused' (Twilio said no), then Twilio's own statuses:
    // accepted, queued, sending, sent, delivered, undelivered, failed.
    status: text("status").notNull(),
    errorCode: text("error_code"),
    error: text("error"),
    attemptedAt: integer("attempted_at").notNull(),
    attempts: integer("attempts").notNull().default(1),
    statusAt: integer("status_at"),
    createdAt: integer("created_at").notNull().default(nowMs),
  },
  (t) => [
    uniqueIndex("text_messages_key_idx").on(t.idempotencyKey),
    uniqueIndex("text_messages_sid_idx").on(t.sid),
    index("text_messages_owner_idx").on(t.ownerId, t.createdAt),
    // An inbound text's number finds the accounts that texted it.
    index("text_messages_to_idx").on(t.to, t.createdAt),
  ],
);
