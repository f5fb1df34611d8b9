import { WorkerEntrypoint } from "cloudflare:workers";
import { createElement, type ReactElement } from "react";
import { type AccountNoticeMessage, accountNoticeCopy } from "../../app/domain/account-notice";
import { type ClaimAnswerMessage, claimAnswerSubject } from "../../app/domain/claim-answer";
import { oneLine } from "../../app/domain/header-safe";
import type { Language } from "../../app/domain/languages";
import {
  type DigestMessage,
  digestSubject,
  isDebtorAction,
  type NoticeMessage,
  noticeCopy,
} from "../../app/domain/notice";
import { type PlanLetterMessage, planLetterSubject } from "../../app/domain/plan-letter";
import type { TemplateId } from "../../app/domain/presets";
import { type ReceiptMessage, receiptSubject } from "../../app/domain/receipt";
import { type ReplyCopyMessage, replyCopySubject } from "../../app/domain/reply-copy";
import type { StatementDocument } from "../../app/domain/statement-document";
import type { StepText } from "../../app/domain/template-body";
import type { DomainRemoveResult, DomainResult } from "../../app/mail/contract";
import AccountNoticeEmail from "../../emails/account-notice";
import ClaimAnswerEmail from "../../emails/claim-answer";
import DigestEmail from "../../emails/digest";
import { dunlyStepText } from "../../emails/dunly-step-text";
import NoticeEmail from "../../emails/notice";
import PasswordChangedEmail, {
  type PasswordChangedEmailProps,
  passwordChangedSubject,
} from "../../emails/password-changed";
import PlanLetterEmail from "../../emails/plan-letter";
import ReceiptEmail from "../../emails/receipt";
import type { ReminderEmailProps } from "../../emails/reminder";
import type { ReminderMessage } from "../../emails/reminder-message";
import { renderEmail, toPlainText } from "../../emails/render-email";
import { renderReminder } from "../../emails/render-reminder";
import ReplyCopyEmail from "../../emails/reply-copy";
import SignInEmail, { signInSubject } from "../../emails/sign-in";
import { readMailConfig } from "./config";
import { createDomain, getDomain, removeDomain, verifyDomain } from "./domains";
import {
  type BatchItem,
  type BatchSendResult,
  deliver,
  deliverBatch,
  type LastLook,
  type OutgoingMessage,
  type SendResult,
  unsubscribeHeaders,
} from "./send";

export type { BatchSendResult, SendResult } from "./send";

/** An e-mail from Dunly itself to an account's own address (not an RPC method). */
async function sendAccountEmail(
  env: MailEnv,
  to: string,
  subject: string,
  element: ReactElement,
  idempotencyKey?: string,
) {
  const config = readMailConfig(env);
  const html = await renderEmail(element);
  return deliver(env.DB, config, { to, fromName: "Dunly", subject, html, text: toPlainText(html) }, idempotencyKey);
}

/**
 * A reminder as it is sent: rendered, with its opt-out headers; or why it cannot be (never a
 * reminder without its opt-out link and the RFC 8058 headers).
 */
async function reminderOutgoing(
  message: ReminderMessage,
): Promise<{ ok: true; message: OutgoingMessage } | { ok: false; error: string }> {
  const unsubscribe = unsubscribeHeaders(message.unsubscribeUrl);
  if (!unsubscribe.ok) return { ok: false, error: unsubscribe.error };
  let rendered: { subject: string; html: string; text: string };
  try {
    rendered = await renderReminder(message);
    if (message.subjectPrefix) rendered.subject = oneLine(`${message.subjectPrefix}${rendered.subject}`);
  } catch (error) {
    return { ok: false, error: `Render: ${(error as Error).message}` };
  }
  return {
    ok: true,
    message: {
      to: message.to,
      // The debtor's other contacts (decisions/057), as the consumer's last re-check left them.
      ...(message.cc && message.cc.length > 0 ? { cc: message.cc } : {}),
      fromName: message.senderName,
      // The user's verified domain's address, else ours (decisions/059).
      fromAddress: message.fromAddress ?? null,
      // The debtor's reply address when inbound replies are configured (decisions/020).
      replyTo: message.replyTo || message.senderEmail,
      ...rendered,
      headers: unsubscribe.headers,
    },
  };
}

