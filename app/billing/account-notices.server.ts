import type { AccountNoticeMessage } from "~/domain/account-notice";
import { mail } from "~/mail/index.server";

/**
 * Sends one of Dunly's e-mails about the user's own plan through the mail client
 * (docs/decisions/019). The key is the provider's Idempotency-Key, so a retried event or watchdog run
 * sends it once. Throws on a failure that may pass (the caller's retry sends it then: the trial
 * mark is cleared for the next watchdog run, Stripe delivers the event again); false on one that
 * will not (logged by the mail client).
 */
export async function sendAccountNotice(env: Env, message: AccountNoticeMessage, key: string): Promise<boolean> {
  const result = await mail.accountNotice(env, message, key);
  if (result.ok) return true;
  if (result.retryable) throw new Error(`Account notice ${key} not sent: ${result.error}`);
  return false;
}
