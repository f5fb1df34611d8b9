/**
 * Why no reminder can reach a debtor: a schedule is
 * never created, edited or resumed into a state that cannot send. Shared by the lifecycle, the
 * form actions, the JSON API and the screens, so the words are written once.
 */
export type SendRefusal = "paid" | "nothing_owed" | "opted_out" | "bouncing";

/** Why reminders cannot reach `debtorName`, in the user's words. */
export function sendRefusalMessage(debtorName: string, reason: SendRefusal): string {
  switch (reason) {
    case "paid":
      return `${debtorName} has paid: there is nothing left to remind them of.`;
    case "nothing_owed":
      return `${debtorName} owes nothing: there is nothing to remind them of.`;
    case "opted_out":
      return `${debtorName} opted out of your reminders: Dunly sends them nothing until you record that they agreed to reminders again.`;
    case "bouncing":
      return `${debtorName}'s e-mail address bounced: correct it on the debtor first.`;
  }
}

/** Why a paused schedule stays paused after "Resume", in the user's words. */
export function resumeRefusalMessage(debtorName: string, reason: SendRefusal): string {
  switch (reason) {
    case "paid":
      return `${debtorName} has paid: there is nothing left to remind them of, so the schedule stays paused.`;
    case "nothing_owed":
      return `${debtorName} owes nothing: there is nothing to remind them of, so the schedule stays paused.`;
    case "opted_out":
      return `${debtorName} opted out of your reminders: the schedule stays paused until they agree to reminders again.`;
    case "bouncing":
      return `${debtorName}'s e-mail address bounced: correct it on the debtor, then resume the schedule.`;
  }
}