/**
 * An e-mail to a debtor in the user's name (a receipt, the answer to a claim): From shows the
 * sender's name, replies go to the user. A module function, not a method: it is no RPC of its own.
 */
async function sendToDebtor(
  env: MailEnv,
  message: { to: string; senderName: string; replyTo: string; fromAddress?: string | null },
  subject: string,
  element: Parameters<typeof renderEmail>[0],
  idempotencyKey: string,
): Promise<SendResult> {
  const config = readMailConfig(env);
  let rendered: { subject: string; html: string; text: string };
  try {
    const html = await renderEmail(element);
    rendered = { subject: oneLine(subject), html, text: toPlainText(html) };
  } catch (error) {
    return { ok: false, retryable: false, status: null, error: `Render: ${(error as Error).message}`, attempts: 0 };
  }
  return deliver(
    env.DB,
    config,
    {
      to: message.to,
      fromName: oneLine(message.senderName),
      fromAddress: message.fromAddress ?? null,
      replyTo: message.replyTo,
      ...rendered,
    },
    idempotencyKey,
  );
}

/** The mail Worker: the only code that talks to the e-mail provider. */
export class MailWorker extends WorkerEntrypoint<MailEnv> {
  /** The magic-link e-mail. */
  async sendSignInLink(input: { to: string; url: string; expiresInMinutes: number }): Promise<SendResult> {
    const element = createElement(SignInEmail, { url: input.url, expiresInMinutes: input.expiresInMinutes });
    return sendAccountEmail(this.env, input.to, signInSubject, element);
  }

  /**
   * The notice that an account's password was set or changed; with the app's record key as
   * Idempotency-Key, so its retry never sends it twice.
   */
  async sendPasswordChanged(
    input: PasswordChangedEmailProps & { to: string },
    idempotencyKey?: string,
  ): Promise<SendResult> {
    const { to, ...props } = input;
    return sendAccountEmail(
      this.env,
      to,
      passwordChangedSubject,
      createElement(PasswordChangedEmail, props),
      idempotencyKey,
    );
  }

  /**
   * A notice to the user about one of their debtors,
   * sent to the user's own address with the notice's event key as Idempotency-Key, so a retry
   * never sends twice. Replies to a debtor action's notice go to the debtor.
   */
  async sendNotice(message: NoticeMessage, idempotencyKey: string): Promise<SendResult> {
    const config = readMailConfig(this.env);
    let rendered: { subject: string; html: string; text: string };
    try {
      const { kind, debtorName, detail, debtorUrl, settingsUrl } = message;
      const html = await renderEmail(createElement(NoticeEmail, { kind, debtorName, detail, debtorUrl, settingsUrl }));
      rendered = { subject: oneLine(noticeCopy(kind, debtorName).subject), html, text: toPlainText(html) };
    } catch (error) {
      return { ok: false, retryable: false, status: null, error: `Render: ${(error as Error).message}`, attempts: 0 };
    }
    return deliver(
      this.env.DB,
      config,
      {
        to: message.to,
        fromName: "Dunly",
        replyTo: isDebtorAction(message.kind) ? message.debtorEmail : null,
        ...rendered,
      },
      idempotencyKey,
    );
  }

  /**
   * The debtor's receipt for a payment online (decisions/018), with `receipt:<provider payment id>`
   * as Idempotency-Key so a payment's receipt goes out once, however often its events arrive.
   */
  async sendReceipt(message: ReceiptMessage, idempotencyKey: string): Promise<SendResult> {
    const { to: _to, replyTo: _replyTo, fromAddress: _from, ...props } = message;
    return sendToDebtor(this.env, message, receiptSubject(message), createElement(ReceiptEmail, props), idempotencyKey);
  }

