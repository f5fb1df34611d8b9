import { readAmount } from "~/domain/amount-input";
import { isCalendarDate } from "~/domain/calendar-date";
import { formatDate } from "~/domain/dates";
import type { PaidClaimKey } from "~/domain/i18n/paid-claim";
import { formatMoney, toCents } from "~/domain/money";
import type { PageMessage } from "~/domain/page-copy";
import { addDays } from "~/domain/promise";

/**
 * The debtor's "I've paid" form (their page and the e-mail's link): the invoices they paid, or an
 * amount, the day and their bank reference. Read on the server whatever the browser checked; every
 * refusal names its field and the page keeps what was typed. A refusal is a message key of the
 * form's catalogue (app/domain/i18n/paid-claim.ts) with its values: the page writes it in the
 * debtor's language.
 */

export const CLAIM_REFERENCE_MAX = 140;
/** How far back a payment may be dated: a year. */
export const CLAIM_DAYS_BACK = 365;

export type ClaimMessage = PageMessage<PaidClaimKey>;

export const CLAIM_MESSAGES = {
  nothing: { key: "claim.error.nothing" },
  invoice: { key: "claim.error.invoice" },
  currency: { key: "claim.error.currency" },
  mixed: { key: "claim.error.mixed" },
  date: { key: "claim.error.date" },
  future: { key: "claim.error.future" },
  old: { key: "claim.error.old", values: { days: CLAIM_DAYS_BACK } },
  reference: { key: "claim.error.reference", values: { max: CLAIM_REFERENCE_MAX } },
} as const satisfies Record<string, ClaimMessage>;

/** One of the debtor's open invoices as the form offers it: the page's reference for it. */
export interface ClaimableInvoice {
  ref: string;
  id: number;
  currency: string;
  balanceCents: number;
}

export interface ClaimFormView {
  /** The open invoices they may tick, by the page's reference. */
  invoices: { ref: string; number: string | null; dueOn: string; balanceCents: number; currency: string }[];
  /** The currencies open: the amount's. */
  currencies: string[];
  /** Their today, the latest date they may give. */
  today: string;
  /** How an amount is written in their number format ("1.234,56"). */
  amountExample: string;
  /** The user's date format: the invoices' due dates are written in it. */
  locale: string;
}

/** What a pending claim said, for the page that shows it. */
export interface ClaimSaid {
  amountCents: number | null;
  currency: string | null;
  paidOn: string | null;
  reference: string | null;
  /** The invoices it named, by number (null: one without a number). */
  invoices: (string | null)[];
}

export type ClaimField = "invoices" | "amount" | "currency" | "paid_on" | "reference";
export type ClaimValues = { invoices: string[]; amount: string; currency: string; paid_on: string; reference: string };

export type ClaimReading =
  | {
      ok: true;
      claim: {
        invoiceIds: number[];
        amountCents: number | null;
        currency: string | null;
        paidOn: string;
        reference: string | null;
      };
    }
  | { ok: false; errors: Partial<Record<ClaimField, ClaimMessage>>; values: ClaimValues };

/** The debtor's claim from their form, against their open invoices, in `locale`'s number format on their `today`. */
export function readPaidClaim(
  form: FormData,
  context: { open: readonly ClaimableInvoice[]; locale: string; today: string },
): ClaimReading {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const values: ClaimValues = {
    invoices: form.getAll("invoices").filter((v): v is string => typeof v === "string"),
    amount: text("amount").trim(),
    currency: text("currency").trim(),
    paid_on: text("paid_on").trim(),
    reference: text("reference").trim(),
  };
  const errors: Partial<Record<ClaimField, ClaimMessage>> = {};
  const example: ClaimMessage = {
    key: "claim.error.amount",
    values: { example: formatMoney(60050, "EUR", context.locale) },
  };
  const picked = values.invoices.map((ref) => context.open.find((i) => i.ref === ref));
  if (picked.some((i) => i === undefined) || new Set(values.invoices).size !== values.invoices.length) {
    errors.invoices = CLAIM_MESSAGES.invoice;
  }
  const invoices = picked.filter((i): i is ClaimableInvoice => i !== undefined);
  const currencies = [...new Set(context.open.map((i) => i.currency))];
  const pickedCurrencies = [...new Set(invoices.map((i) => i.currency))];

  let amountCents: number | null = null;
  let currency: string | null = pickedCurrencies.length === 1 ? (pickedCurrencies[0] ?? null) : null;
  if (values.amount !== "") {
    const read = readAmount(values.amount, context.locale);
    if (!read.ok) {
      errors.amount =
        read.reason === "ambiguous"
          ? {
              key: "claim.error.ambiguous",
              values: {
                typed: read.typed,
                first: read.readings[0] ?? "",
                second: read.readings[1] ?? "",
                example: read.example,
              },
            }
          : read.reason === "other-format"
            ? {
                key: "claim.error.otherFormat",
                values: { typed: read.typed, value: read.readings[0] ?? "", example: read.example },
              }
            : example;
    } else if (read.value <= 0 || !Number.isSafeInteger(toCents(read.value))) {
      errors.amount = example;
    } else {
      amountCents = toCents(read.value);
      const chosen = values.currency || (currencies.length === 1 ? currencies[0] : "") || "";
      if (pickedCurrencies.length > 1) errors.amount = CLAIM_MESSAGES.mixed;
      else if (!currencies.includes(chosen) || (pickedCurrencies.length === 1 && chosen !== pickedCurrencies[0])) {
        errors.currency = CLAIM_MESSAGES.currency;
      } else {
        currency = chosen;
        const owed = context.open.filter((i) => i.currency === chosen).reduce((sum, i) => sum + i.balanceCents, 0);
        if (amountCents > owed) {
          errors.amount = {
            key: "claim.error.over",
            values: { currency: chosen, owed: formatMoney(owed, chosen, context.locale) },
          };
        }
      }
    }
  } else if (invoices.length === 0 && !errors.invoices) {
    errors.invoices = CLAIM_MESSAGES.nothing;
  }

  if (!isCalendarDate(values.paid_on)) errors.paid_on = CLAIM_MESSAGES.date;
  else if (values.paid_on > context.today) errors.paid_on = CLAIM_MESSAGES.future;
  else if (values.paid_on < (addDays(context.today, -CLAIM_DAYS_BACK) ?? "")) errors.paid_on = CLAIM_MESSAGES.old;

  const reference = values.reference.replace(/\s+/g, " ");
  if (reference.length > CLAIM_REFERENCE_MAX || /[\r\n]/.test(text("reference"))) {
    errors.reference = CLAIM_MESSAGES.reference;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors, values };
  return {
    ok: true,
    claim: {
      invoiceIds: invoices.map((i) => i.id),
      amountCents,
      currency,
      paidOn: values.paid_on,
      reference: reference || null,
    },
  };
}

/** "€600.50 on 20 November 2026 for INV-7 (reference RF18)": what the debtor said, in words. */
export function claimSaidText(said: ClaimSaid, locale?: string) {
  const claim = { ...said, invoices: said.invoices.map((number) => number ?? "an invoice") };
  const amount = claim.amountCents !== null && claim.currency ? formatMoney(claim.amountCents, claim.currency) : null;
  return [
    amount ?? (claim.invoices.length > 0 ? claim.invoices.join(", ") : "your payment"),
    claim.paidOn ? `on ${formatDate(claim.paidOn, locale)}` : null,
    amount && claim.invoices.length > 0 ? `for ${claim.invoices.join(", ")}` : null,
    claim.reference ? `(reference ${claim.reference})` : null,
  ]
    .filter(Boolean)
    .join(" ");
}
