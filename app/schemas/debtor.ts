import * as v from "valibot";
import { canonicalTimeZone } from "~/domain/intl";
import { LANGUAGES, readLanguage } from "~/domain/languages";
import { mobileShape, PHONE_INPUT_MAX, PHONE_MESSAGES } from "~/domain/phone";
import { isValidTimeZone } from "~/domain/schedule-time";
import { DEFAULT_STRATEGY, TONES } from "~/domain/strategies";
import { MAX_TIME_ZONE_LENGTH } from "~/domain/time-zone";
import { CONTACT_NAME_MAX, CONTACT_ROLE_MAX } from "./contact";
import {
  amountChecks,
  CURRENCY_MESSAGE,
  CurrencyField,
  DUE_BEFORE_ISSUE_MESSAGE,
  InvoiceDueOnField,
  InvoiceJsonDueOnField,
  InvoiceNumberField,
  InvoiceNumberJsonField,
  jsonNumber,
  typedAmount,
} from "./invoice";
import { missingFieldMessage } from "./missing";

const DEBTOR_NAME_MESSAGE = "Please enter the full name of the debtor";
const DEBTOR_EMAIL_MESSAGE = "Please enter a valid email";
const DEBT_MESSAGE = "Please enter a number greater than 0";
const STRATEGY_MESSAGE = "Please choose a strategy";
export const TIME_ZONE_MESSAGE = "Please choose a valid time zone";
export const LANGUAGE_MESSAGE = `Please choose one of the languages ${LANGUAGES.join(", ")}`;

/**
 * The language Dunly writes to the debtor in (app/domain/languages.ts): a code or a name ("de",
 * "German", "Deutsch"). The form's "Same as mine" is blank: null, the user's language. In the JSON
 * API, null is the user's and absent keeps the debtor's (a new one: the user's); in a form, absent
 * is blank (the select always sends one).
 */
const LanguageText = v.pipe(
  v.string(LANGUAGE_MESSAGE),
  v.trim(),
  v.check((text) => text === "" || readLanguage(text) !== null, LANGUAGE_MESSAGE),
  v.transform((text) => readLanguage(text)),
);
const LanguageFormField = v.pipe(
  v.optional(LanguageText),
  v.transform((language) => language ?? null),
);
const LanguageJsonField = v.optional(v.nullable(LanguageText));

/** A zone's canonical spelling ("europe/berlin" → "Europe/Berlin"), as Intl resolves it. */
function canonicalZone(tz: string) {
  return canonicalTimeZone(tz);
}

/**
 * The debtor's IANA zone (their quiet hours). Optional: blank or absent means the user's own zone
 * for a new debtor and the debtor's current zone for an edit; an unknown zone is a field error.
 */
const TimeZoneField = v.optional(
  v.pipe(
    v.string(TIME_ZONE_MESSAGE),
    v.trim(),
    v.check((tz) => tz === "" || (tz.length <= MAX_TIME_ZONE_LENGTH && isValidTimeZone(tz)), TIME_ZONE_MESSAGE),
    v.transform((tz) => (tz === "" ? undefined : canonicalZone(tz))),
  ),
);
const MISSING = missingFieldMessage({
  full_name: DEBTOR_NAME_MESSAGE,
  email: DEBTOR_EMAIL_MESSAGE,
  debt: DEBT_MESSAGE,
});

