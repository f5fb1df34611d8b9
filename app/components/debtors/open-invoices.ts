/**
 * "2 open invoices", "1 open invoice", "no open invoices": what the debtor lists and pickers show
 * beside a debtor's name and e-mail, so two debtors of the same name can be told apart
 *. Open counts the invoices still owed (open or disputed).
 */
export function openInvoicesLabel(n: number) {
  if (n === 0) return "no open invoices";
  return n === 1 ? "1 open invoice" : `${n} open invoices`;
}

/** A debtor as a picker's option reads: "Name — email · 2 open invoices". */
export function debtorOptionLabel(d: { fullName: string; email: string; openInvoices?: number }) {
  const open = d.openInvoices === undefined ? "" : ` · ${openInvoicesLabel(d.openInvoices)}`;
  return `${d.fullName} — ${d.email}${open}`;
}
