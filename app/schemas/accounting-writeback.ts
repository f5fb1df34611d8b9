import * as v from "valibot";
import { BOOKS_LABEL, type BooksProvider } from "~/domain/books";

/**
 * "Record Dunly's payments in Xero" (or QuickBooks; Settings → Accounting, decisions/063): the
 * switch, and the bank account the payments go to, required while it is on. The action checks the
 * account is one of the books' active bank accounts. One schema per tool (its messages name it),
 * for the browser and the action.
 */

/** The tab's forms: the setting, and "Try again" on a payment Dunly stopped trying to write. */
export const WRITEBACK_INTENTS = { save: "accounting-writeback", retry: "accounting-writeback-retry" } as const;

export const writebackAccountMessage = (provider: BooksProvider) =>
  `Choose the bank account in ${BOOKS_LABEL[provider]} that Dunly's payments go to`;
export const writebackUnknownAccountMessage = (provider: BooksProvider) =>
  `This is not one of your active bank accounts in ${BOOKS_LABEL[provider]} any more: choose another`;

function writebackSchema(provider: BooksProvider) {
  const message = writebackAccountMessage(provider);
  return v.pipe(
    v.object({
      // A checkbox: "on" when ticked, absent when not (conform sends nothing for it).
      writeback: v.optional(v.literal("on")),
      account: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, message))),
    }),
    v.forward(
      v.partialCheck([["writeback"], ["account"]], (s) => !s.writeback || Boolean(s.account), message),
      ["account"],
    ),
  );
}

/** The setting's schema for each tool, made once. */
export const WRITEBACK_SCHEMAS = {
  xero: writebackSchema("xero"),
  quickbooks: writebackSchema("quickbooks"),
} satisfies Record<BooksProvider, ReturnType<typeof writebackSchema>>;

export type WritebackInput = v.InferOutput<ReturnType<typeof writebackSchema>>;

/** "Business Bank Account (090)": how Dunly names a bank account of the books. */
export const bankAccountLabel = (a: { name: string; code: string | null }) =>
  a.code ? `${a.name} (${a.code})` : a.name;
