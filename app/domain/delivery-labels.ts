import { templateName } from "./presets";

/**
 * How the report, its CSV and the debtor's timeline name a delivery. A test send ("Send me a test"
 * on /schedule: a delivery with a "test:" key, to the user's own address) is not a reminder to
 * the debtor and never reads as one.
 */
export interface LabelledDelivery {
  template: string;
  /** A test send's key starts with "test:" (app/reminders/test-send.server.ts testSendKey). */
  occurrenceKey: string;
  /** The address it went to (lower-cased); the user's own for a test send. */
  recipient: string | null;
  debtorName?: string | null;
}

/** The prefix of a test send's occurrence key: never a schedule's (`{scheduleId}:{scheduledAt}`). */
export const TEST_SEND_PREFIX = "test:";

export const isTestSend = (d: Pick<LabelledDelivery, "occurrenceKey">) => d.occurrenceKey.startsWith(TEST_SEND_PREFIX);

/** Who it went to: the debtor, or "Test to you (address)". */
export function deliveryTarget(d: LabelledDelivery): string {
  if (isTestSend(d)) return `Test to you${d.recipient ? ` (${d.recipient})` : ""}`;
  return d.debtorName ?? "Deleted debtor";
}

/** Which e-mail: the template's name, marked when it was a test. */
export function deliveryTemplate(d: LabelledDelivery): string {
  return isTestSend(d) ? `Test: ${templateName(d.template)}` : templateName(d.template);
}
