/**
 * Bank-transfer details as the reminders and the portal show them (docs/decisions/051): labelled
 * lines, each with the value to copy, and the payment reference. Pure and client-safe.
 */

export interface BankAccountRecord {
  currency: string;
  holder: string;
  iban: string | null;
  bic: string | null;
  accountNumber: string | null;
  sortCode: string | null;
  routingNumber: string | null;
  reference: string;
}

export interface BankLine {
  label: string;
  /** As shown: "DE89 3704 0044 0532 0130 00", "12-34-56". */
  shown: string;
  /** As a bank's form takes it: "DE89370400440532013000", "123456". */
  copy: string;
}

export interface BankTransfer {
  currency: string;
  lines: BankLine[];
  /** What the debtor puts in the transfer's reference: "INV-101, INV-107". */
  reference: string;
}

/** "DE89 3704 0044 0532 0130 00": an IBAN in groups of four, as printed on invoices. */
const groupsOfFour = (s: string) => s.replace(/(.{4})(?=.)/g, "$1 ");

/** The account's lines: holder, then IBAN and BIC, or account number with sort code or routing number. */
export function bankLines(a: BankAccountRecord): BankLine[] {
  const lines: BankLine[] = [{ label: "Account holder", shown: a.holder, copy: a.holder }];
  if (a.iban) lines.push({ label: "IBAN", shown: groupsOfFour(a.iban), copy: a.iban });
  if (a.iban && a.bic) lines.push({ label: "BIC", shown: a.bic, copy: a.bic });
  if (!a.iban && a.accountNumber) {
    lines.push({ label: "Account number", shown: a.accountNumber, copy: a.accountNumber });
    if (a.sortCode)
      lines.push({
        label: "Sort code",
        shown: a.sortCode.replace(/^(\d\d)(\d\d)(\d\d)$/, "$1-$2-$3"),
        copy: a.sortCode,
      });
    if (a.routingNumber) lines.push({ label: "Routing number", shown: a.routingNumber, copy: a.routingNumber });
  }
  return lines;
}

/**
 * The reference for a payment of these invoices: the template with "{invoice}" replaced by their
 * numbers ("INV-101, INV-107"), or by `fallback` (the debtor's name) when none has a number.
 */
export function paymentReference(template: string, numbers: readonly (string | null)[], fallback: string): string {
  const named = numbers.filter((n): n is string => Boolean(n));
  const invoices = named.length > 0 ? named.join(", ") : fallback;
  return (template.includes("{invoice}") ? template.replaceAll("{invoice}", invoices) : template).slice(0, 140);
}

/** The transfer details for a debtor paying in `currency`, with the reference for their invoices. */
export function bankTransferFor(
  account: BankAccountRecord,
  numbers: readonly (string | null)[],
  fallback: string,
): BankTransfer {
  return {
    currency: account.currency,
    lines: bankLines(account),
    reference: paymentReference(account.reference, numbers, fallback),
  };
}