  /**
   * The debtor's e-mail about a payment plan (decisions/066): agreed, offered, declined, an
   * instalment's reminder or nudge, the plan's end; once per plan, instalment and kind (its key).
   */
  async sendPlanLetter(message: PlanLetterMessage, idempotencyKey: string): Promise<SendResult> {
    const { to: _to, replyTo: _replyTo, fromAddress: _from, ...props } = message;
    return sendToDebtor(
      this.env,
      message,
      planLetterSubject(message),
      createElement(PlanLetterEmail, props),
      idempotencyKey,
    );
  }

  /**
   * The debtor's answer to their "I've paid" when the user could not find the payment, once per
   * claim (its key).
   */
  async sendClaimAnswer(message: ClaimAnswerMessage, idempotencyKey: string): Promise<SendResult> {
    const { to: _to, replyTo: _replyTo, fromAddress: _from, ...props } = message;
    return sendToDebtor(
      this.env,
      message,
      claimAnswerSubject(message),
      createElement(ClaimAnswerEmail, props),
      idempotencyKey,
    );
  }

  /**
   * Dunly's e-mail to a user about their own plan (docs/decisions/019): the trial ends soon or has
   * ended, a renewal payment failed. The key (`trial_ending:<user>`…) makes a retry send nothing twice.
   */
  async sendAccountNotice(message: AccountNoticeMessage, idempotencyKey: string): Promise<SendResult> {
    const config = readMailConfig(this.env);
    let rendered: { subject: string; html: string; text: string };
    try {
      const { kind, date, actionUrl, about } = message;
      const html = await renderEmail(createElement(AccountNoticeEmail, { kind, date, actionUrl, about }));
      rendered = { subject: oneLine(accountNoticeCopy(kind, date, about).subject), html, text: toPlainText(html) };
    } catch (error) {
      return { ok: false, retryable: false, status: null, error: `Render: ${(error as Error).message}`, attempts: 0 };
    }
    return deliver(this.env.DB, config, { to: message.to, fromName: "Dunly", ...rendered }, idempotencyKey);
  }

  /**
   * The copy of a debtor's reply to the user (docs/decisions/020-inbound-replies.md): to the user's
   * own address, From "Dunly", Reply-To the debtor, with `reply:<reply id>` as Idempotency-Key so a
   * reply is copied once.
   */
  async sendReplyCopy(message: ReplyCopyMessage, idempotencyKey: string): Promise<SendResult> {
    const config = readMailConfig(this.env);
    let rendered: { subject: string; html: string; text: string };
    try {
      const { to: _to, ...props } = message;
      const html = await renderEmail(createElement(ReplyCopyEmail, props));
      rendered = { subject: oneLine(replyCopySubject(message)), html, text: toPlainText(html) };
    } catch (error) {
      return { ok: false, retryable: false, status: null, error: `Render: ${(error as Error).message}`, attempts: 0 };
    }
    return deliver(
      this.env.DB,
      config,
      { to: message.to, fromName: "Dunly", replyTo: oneLine(message.debtorEmail), ...rendered },
      idempotencyKey,
    );
  }

  /**
   * The user's daily digest, to their own address,
   * with `digest:<user>:<day>` as Idempotency-Key so a day is sent once.
   */
  async sendDigest(message: DigestMessage, idempotencyKey: string): Promise<SendResult> {
    const config = readMailConfig(this.env);
    let rendered: { subject: string; html: string; text: string };
    try {
      const { day, items, total, settingsUrl } = message;
      const html = await renderEmail(createElement(DigestEmail, { day, items, total, settingsUrl }));
      rendered = { subject: digestSubject(total), html, text: toPlainText(html) };
    } catch (error) {
      return { ok: false, retryable: false, status: null, error: `Render: ${(error as Error).message}`, attempts: 0 };
    }
    return deliver(this.env.DB, config, { to: message.to, fromName: "Dunly", ...rendered }, idempotencyKey);
  }