/** The debtor's fields but the debt: the same in the form and the JSON API. */
const DEBTOR_FIELDS = {
  kind: v.optional(v.picklist(["person", "company"]), "person"),
  // Late-payment charges for this debtor (decisions/065): the account's setting, always, or never.
  // Absent: a new debtor follows the account, an edit keeps theirs.
  late_charges: v.optional(v.picklist(["account", "on", "off"], "Please choose how late charges apply")),
  full_name: v.pipe(
    v.string(DEBTOR_NAME_MESSAGE),
    v.trim(),
    v.nonEmpty(DEBTOR_NAME_MESSAGE),
    v.maxLength(200, "Please use at most 200 characters"),
  ),
  email: v.pipe(
    v.string(DEBTOR_EMAIL_MESSAGE),
    v.trim(),
    v.email(DEBTOR_EMAIL_MESSAGE),
    v.maxLength(254, DEBTOR_EMAIL_MESSAGE),
  ),
  active_strategy: v.optional(v.pipe(v.number(), v.integer(), v.picklist(TONES, STRATEGY_MESSAGE)), DEFAULT_STRATEGY),
  time_zone: TimeZoneField,
  language: LanguageFormField,
  // The first invoice's (a new debtor's debt is their first invoice), or the only one's (an edit).
  invoice_number: InvoiceNumberField,
  currency: CurrencyField,
  due_on: InvoiceDueOnField,
  // The first invoice's issue date; absent: today (or the due date, when that has passed).
  issued_on: InvoiceDueOnField,
};

const CONTACT_TEXT_MESSAGE = (max: number) => `Please use at most ${max} characters`;
/**
 * The primary contact's name and role (decisions/057) as the form sends them: blank clears (the
 * greeting then names the debtor). Conform drops a blank field before the schema runs: the form's
 * schema turns what is absent into null after its checks (debtorSchema).
 */
const formContactText = (max: number) =>
  v.optional(v.pipe(v.string(CONTACT_TEXT_MESSAGE(max)), v.trim(), v.maxLength(max, CONTACT_TEXT_MESSAGE(max))));
/** As JSON: absent keeps what the debtor has (undefined), null or blank clears. */
const jsonContactText = (max: number) =>
  v.pipe(
    v.optional(v.nullable(v.string(CONTACT_TEXT_MESSAGE(max)))),
    v.transform((s) => (s === undefined ? undefined : (s?.trim() ?? ""))),
    v.check((s) => s === undefined || s.length <= max, CONTACT_TEXT_MESSAGE(max)),
    v.transform((s) => (s === undefined ? undefined : s === "" ? null : s)),
  );

/**
 * The debtor's mobile number (decisions/069) as typed, with its country code, made compact
 * ("+447400123456"). Whether it is a mobile of its country (not a landline, valid there) is checked
 * on the server with libphonenumber's metadata (app/debtors: `parseMobile`), which answers the same
 * field error: the schema stays light for the pages' JavaScript.
 */
const MobileText = v.pipe(
  v.string(PHONE_MESSAGES.invalid),
  v.trim(),
  v.maxLength(PHONE_INPUT_MAX, PHONE_MESSAGES.tooLong),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    if (dataset.value === "") return null;
    const parsed = mobileShape(dataset.value);
    if (parsed.ok) return parsed.compact;
    addIssue({ message: parsed.message });
    return NEVER;
  }),
);
export const CONSENT_NEEDS_PHONE_MESSAGE = "Add the debtor's mobile number to record that you may text them";
/** The form's mobile: blank (dropped by Conform) is none (null, after the form schema's checks). */
const PhoneFormField = v.optional(MobileText);
/** As JSON: absent keeps the debtor's, null or blank removes it. */
const PhoneJsonField = v.pipe(
  v.optional(v.nullable(MobileText)),
  v.transform((phone) => phone),
);
/** The form's consent checkbox: "on" when ticked, absent when not (false, after the checks). */
const ConsentFormField = v.optional(v.literal("on", "Please tick the box or leave it empty"));
/** As JSON: a boolean; absent keeps what the debtor has (and a new number clears it). */
const ConsentJsonField = v.optional(v.boolean("Please send true or false"));

const debtChecks = amountChecks(DEBT_MESSAGE, v.minValue(1, DEBT_MESSAGE));

