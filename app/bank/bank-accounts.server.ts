import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { bankAccounts } from "~/db/schema";
import type { BankAccountRecord } from "~/domain/bank-transfer";
import type { BankAccountInput } from "~/schemas/bank";

/**
 * The owner's bank-transfer details, one account per currency (docs/decisions/051). Every read and
 * write is the owner's: another user's currency row is simply not there.
 */

/** A bank account's columns with its owner: what every reader of the table selects. */
export const BANK_ACCOUNT_COLUMNS = {
  ownerId: bankAccounts.ownerId,
  currency: bankAccounts.currency,
  holder: bankAccounts.holder,
  iban: bankAccounts.iban,
  bic: bankAccounts.bic,
  accountNumber: bankAccounts.accountNumber,
  sortCode: bankAccounts.sortCode,
  routingNumber: bankAccounts.routingNumber,
  reference: bankAccounts.reference,
};

export type BankAccountRow = BankAccountRecord & { ownerId: string };

/** The owner's accounts, by currency. */
export async function listBankAccounts(db: Db, ownerId: string): Promise<BankAccountRow[]> {
  return db
    .select(BANK_ACCOUNT_COLUMNS)
    .from(bankAccounts)
    .where(eq(bankAccounts.ownerId, ownerId))
    .orderBy(asc(bankAccounts.currency));
}

/** The accounts of several owners (the mail queue's batch of reminders), keyed by owner. */
export async function bankAccountsOf(db: Db, ownerIds: readonly string[]): Promise<Map<string, BankAccountRow[]>> {
  const byOwner = new Map<string, BankAccountRow[]>();
  if (ownerIds.length === 0) return byOwner;
  const rows = await db
    .select(BANK_ACCOUNT_COLUMNS)
    .from(bankAccounts)
    .where(inArray(bankAccounts.ownerId, [...ownerIds]));
  for (const row of rows) byOwner.set(row.ownerId, [...(byOwner.get(row.ownerId) ?? []), row]);
  return byOwner;
}

/** Saves the owner's account for its currency (a second save of the currency replaces the first). */
export async function saveBankAccount(db: Db, ownerId: string, input: BankAccountInput, now = Date.now()) {
  const byIban = Boolean(input.iban);
  const values = {
    holder: input.holder,
    iban: input.iban ?? null,
    bic: byIban ? (input.bic ?? null) : null,
    accountNumber: byIban ? null : (input.account_number ?? null),
    sortCode: byIban ? null : (input.sort_code ?? null),
    routingNumber: byIban ? null : (input.routing_number ?? null),
    reference: input.reference,
    updatedAt: now,
  };
  await db
    .insert(bankAccounts)
    .values({ ownerId, currency: input.currency, ...values })
    .onConflictDoUpdate({ target: [bankAccounts.ownerId, bankAccounts.currency], set: values });
}

/** Removes the owner's account for `currency`; false when they had none. */
export async function removeBankAccount(db: Db, ownerId: string, currency: string): Promise<boolean> {
  const removed = await db
    .delete(bankAccounts)
    .where(and(eq(bankAccounts.ownerId, ownerId), eq(bankAccounts.currency, currency)))
    .returning({ currency: bankAccounts.currency });
  return removed.length > 0;
}
