import { type BankAccountRecord, type BankTransfer, bankTransferFor } from "~/domain/bank-transfer";

/**
 * The bank-transfer details a statement shows: the owner's account in each currency its invoices are
 * in, with the reference quoting that currency's invoices; nothing for a currency without an
 * account. The reminder and the portal both show these.
 */
export function bankTransfersFor(
  accounts: readonly BankAccountRecord[],
  invoices: readonly { number: string | null; currency: string }[],
  debtorName: string,
): BankTransfer[] {
  const currencies = [...new Set(invoices.map((i) => i.currency))];
  return currencies.flatMap((currency) => {
    const account = accounts.find((a) => a.currency === currency);
    if (!account) return [];
    const numbers = invoices.filter((i) => i.currency === currency).map((i) => i.number);
    return [bankTransferFor(account, numbers, debtorName)];
  });
}
