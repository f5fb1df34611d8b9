import type { ReminderMessage } from "../../emails/reminder-message";
import type { BatchSendResult, SendResult } from "../../workers/mail/send";

/**
 * Hands a reminder to the mail Worker (the MAILER service binding) with its Idempotency-Key: the
 * engine's queue consumer and the test send both send through here. An RPC failure (the mail
 * Worker unreachable or throwing) is a retryable send failure, never an exception.
 */
export async function sendReminder(env: Env, message: ReminderMessage, idempotencyKey: string): Promise<SendResult> {
  return env.MAILER.sendReminder(message, idempotencyKey).catch((error: unknown) => ({
    ok: false as const,
    retryable: true,
    status: null,
    error: `Mail Worker: ${error instanceof Error ? error.message : String(error)}`,
    attempts: 0,
  }));
}

/**
 * Hands a batch of reminders to the mail Worker, one request to the provider's batch endpoint under
 * `batchKey` (docs/decisions/021). An RPC failure is an unanswered request (retryable, no status):
 * only the identical batch may be sent again.
 */
export async function sendReminderBatch(
  env: Env,
  items: readonly { message: ReminderMessage; key: string }[],
  batchKey: string,
): Promise<BatchSendResult> {
  return env.MAILER.sendReminderBatch(items, batchKey).catch((error: unknown) => ({
    ok: false as const,
    split: false,
    retryable: true,
    status: null,
    error: `Mail Worker: ${error instanceof Error ? error.message : String(error)}`,
  }));
}
