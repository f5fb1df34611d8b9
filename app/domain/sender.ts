import { FREQUENCIES, type FrequencyId } from "./frequencies";
import { oneLine, safeDisplayName, safeLines } from "./header-safe";
import type { Statement } from "./statement";

/** Who a reminder is from, as people see it: the organization's name, else the user's business, else their name, else their address. */
export function senderDisplayName(
  user: { fullName: string; email: string; businessName?: string | null },
  org?: { name: string } | null,
): string {
  return org?.name ?? (user.businessName || user.fullName || user.email);
}

/**
 * The sender's side of a reminder, the same for the engine (app/reminders/engine.server.ts reminderMessage), the
 * preview and the test send: the organization's name when sent as one, else the user's, with no
 * address, link or invisible character (it becomes the From header's display name); the
 * organization's payment page when it has one, else the user's, else none (no 'Pay now').
 */
export function reminderSender(
  user: { fullName: string; email: string; paymentUrl: string | null; businessName?: string | null },
  org: { name: string; address: string; paymentUrl: string | null } | undefined,
) {
  return {
    senderName: safeDisplayName(senderDisplayName(user, org)) || safeDisplayName(user.fullName),
    senderEmail: user.email,
    senderCompany: org ? { name: safeDisplayName(org.name), address: safeLines(org.address).join("\n") } : null,
    payUrl: (org ? org.paymentUrl : null) ?? user.paymentUrl ?? null,
  };
}

/**
 * The debtor's side of a reminder: their one-line name and their statement: the open invoices (at most MAX_STATEMENT_LINES of app/domain/statement.ts), the totals over
 * all of them, and today in their zone.
 */
export function reminderReceiver(debtor: {
  fullName: string;
  contactName?: string | null;
  statement: Statement;
  today: string;
  firstContact?: boolean;
}) {
  return {
    firstContact: debtor.firstContact ?? false,
    receiverName: oneLine(debtor.fullName),
    contactName: debtor.contactName ? oneLine(debtor.contactName) : null,
    statement: debtor.statement.lines,
    statementTotals: debtor.statement.totals,
    notChased: debtor.statement.held ?? null,
    claimedPaid: debtor.statement.claimed ?? null,
    // Late-payment charges still owed (decisions/067), only when there are some.
    ...(debtor.statement.charges ? { statementCharges: debtor.statement.charges } : {}),
    today: debtor.today,
  };
}

const REPEATING: ReadonlySet<FrequencyId> = new Set(FREQUENCIES.map((f) => f.id).filter((id) => id !== "now"));

/**
 * Whether a schedule of this frequency sends more reminders after this one: a daily or weekly one
 * goes on until it is paid, opted out of or stopped; a one-time ('now') one is then complete
 * (app/domain/occurrence.ts advancePast). A reminder's copy announces further ones only then.
 */
export function frequencyRepeats(frequency: string): boolean {
  return REPEATING.has(frequency as FrequencyId);
}
