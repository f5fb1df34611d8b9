import * as v from "valibot";

/**
 * "Record Dunly's payments in Xero" (Settings → Accounting, decisions/063): the switch, and the
 * bank account the payments go to, required while it is on. The action checks the account is one
 * of the organisation's active bank accounts. One schema for the browser and the action.
 */

/** The tab's forms: the setting, and "Try again" on a payment Dunly stopped trying to write. */
export const WRITEBACK_INTENTS = { save: "accounting-writeback", retry: "accounting-writeback-retry" } as const;

export const WRITEBACK_ACCOUNT_MESSAGE = "Choose the bank account in Xero that Dunly's payments go to";
export const WRITEBACK_UNKNOWN_ACCOUNT_MESSAGE =
  "This is not one of your active bank accounts in Xero any more: choose another";

export const WritebackSchema = v.pipe(
  v.object({
    // A checkbox: "on" when ticked, absent when not (conform sends nothing for it).
    writeback: v.optional(v.literal("on")),
    account: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, WRITEBACK_ACCOUNT_MESSAGE))),
  }),
  v.forward(
    v.partialCheck([["writeback"], ["account"]], (s) => !s.writeback || Boolean(s.account), WRITEBACK_ACCOUNT_MESSAGE),
    ["account"],
  ),
);

export type WritebackInput = v.InferOutput<typeof WritebackSchema>;

/** "Business Bank Account (090)": how Dunly names a bank account of the books. */
export const bankAccountLabel = (a: { name: string; code: string | null }) =>
  a.code ? `${a.name} (${a.code})` : a.name;
