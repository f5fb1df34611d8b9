import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from "libphonenumber-js/mobile";

/**
 * A debtor's mobile number (decisions/069): the pure rules, client-safe, the same on the form, the
 * API and the CSV import. Numbers are stored in E.164 ("+447400123456").
 *
 * Only a number that can receive a text is accepted: the library's mobile metadata
 * (`libphonenumber-js/mobile`) treats every other kind (landline, toll-free, premium, VoIP where a
 * country numbers it apart) as invalid, so "valid" here means "a mobile number of its country".
 * In the US and Canada mobiles and landlines share their ranges; the library cannot tell them apart
 * and Twilio's own lookup is the only judge there (a text to a landline fails and is recorded).
 */

/** The longest input a phone field takes (the schema enforces it with the same number). */
export const PHONE_INPUT_MAX = 40;

/**
 * The countries whose debtors the account may enable for texts (Settings → Text messages), in the
 * order Settings lists them. A text goes only to a number of an enabled country.
 */
export const TEXT_COUNTRIES = [
  { code: "GB", name: "United Kingdom" },
  { code: "IE", name: "Ireland" },
  { code: "US", name: "United States" },
  { code: "CA", name: "Canada" },
  { code: "AU", name: "Australia" },
  { code: "NZ", name: "New Zealand" },
  { code: "DE", name: "Germany" },
  { code: "FR", name: "France" },
  { code: "NL", name: "Netherlands" },
  { code: "BE", name: "Belgium" },
  { code: "LU", name: "Luxembourg" },
  { code: "ES", name: "Spain" },
  { code: "IT", name: "Italy" },
  { code: "PT", name: "Portugal" },
  { code: "AT", name: "Austria" },
  { code: "FI", name: "Finland" },
] as const satisfies readonly { code: CountryCode; name: string }[];

export type TextCountry = (typeof TEXT_COUNTRIES)[number]["code"];

export const TEXT_COUNTRY_CODES: readonly TextCountry[] = TEXT_COUNTRIES.map((c) => c.code);

/**
 * Countries where carriers deliver business texts only from a registered sender (US A2P 10DLC or a
 * verified toll-free number; Canada likewise): Settings says so beside them.
 */
export const REGISTERED_SENDER_COUNTRIES: readonly TextCountry[] = ["US", "CA"];

export function isTextCountry(code: unknown): code is TextCountry {
  return typeof code === "string" && (TEXT_COUNTRY_CODES as readonly string[]).includes(code);
}

export function textCountryName(code: string): string {
  return TEXT_COUNTRIES.find((c) => c.code === code)?.name ?? code;
}

export const PHONE_MESSAGES = {
  international: "Enter the number with its country code, like +44 7400 123456.",
  invalid: "This is not a mobile number: enter a mobile that can receive texts (not a landline).",
  tooLong: `A phone number has at most ${PHONE_INPUT_MAX} characters.`,
} as const;

/** Consent refused: the number texted STOP to this account (text_opt_outs) and not START since. */
export const TEXT_OPTED_OUT_MESSAGE =
  "This number texted STOP: you may text it again only after the debtor texts START to it.";

export type MobileParse = { ok: true; e164: string; country: string | null } | { ok: false; message: string };

/**
 * The shape of a typed number, without the library (so a page's JavaScript does not carry its
 * metadata): its country code, then 4 to 17 digits; spaces, dots, dashes and brackets allowed, "00"
 * read as "+". Answers the compact "+<digits>" or the message. Whether it is a mobile of its
 * country is `parseMobile`'s, which the server runs on what this lets through.
 */
export function mobileShape(input: string): { ok: true; compact: string } | { ok: false; message: string } {
  const typed = input.trim();
  if (typed.length > PHONE_INPUT_MAX) return { ok: false, message: PHONE_MESSAGES.tooLong };
  const compact = typed.replace(/[\s().\-‑–]/g, "");
  const normalized = compact.startsWith("00") ? `+${compact.slice(2)}` : compact;
  if (!normalized.startsWith("+")) return { ok: false, message: PHONE_MESSAGES.international };
  if (!/^\+\d{4,17}$/.test(normalized)) return { ok: false, message: PHONE_MESSAGES.invalid };
  return { ok: true, compact: normalized };
}

/**
 * Parses a typed mobile number into E.164. Spaces, dots, dashes and brackets are allowed; "00" as
 * the international prefix is read as "+". Without a country code the number is read in
 * `defaultCountry` when one is given, otherwise refused with a message that shows the format.
 * A landline, a number too short or long for its country, or one of an unknown country is refused.
 */
export function parseMobile(input: string, defaultCountry?: CountryCode): MobileParse {
  const typed = input.trim();
  if (typed.length > PHONE_INPUT_MAX) return { ok: false, message: PHONE_MESSAGES.tooLong };
  const compact = typed.replace(/[\s().\-‑–]/g, "");
  const normalized = compact.startsWith("00") ? `+${compact.slice(2)}` : compact;
  if (!normalized.startsWith("+") && !defaultCountry) return { ok: false, message: PHONE_MESSAGES.international };
  if (!/^\+?\d{4,17}$/.test(normalized)) return { ok: false, message: PHONE_MESSAGES.invalid };
  const parsed = parsePhoneNumberFromString(normalized, defaultCountry);
  if (!parsed?.isValid()) return { ok: false, message: PHONE_MESSAGES.invalid };
  return { ok: true, e164: parsed.number, country: parsed.country ?? null };
}

/** The country of a stored E.164 number (null when the number is no longer a valid mobile). */
export function mobileCountry(e164: string): string | null {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.isValid() ? (parsed.country ?? null) : null;
}

/** A stored E.164 number written for people: "+44 7400 123456". */
export function formatPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

/** "+44" for a country code. */
export function callingCode(country: TextCountry): string {
  return `+${getCountryCallingCode(country)}`;
}

/**
 * Whether a text may go to this number under the account's settings: the channel is on and the
 * number's country is one the account enabled.
 */
export function textAllowedTo(e164: string, settings: { enabled: boolean; countries: readonly string[] }): boolean {
  if (!settings.enabled) return false;
  const country = mobileCountry(e164);
  return country !== null && settings.countries.includes(country);
}

/**
 * The time zone of a number's country where the country has one (a text keeps the daytime of the
 * debtor's zone and of their number's: a British mobile abroad is still answered in Britain's
 * evening). Countries spanning several zones (the US, Canada, Australia) give none: the debtor's
 * own zone decides alone there.
 */
const COUNTRY_ZONES: Readonly<Partial<Record<TextCountry, string>>> = {
  GB: "Europe/London",
  IE: "Europe/Dublin",
  NZ: "Pacific/Auckland",
  DE: "Europe/Berlin",
  FR: "Europe/Paris",
  NL: "Europe/Amsterdam",
  BE: "Europe/Brussels",
  LU: "Europe/Luxembourg",
  ES: "Europe/Madrid",
  IT: "Europe/Rome",
  PT: "Europe/Lisbon",
  AT: "Europe/Vienna",
  FI: "Europe/Helsinki",
};

export function numberZone(e164: string): string | null {
  const country = mobileCountry(e164);
  return country !== null && isTextCountry(country) ? (COUNTRY_ZONES[country] ?? null) : null;
}

/** The account's text month: the calendar month in UTC, as "YYYY-MM" (the allowance's period). */
export function textMonth(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

/** The instant the next text month begins (the allowance renews then). */
export function nextTextMonthStart(nowMs: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}
