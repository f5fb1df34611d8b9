import * as v from "valibot";
import { CURRENCIES, CURRENCY_MESSAGE } from "~/domain/currencies";
import { NUMBER_LOCALES } from "~/domain/number-locale";
import { missingFieldMessage } from "./missing";

const USER_NAME_MESSAGE = "Please enter your full name";
export const BUSINESS_NAME_MAX = 120;

export const ProfileNameSchema = v.object(
  {
    full_name: v.pipe(
      v.string(USER_NAME_MESSAGE),
      v.trim(),
      v.nonEmpty(USER_NAME_MESSAGE),
      v.maxLength(200, "Please use at most 200 characters"),
    ),
    // Optional: the name reminders go out under; empty clears it.
    business_name: v.optional(
      v.pipe(
        v.string(),
        v.check((s) => !/[\r\n]/.test(s), "Please keep the business name on one line"),
        v.trim(),
        v.maxLength(BUSINESS_NAME_MAX, `Please use at most ${BUSINESS_NAME_MAX} characters`),
      ),
    ),
  },
  missingFieldMessage({ full_name: USER_NAME_MESSAGE }),
);

export const PAYMENT_URL_MESSAGE = "Please enter an https:// link to your payment page";
export const PAYMENT_URL_MAX = 500;

/** An absolute https URL with a host and no spaces: the only links a 'Pay now' button may open. */
export function isHttpsUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "" && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * A payment link: the https page of the user's card checkout, PayPal or bank, which
 * every reminder's 'Pay now' button opens. Optional: blank, absent or null clears it.
 */
export const PaymentUrlField = v.pipe(
  v.optional(v.nullable(v.string(PAYMENT_URL_MESSAGE))),
  v.transform((s) => s?.trim() || undefined),
  v.optional(
    v.pipe(
      v.string(PAYMENT_URL_MESSAGE),
      v.maxLength(PAYMENT_URL_MAX, PAYMENT_URL_MESSAGE),
      v.check(isHttpsUrl, PAYMENT_URL_MESSAGE),
    ),
  ),
);

/** The account's payment link form on /iam/info. */
export const PaymentLinkSchema = v.object({ payment_url: PaymentUrlField });

/**
 * The account's currency (Settings → Info): what a new debtor, and a
 * CSV row without a currency, is in unless the form or the file says otherwise. Required. With it,
 * the user's number format.
 */
export const DefaultCurrencySchema = v.object(
  {
    default_currency: v.pipe(
      v.string(CURRENCY_MESSAGE),
      v.trim(),
      v.toUpperCase(),
      v.picklist(CURRENCIES, CURRENCY_MESSAGE),
    ),
    // How the user's amounts are typed and read ("1.234,56"); absent: unchanged.
    number_locale: v.optional(v.picklist(NUMBER_LOCALES, "Please choose a number format from the list")),
  },
  missingFieldMessage({ default_currency: CURRENCY_MESSAGE }),
);

/** The longest address an account can have (RFC 5321's path limit). */
export const CONFIRM_EMAIL_MAX = 254;
export const DELETE_CONFIRM_MESSAGE = "Please type your account's e-mail address to confirm.";
export const DELETE_MISMATCH_MESSAGE = "This is not your account's e-mail address: nothing was deleted.";

/**
 * Settings → Delete account: the account's e-mail address,
 * typed to confirm. Compared with the account's without case or surrounding spaces (the action).
 */
export const DeleteAccountSchema = v.object(
  {
    confirm_email: v.pipe(
      v.string(DELETE_CONFIRM_MESSAGE),
      v.trim(),
      v.nonEmpty(DELETE_CONFIRM_MESSAGE),
      v.maxLength(CONFIRM_EMAIL_MAX, DELETE_MISMATCH_MESSAGE),
    ),
  },
  missingFieldMessage({ confirm_email: DELETE_CONFIRM_MESSAGE }),
);