  /**
   * A payment reminder, rendered from emails/ and sent with the occurrence key as Idempotency-Key.
   * From shows the sender's name at our fixed address; replies go to the sender.
   */
  async sendReminder(message: ReminderMessage, idempotencyKey: string): Promise<SendResult> {
    const config = readMailConfig(this.env);
    const outgoing = await reminderOutgoing(message);
    if (!outgoing.ok) return { ok: false, retryable: false, status: null, error: outgoing.error, attempts: 0 };
    return deliver(this.env.DB, config, outgoing.message, idempotencyKey);
  }

  /**
   * Payment reminders in one request to the provider's batch endpoint (docs/decisions/021), under
   * `batchKey`, which the caller derives from the occurrence keys it carries. Each is rendered and
   * checked as sendReminder does; one that cannot be made is reported by its index and nothing is
   * sent, so the caller can fail it and send the others.
   */
  async sendReminderBatch(
    items: readonly { message: ReminderMessage; key: string }[],
    batchKey: string,
    lastLook?: LastLook,
  ): Promise<BatchSendResult> {
    const config = readMailConfig(this.env);
    const invalid: { index: number; error: string }[] = [];
    const made: BatchItem[] = [];
    for (const [index, item] of items.entries()) {
      const outgoing = await reminderOutgoing(item.message);
      if (outgoing.ok) made.push({ message: outgoing.message, key: item.key });
      else invalid.push({ index, error: outgoing.error });
    }
    if (invalid.length > 0) return { ok: false, invalid };
    // The caller's last look, once everything is made: nothing goes that was stopped meanwhile. A
    // look that fails is a "no": nothing is sent, and the caller looks again.
    if (lastLook && !(await lastLook().catch(() => false))) return { ok: false, lastLook: false };
    return deliverBatch(this.env.DB, config, made, batchKey);
  }

  /**
   * The in-app preview of a reminder (app/routes/schedule.preview.ts): rendered here, so the app
   * Worker carries no e-mail renderer. Nothing is sent. Throws on a render error.
   */
  async renderReminderPreview(props: ReminderEmailProps): Promise<{ subject: string; html: string; text: string }> {
    return renderReminder(props);
  }

  /**
   * Dunly's own text of a step in a language, as the user's text editor starts it (decisions/056):
   * made here, beside the copy in five languages, so the app Worker carries none of it.
   */
  async dunlyStepText(template: TemplateId, tone: number, language: Language): Promise<StepText> {
    return dunlyStepText(template, tone, language);
  }

  /**
   * The debtor's statement as a PDF (their page's download): laid out here, beside the e-mails, so
   * the app Worker carries no PDF library. Throws on a render error.
   */
  async renderStatementPdf(doc: StatementDocument): Promise<Uint8Array> {
    // Evaluated on the first statement, not when an isolate starts to send e-mails.
    const { renderStatementPdf } = await import("../../emails/statement-pdf");
    return renderStatementPdf(doc);
  }

  /**
   * The user's sending domain at the provider (docs/decisions/059-sending-domains.md): create it
   * (its DNS records come back), read it, ask the provider to check its DNS again, remove it. Each
   * answers a result, never throws; without RESEND_API_KEY development and test are answered by the
   * local stand-in, production fails.
   */
  /** Dunly's own From address (MAIL_FROM_ADDRESS): Settings says which address mail goes from. */
  async defaultFromAddress(): Promise<string> {
    return readMailConfig(this.env).MAIL_FROM_ADDRESS;
  }

  async createDomain(name: string): Promise<DomainResult> {
    return createDomain(this.env.DB, readMailConfig(this.env), name);
  }

  async getDomain(id: string): Promise<DomainResult> {
    return getDomain(this.env.DB, readMailConfig(this.env), id);
  }

  async verifyDomain(id: string): Promise<DomainResult> {
    return verifyDomain(this.env.DB, readMailConfig(this.env), id);
  }

  async removeDomain(id: string): Promise<DomainRemoveResult> {
    return removeDomain(this.env.DB, readMailConfig(this.env), id);
  }

  async fetch() {
    return new Response("Dunly mail Worker: RPC only", { status: 404 });
  }
}

export default MailWorker;
