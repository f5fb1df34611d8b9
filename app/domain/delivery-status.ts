/**
 * What a delivery's status is called in the Reminders Report and its CSV export (app/db/schema.ts
 * `deliveries.status`), one list for the page, the export and any
 * component: plain data, so none of them imports a route module for it.
 */
const STATUS_LABELS: Record<string, string> = {
  sent: "Sent",
  sending: "Sending",
  failed: "Failed",
  // Reported by the provider's webhook (workers/webhooks.ts); the error column has its message.
  bounced: "Bounced",
  complained: "Marked as spam",
  // Over a sending limit: kept under its occurrence key and sent when the limit allows.
  deferred: "Held back",
  // Never sent, on purpose: the debtor paid, opted out or is held, or the schedule stopped, before
  // it left. The error column says which.
  skipped: "Not sent",
};

/** A delivery status's label; an unknown status is shown as it is stored. */
export function statusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}
