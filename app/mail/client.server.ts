/**
 * The app's mail client: the one way to the mail Worker (the MAILER service binding), one function
 * per kind of mail.
 *
 * One failure policy for every send. A send never throws: its caller gets a result and decides what
 * a failure means there (record it for the watchdog, tell the user, or go on), so no caller has to
 * tell "not sent" from "crashed". A call that throws (the mail Worker unreachable, or throwing) is a
 * failed send like the provider's own failures: `retryable` (nothing says the e-mail went out, and
 * its Idempotency-Key keeps a resend from sending twice), status null, no attempts. Each failed
 * send is logged here, once, with its kind and key, so callers do not log it again; a 429 is the
 * provider pacing us (the caller waits), not a failure, and is not logged.
 */
import type { AccountNoticeMessage } from "~/domain/account-notice";
import type { ClaimAnswerMessage } from "~/domain/claim-answer";
import type { Language } from "~/domain/languages";
import type { DigestMessage, NoticeMessage } from "~/domain/notice";
import type { PasswordChangedEmailProps } from "~/domain/password-changed";
import type { PlanLetterMessage } from "~/domain/plan-letter";
import type { TemplateId } from "~/domain/presets";
import type { ReceiptMessage } from "~/domain/receipt";
import type { ReplyCopyMessage } from "~/domain/reply-copy";
import type { StatementDocument } from "~/domain/statement-document";
import type { ReminderEmailProps } from "../../emails/reminder";
import type { ReminderMessage } from "../../emails/reminder-message";
import type { BatchSendResult, DomainRemoveResult, DomainResult, LastLook, SendFailure, SendResult } from "./contract";

type Mailer = Env["MAILER"];

/** What a failed answer says, for the one log line. */
function failureText(result: SendFailure | Extract<BatchSendResult, { ok: false }>) {
  if ("error" in result) return result.error;
  if (result.invalid) return result.invalid.map((x) => `#${x.index}: ${x.error}`).join("; ");
  return "held back at the last look";
}

/**
 * Every send goes through here: the mail Worker's answer as it is, or, when the call throws, a
 * retryable failure; a failure is logged once with the kind and key. Never throws.
 */
async function call<T extends SendResult | BatchSendResult | { ok: true }>(
  env: Pick<Env, "MAILER">,
  kind: string,
  key: string,
  send: (mailer: Mailer) => Promise<T>,
): Promise<T | SendFailure> {
  let result: T | SendFailure;
  try {
    result = await send(env.MAILER);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    result = { ok: false, retryable: true, status: null, error: `Mail Worker: ${message}`, attempts: 0 };
  }
  const heldBack = "lastLook" in result && result.lastLook === false;
  if (!result.ok && !heldBack && !("status" in result && result.status === 429)) {
    console.error(`[dunly] mail ${kind} ${key} not sent: ${failureText(result)}`);
  }
  return result;
}

/** The magic-link e-mail. No Idempotency-Key: a failed one is not retried, the user asks again. */
function signInLink(env: Pick<Env, "MAILER">, input: { to: string; url: string; expiresInMinutes: number }) {
  return call<SendResult>(env, "sign-in link", "(no key)", async (m) => await m.sendSignInLink(input));
}

/** The notice that an account's password changed, under its record's key. */
function passwordChanged(env: Pick<Env, "MAILER">, input: PasswordChangedEmailProps & { to: string }, key: string) {
  return call<SendResult>(env, "password-changed", key, async (m) => await m.sendPasswordChanged(input, key));
}

/** A notice to the user about one of their debtors, under its event key. */
function notice(env: Pick<Env, "MAILER">, message: NoticeMessage, key: string) {
  return call<SendResult>(env, "notice", key, async (m) => await m.sendNotice(message, key));
}

/** The user's daily digest, under `digest:<user>:<day>`. */
function digest(env: Pick<Env, "MAILER">, message: DigestMessage, key: string) {
  return call<SendResult>(env, "digest", key, async (m) => await m.sendDigest(message, key));
}

/** The debtor's receipt for a payment online, under `receipt:<provider payment id>`. */
function receipt(env: Pick<Env, "MAILER">, message: ReceiptMessage, key: string) {
  return call<SendResult>(env, "receipt", key, async (m) => await m.sendReceipt(message, key));
}

/** The debtor's answer to a claim the user could not match, under `claim-rejected:<debtor>:<claimed at>`. */
function claimAnswer(env: Pick<Env, "MAILER">, message: ClaimAnswerMessage, key: string) {
  return call<SendResult>(env, "claim answer", key, async (m) => await m.sendClaimAnswer(message, key));
}

