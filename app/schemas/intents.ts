/**
 * Every intent a form posts: the components that post them, the actions
 * that dispatch on them and the tests import them from here, so each name is written once. Client
 * safe: no server code.
 */

/** Debtors: add, edit, delete (the owned-record intents), and what the debtor pages do besides. */
export const DEBTOR_INTENTS = {
  add: "debtor-add",
  edit: "debtor-edit",
  remove: "debtor-delete",
  /** "Record renewed consent" after an opt-out. */
  consent: "debtor-consent",
  /** "Resume reminders" Dunly stopped when the debt was paid. */
  resume: "debtor-resume",
  /** "Re-send reminders" to the selected debtors (one-time schedules, the schedules' action). */
  resend: "debtor-resend",
  /** The debtors list's bulk actions on the selected debtors' reminders. */
  followCadence: "debtors-follow-cadence",
  pauseReminders: "debtors-pause",
  resumeReminders: "debtors-resume",
  /**
   * "Add this invoice to <name>": the add-debtor form, answered that the e-mail is already one of
   * the user's debtors, adds its debt as an invoice of that debtor instead.
   */
  addInvoice: "debtor-add-invoice",
} as const;

/** The field "Add as a new debtor anyway" sets (to "true") on the add-debtor form. */
export const ALLOW_DUPLICATE_FIELD = "allow_duplicate";

/** The `confirm` value "Record renewed consent" must carry: the user confirmed the debtor agreed again. */
export const CONSENT_CONFIRMATION = "renewed-consent";

export const ORGANIZATION_INTENTS = { add: "org-add", edit: "org-edit", remove: "org-delete" } as const;

export const PAYMENT_INTENTS = { add: "payment-add", edit: "payment-edit", remove: "payment-delete" } as const;

/** A debtor's invoices, in the debtor modal and on the debtor page. */
/** A debtor's other contacts, on the debtor's page (decisions/057). */
export const CONTACT_INTENTS = {
  add: "contact-add",
  edit: "contact-edit",
  remove: "contact-delete",
} as const;

export const INVOICE_INTENTS = {
  add: "invoice-add",
  edit: "invoice-edit",
  void: "invoice-void",
  chase: "invoice-chase",
} as const;

/** The dashboard's answers to a debtor's "I've paid". */
export const INVOICE_DOCUMENT_INTENTS = {
  attach: "invoice-document-attach",
  remove: "invoice-document-remove",
} as const;

export const PAID_CLAIM_INTENTS = { confirm: "paid-claim-confirm", resume: "paid-claim-resume" } as const;

export const SCHEDULE_INTENTS = {
  create: "schedule-create",
  update: "schedule-update",
  remove: "schedule-delete",
  sendNow: "schedule-send-now",
  pause: "schedule-pause",
  resume: "schedule-resume",
  testSend: "schedule-test-send",
} as const;

/** Settings → Info: the signed-in user's own profile. */
export const PROFILE_INTENTS = {
  name: "profile-name",
  photo: "profile-photo",
  password: "set-password",
  paymentLink: "payment-link",
  contactRules: "contact-rules",
  defaultCurrency: "default-currency",
  notices: "notices",
  /** Settings → Delete account. */
  deleteAccount: "account-delete",
} as const;

/** Settings → Cadence: the account's cadence, and autopilot on or off. */
export const CADENCE_INTENTS = {
  save: "cadence-save",
  autopilotOn: "autopilot-on",
  autopilotOff: "autopilot-off",
} as const;

export const IMPORT_INTENTS = { preview: "import-preview", confirm: "import-confirm" } as const;

/** The intent names of one group, as a type: `IntentOf<typeof SCHEDULE_INTENTS>`. */
export type IntentOf<T extends Record<string, string>> = T[keyof T];

// The debtor's page and the user's answers to it.

/** What the debtor's page (/d/…) posts. */
export const PORTAL_INTENTS = {
  // Pay online (decisions/018): a Checkout Session for what the ledger says is owed.
  pay: "portal-pay",
  paid: "portal-paid",
  promise: "portal-promise",
  dispute: "portal-dispute",
  optOut: "portal-opt-out",
  // Payment plans (decisions/066): ask for one, answer the user's offer, pay the next instalment.
  planRequest: "portal-plan-request",
  planAccept: "portal-plan-accept",
  planDecline: "portal-plan-decline",
  planPay: "portal-plan-pay",
} as const;

/** The user's payment-plan actions on the debtor pages (decisions/066). */
export const PLAN_INTENTS = {
  offer: "plan-offer",
  accept: "plan-accept",
  edit: "plan-edit",
  decline: "plan-decline",
  cancel: "plan-cancel",
  end: "plan-end",
} as const;

/** The user's answers to a debtor's page, on the debtor pages' action (the timeline, the dashboard). */
export const DEBTOR_RESPONSE_INTENTS = {
  /** "Resolve dispute": the disputed invoice is open again (or paid), held reminders resume. */
  resolveDispute: "dispute-resolve",
  /** "Allow a new promise" after a broken one. */
  allowPromise: "promise-consent",
  /** A debtor's e-mail reply (decisions/020): "Resume" reminders, or "Mark handled". */
  replyResume: "reply-resume",
  replyHandled: "reply-handled",
} as const;

/** A late-payment charge on the debtor's page (decisions/065): waive it, or restore a waived one. */
export const CHARGE_INTENTS = {
  waive: "charge-waive",
  restore: "charge-restore",
} as const;

/** Settings → Text messages (decisions/069, 070): the channel and countries, and the text's words. */
export const TEXT_INTENTS = {
  save: "texts-save",
  saveTemplate: "text-template-save",
  /** "Restore the default words": the template goes back to DEFAULT_TEXT_TEMPLATE. */
  defaultTemplate: "text-template-default",
  /** Without JavaScript, "Show the preview" checks the words as typed and saves nothing. */
  previewTemplate: "text-template-preview",
} as const;
