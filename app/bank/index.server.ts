/** The bank-transfer feature's public face: the owner's accounts per currency (docs/decisions/051). */
export {
  BANK_ACCOUNT_COLUMNS,
  type BankAccountRow,
  bankAccountsOf,
  listBankAccounts,
  removeBankAccount,
  saveBankAccount,
} from "./bank-accounts.server";
export { bankTransfersFor } from "./statement-bank.server";
export { noWayToPay, waysToPayQuery } from "./ways-to-pay.server";
