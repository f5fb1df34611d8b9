import type { AccountNoticeMessage } from "~/domain/account-notice";

/**
 * Sends one of Dunly's e-mails about the user's own plan through the mail Worker
 * (docs/decisions/019). The key is the provider's Idempotency-Key, so a retried event or watchdog run
 * sends it once. Throws on a failure that may pass (the caller's retry sends it then).
 */
export async function sendAccountNotice(env: Env, message: AccountNoticeMessage, key: string): Promise<boolean> {
  const result = await env.MAILER.sendAccountNotice(message, key);
  if (result.ok) return true;
  if (result.retryable) throw new Error(`Account notice ${key} not sent: ${result.error}`);
  console.error(`[dunly] account notice ${key} not sent: ${result.error}`);
  return false;
}
