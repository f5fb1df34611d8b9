import { electronicFormatIBAN, isValidBIC, isValidIBAN } from "ibantools";
import * as v from "valibot";
import { CURRENCIES, CURRENCY_MESSAGE } from "~/domain/currencies";
import { missingFieldMessage } from "./missing";

/**
 * Bank-transfer details (Settings → Bank transfer): per currency, the account holder and either an
 * IBAN (checked with ibantools, never a hand-written checksum; a BIC optional, checked too) or an
 * account number with a UK sort code or a US routing number; and the payment reference, a template
 * whose "{invoice}" becomes the invoices' numbers. One schema for the browser and the action.
 */

const HOLDER_MESSAGE = "Please enter the account holder's name";
export const IBAN_MESSAGE = "This is not a valid IBAN: please check its country code, length and check digits";
const BIC_MESSAGE = "This is not a valid BIC (8 or 11 letters and digits, as in COBADEFFXXX)";
const ACCOUNT_MESSAGE = "Please enter the account number: 4 to 17 digits";
const SORT_CODE_MESSAGE = "Please enter the sort code: six digits, as in 12-34-56";
const ROUTING_MESSAGE = "Please enter the routing number: nine digits";
export const ACCOUNT_OR_IBAN_MESSAGE =
  "Please enter an IBAN, or an account number with its sort code or routing number";
const REFERENCE_MESSAGE = "Please enter a reference of at most 60 characters on one line";
export const REFERENCE_MAX = 60;

/** Spaces, dashes and dots people type inside numbers, removed. */
const compact = (s: string) => s.replace(/[\s.-]/g, "");

/** An optional field: absent or blank (conform sends a blank field as absent) is none. */
const optionalText = <T extends v.GenericSchema<string, string>>(inner: T) =>
  v.optional(v.pipe(v.string(), v.trim(), inner));

export const BankAccountSchema = v.pipe(
  v.object(
    {
      currency: v.pipe(v.string(CURRENCY_MESSAGE), v.trim(), v.toUpperCase(), v.picklist(CURRENCIES, CURRENCY_MESSAGE)),
      holder: v.pipe(v.string(HOLDER_MESSAGE), v.trim(), v.nonEmpty(HOLDER_MESSAGE), v.maxLength(140, HOLDER_MESSAGE)),
      iban: optionalText(
        v.pipe(
          v.string(),
          v.transform((s) => electronicFormatIBAN(s) ?? s),
          v.check((s) => isValidIBAN(s), IBAN_MESSAGE),
        ),
      ),
      bic: optionalText(
        v.pipe(
          v.string(),
          v.transform((s) => compact(s).toUpperCase()),
          v.check((s) => isValidBIC(s), BIC_MESSAGE),
        ),
      ),
      account_number: optionalText(v.pipe(v.string(), v.transform(compact), v.regex(/^\d{4,17}$/, ACCOUNT_MESSAGE))),
      sort_code: optionalText(v.pipe(v.string(), v.transform(compact), v.regex(/^\d{6}$/, SORT_CODE_MESSAGE))),
      routing_number: optionalText(v.pipe(v.string(), v.transform(compact), v.regex(/^\d{9}$/, ROUTING_MESSAGE))),
      reference: v.pipe(
        v.optional(v.string(), "{invoice}"),
        v.trim(),
        v.transform((s) => (s === "" ? "{invoice}" : s)),
        v.maxLength(REFERENCE_MAX, REFERENCE_MESSAGE),
        v.check((s) => !/[\p{Cc}]/u.test(s), REFERENCE_MESSAGE),
      ),
    },
    missingFieldMessage({ currency: CURRENCY_MESSAGE, holder: HOLDER_MESSAGE }),
  ),
  // An IBAN, or an account number with how to route it.
  v.forward(
    v.partialCheck(
      [["iban"], ["account_number"], ["sort_code"], ["routing_number"]],
      (a) => Boolean(a.iban) || (Boolean(a.account_number) && Boolean(a.sort_code || a.routing_number)),
      ACCOUNT_OR_IBAN_MESSAGE,
    ),
    ["iban"],
  ),
);

export type BankAccountInput = v.InferOutput<typeof BankAccountSchema>;
