import { WorkerEntrypoint } from "cloudflare:workers";
import { render, toPlainText } from "@react-email/render";
import { createElement } from "react";
import type { ReminderEmailProps } from "../../emails/reminder";
import { renderReminder } from "../../emails/render-reminder";
import SignInEmail, { signInSubject } from "../../emails/sign-in";
import { readMailConfig } from "./config";
import { deliver, type SendResult } from "./send";

export type { SendResult } from "./send";

/** A typed reminder: what to render and who it goes to. */
export interface ReminderMessage extends ReminderEmailProps {
  /** The debtor's address. */
  to: string;
}

/** The mail Worker: the only code that talks to the e-mail provider. */
export class MailWorker extends WorkerEntrypoint<MailEnv> {
  /** The magic-link e-mail. */
  async sendSignInLink(input: { to: string; url: string; expiresInMinutes: number }): Promise<SendResult> {
    const config = readMailConfig(this.env);
    const element = createElement(SignInEmail, { url: input.url, expiresInMinutes: input.expiresInMinutes });
    const html = await render(element);
    return deliver(this.env.DB, config, {
      to: input.to,
      fromName: "Dunly",
      subject: signInSubject,
      html,
      text: toPlainText(html),
    });
  }

  /**
   * A payment reminder, rendered from emails/ and sent with the occurrence key as Idempotency-Key.
   * From shows the sender's name at our fixed address; replies go to the sender.
   */
  async sendReminder(message: ReminderMessage, idempotencyKey: string): Promise<SendResult> {
    const config = readMailConfig(this.env);
    let rendered: { subject: string; html: string; text: string };
    try {
      rendered = await renderReminder(message);
    } catch (error) {
      return { ok: false, retryable: false, status: null, error: `Render: ${(error as Error).message}`, attempts: 0 };
    }
    return deliver(
      this.env.DB,
      config,
      { to: message.to, fromName: message.senderName, replyTo: message.senderEmail, ...rendered },
      idempotencyKey,
    );
  }

  async fetch() {
    return new Response("Dunly mail Worker: RPC only", { status: 404 });
  }
}

export default MailWorker;