/** The debtor's e-mail about a payment plan (decisions/066), under `plan:<plan>:<instalment>:<kind>`. */
function planLetter(env: Pick<Env, "MAILER">, message: PlanLetterMessage, key: string) {
  return call<SendResult>(env, "plan letter", key, async (m) => await m.sendPlanLetter(message, key));
}

/** The copy of a debtor's reply to the user, under `reply:<reply id>`. */
function replyCopy(env: Pick<Env, "MAILER">, message: ReplyCopyMessage, key: string) {
  return call<SendResult>(env, "reply copy", key, async (m) => await m.sendReplyCopy(message, key));
}

/** Dunly's e-mail to a user about their own plan (trial ending or ended, a renewal failed). */
function accountNotice(env: Pick<Env, "MAILER">, message: AccountNoticeMessage, key: string) {
  return call<SendResult>(env, "account notice", key, async (m) => await m.sendAccountNotice(message, key));
}

/** A payment reminder under its occurrence key: the engine's queue consumer and the test send. */
function reminder(env: Pick<Env, "MAILER">, message: ReminderMessage, key: string): Promise<SendResult> {
  return call<SendResult>(env, "reminder", key, async (m) => await m.sendReminder(message, key));
}

/**
 * Reminders in one request to the provider's batch endpoint under `batchKey` (docs/decisions/021).
 * A call that throws is an unanswered request (retryable, no status, not split): it is retried
 * only under the same key. `lastLook` is asked once the e-mails are made, just before the request.
 */
async function reminders(
  env: Pick<Env, "MAILER">,
  items: readonly { message: ReminderMessage; key: string }[],
  batchKey: string,
  lastLook?: LastLook,
): Promise<BatchSendResult> {
  const result = await call<BatchSendResult>(
    env,
    "reminder batch",
    batchKey,
    async (m) => await m.sendReminderBatch(items, batchKey, lastLook),
  );
  if (result.ok || !("attempts" in result)) return result;
  const { attempts: _attempts, ...failed } = result;
  return { ...failed, split: false };
}

/** The debtor's statement as a PDF, laid out by the mail Worker; nothing is sent. */
function statementPdf(env: Pick<Env, "MAILER">, doc: StatementDocument) {
  return call(env, "statement PDF", doc.date, async (m) => ({
    ok: true as const,
    pdf: await m.renderStatementPdf(doc),
  }));
}

/** The in-app preview of a reminder, rendered by the mail Worker; nothing is sent. */
function renderReminderPreview(env: Pick<Env, "MAILER">, props: ReminderEmailProps) {
  return call(env, "reminder preview", `${props.template}/${props.tone}`, async (m) => ({
    ok: true as const,
    ...(await m.renderReminderPreview(props)),
  }));
}

/** Dunly's own text of a step in a language (decisions/056), made by the mail Worker beside its copy. */
function dunlyText(env: Pick<Env, "MAILER">, template: TemplateId, tone: number, language: Language) {
  return call(env, "Dunly's text", `${template}/${tone}/${language}`, async (m) => ({
    ok: true as const,
    text: await m.dunlyStepText(template, tone, language),
  }));
}

/**
 * The user's sending domain at the provider (docs/decisions/059-sending-domains.md), through the mail
 * Worker, the only code that talks to it: create (with its DNS records), read, verify (the provider
 * checks the DNS again, then it is read), remove. Never throw: a call that throws is a retryable
 * failure, logged once like a send's.
 */
function createDomain(env: Pick<Env, "MAILER">, name: string) {
  return call<DomainResult>(env, "domain create", name, async (m) => await m.createDomain(name));
}

function getDomain(env: Pick<Env, "MAILER">, id: string) {
  return call<DomainResult>(env, "domain read", id, async (m) => await m.getDomain(id));
}

function verifyDomain(env: Pick<Env, "MAILER">, id: string) {
  return call<DomainResult>(env, "domain verify", id, async (m) => await m.verifyDomain(id));
}

function removeDomain(env: Pick<Env, "MAILER">, id: string) {
  return call<DomainRemoveResult>(env, "domain remove", id, async (m) => await m.removeDomain(id));
}

/** Dunly's own From address, as the mail Worker has it (MAIL_FROM_ADDRESS). */
function defaultFromAddress(env: Pick<Env, "MAILER">) {
  return call(env, "from address", "-", async (m) => ({ ok: true as const, address: await m.defaultFromAddress() }));
}

export const mail = {
  signInLink,
  passwordChanged,
  notice,
  digest,
  receipt,
  claimAnswer,
  planLetter,
  replyCopy,
  accountNotice,
  reminder,
  reminders,
  renderReminderPreview,
  dunlyText,
  statementPdf,
  defaultFromAddress,
  createDomain,
  getDomain,
  verifyDomain,
  removeDomain,
};