/** The debtor form (browser and action): the debt as typed, in the user's number format (`locale`). */
export const debtorSchema = (locale: string) =>
  v.pipe(
    v.object(
      {
        ...DEBTOR_FIELDS,
        debt: typedAmount(locale, DEBT_MESSAGE, v.minValue(1, DEBT_MESSAGE)),
        contact_name: formContactText(CONTACT_NAME_MAX),
        contact_role: formContactText(CONTACT_ROLE_MAX),
        phone: PhoneFormField,
        text_consent: ConsentFormField,
      },
      MISSING,
    ),
    // Consent is to text a number: none without one.
    v.forward(
      v.partialCheck(
        [["phone"], ["text_consent"]],
        (d) => d.text_consent !== "on" || Boolean(d.phone),
        CONSENT_NEEDS_PHONE_MESSAGE,
      ),
      ["text_consent"],
    ),
    // An invoice is never due before it is issued (the invoice form's rule).
    v.forward(
      v.partialCheck(
        [["issued_on"], ["due_on"]],
        (d) => !d.issued_on || !d.due_on || d.due_on >= d.issued_on,
        DUE_BEFORE_ISSUE_MESSAGE,
      ),
      ["due_on"],
    ),
    v.transform(({ contact_name, contact_role, phone, text_consent, ...rest }) => ({
      ...rest,
      contact_name: contact_name ? contact_name : null,
      contact_role: contact_role ? contact_role : null,
      phone: phone ?? null,
      text_consent: text_consent === "on",
    })),
  );
export type DebtorInput = Omit<
  v.InferOutput<ReturnType<typeof debtorSchema>>,
  "contact_name" | "contact_role" | "phone" | "text_consent"
> & {
  /** Undefined (JSON only): kept; null: none. */
  contact_name?: string | null;
  contact_role?: string | null;
  /** The mobile in E.164. Undefined (JSON only): kept; null: none. */
  phone?: string | null;
  /** The user confirms they may text the debtor. Undefined (JSON only): kept unless the number changes. */
  text_consent?: boolean;
};

/** The same fields as JSON: numbers may arrive as numeric strings from simple clients. */
export const DebtorJsonSchema = v.pipe(
  v.object(
    {
      ...DEBTOR_FIELDS,
      debt: v.pipe(jsonNumber(DEBT_MESSAGE), debtChecks),
      contact_name: jsonContactText(CONTACT_NAME_MAX),
      contact_role: jsonContactText(CONTACT_ROLE_MAX),
      active_strategy: v.optional(
        v.pipe(
          v.union([v.number(), v.pipe(v.string(), v.transform(Number))]),
          v.integer(STRATEGY_MESSAGE),
          v.picklist(TONES, STRATEGY_MESSAGE),
        ),
        DEFAULT_STRATEGY,
      ),
      // null: the user's language; absent: the debtor's (edit), the user's (new).
      language: LanguageJsonField,
      // null, like absent: the user's zone (new) or the debtor's (edit).
      time_zone: v.pipe(
        v.optional(v.nullable(v.string(TIME_ZONE_MESSAGE))),
        v.transform((tz) => tz ?? undefined),
        TimeZoneField,
      ),
      // null, like absent: no invoice number; the account's currency (new) or the debtor's (edit).
      invoice_number: InvoiceNumberJsonField,
      due_on: InvoiceJsonDueOnField,
      issued_on: InvoiceJsonDueOnField,
      currency: v.pipe(
        v.optional(v.nullable(v.string(CURRENCY_MESSAGE))),
        v.transform((s) => s ?? undefined),
        CurrencyField,
      ),
      phone: PhoneJsonField,
      text_consent: ConsentJsonField,
    },
    MISSING,
  ),
  v.forward(
    v.partialCheck(
      [["phone"], ["text_consent"]],
      (d) => !(d.text_consent === true && d.phone === null),
      CONSENT_NEEDS_PHONE_MESSAGE,
    ),
    ["text_consent"],
  ),
);

export { CURRENCIES, CURRENCY_MESSAGE, type Currency, INVOICE_NUMBER_MAX } from "./invoice";
