import type { Db } from "~/db/client.server";
import type { AccountNoticeMessage } from "~/domain/account-notice";
import { sendRecorded } from "~/mail/index.server";

/**
 * Sends one of Dunly's e-mails about the user's own plan (docs/decisions/019), recorded before it
 * is sent (app/mail/recorded.server.ts): the key is the provider's Idempotency-Key and the record's,
 * so a retried event or watchdog run sends it once, and one that could not be sent is retried by
 * the watchdog and shown in Settings → E-mails. Throws only when it could not be recorded.
 */
export function sendAccountNotice(env: Env, db: Db, ownerId: string, message: AccountNoticeMessage, key: string) {
  return sendRecorded(env, db, { ownerId, key, email: { kind: "account-notice", message } });
}
