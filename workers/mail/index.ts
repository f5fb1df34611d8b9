import { render, toPlainText } from "@react-email/render";
import { WorkerEntrypoint } from "cloudflare:workers";
import { createElement } from "react";
import { Resend } from "resend";
import SignInEmail, { signInSubject } from "../../emails/sign-in";

export interface OutgoingMessage {
  to: string;
  /** Display name for the From header; the address is always MAIL_FROM_ADDRESS. */
  fromName: string;
  replyTo?: string | null;
  subject: string;
  html: string;
  text: string;
}

export interface SendResult {
  id: string | null;
  /** 'outbox' when no provider is configured (local development and tests). */
  via: "resend" | "outbox";
}

/** Header values must be one line: CR/LF would let a name inject headers. */
export function assertHeaderSafe(value: string, field: string) {
  if (/[\r\n]/.test(value)) throw new Error(`${field} must not contain line breaks`);
}

/** `"Name" <address>` with the name's quotes and backslashes escaped. */
export function formatAddress(name: string, address: string) {
  assertHeaderSafe(name, "Sender name");
  const quoted = name.replace(/["\\]/g, "\\$&");
  return quoted ? `"${quoted}" <${address}>` : address;
}

/** Sends through Resend when RESEND_API_KEY is set, otherwise stores the message in the dev outbox. */
export async function deliver(env: MailEnv, message: OutgoingMessage, idempotencyKey?: string): Promise<SendResult> {
  assertHeaderSafe(message.to, "Recipient");
  assertHeaderSafe(message.subject, "Subject");
  if (message.replyTo) assertHeaderSafe(message.replyTo, "Reply-To");
  const from = formatAddress(message.fromName, env.MAIL_FROM_ADDRESS);
  if (!env.RESEND_API_KEY) {
    await env.DB.prepare("INSERT INTO dev_outbox (\"to\", \"from\", reply_to, subject, html, text, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
      .bind(message.to, from, message.replyTo ?? null, message.subject, message.html, message.text, Date.now())
      .run();
    return { id: null, via: "outbox" };
  }
  const resend = new Resend(env.RESEND_API_KEY, { baseUrl: env.RESEND_BASE_URL });
  const { data, error } = await resend.emails.send(
    {
      from,
      to: [message.to],
      replyTo: message.replyTo ?? undefined,
      subject: message.subject,
      html: message.html,
      text: message.text,
    },
    idempotencyKey ? { idempotencyKey } : undefined,
  );
  if (error) throw new Error(`Resend: ${error.message}`);
  return { id: data?.id ?? null, via: "resend" };
}

/** The mail Worker: the only code that talks to the e-mail provider (DESIGN §1, §5). */
export class MailWorker extends WorkerEntrypoint<MailEnv> {
  /** The magic-link e-mail. */
  async sendSignInLink(input: { to: string; url: string; expiresInMinutes: number }): Promise<SendResult> {
    const element = createElement(SignInEmail, { url: input.url, expiresInMinutes: input.expiresInMinutes });
    const html = await render(element);
    return deliver(this.env, {
      to: input.to,
      fromName: "Dunly",
      subject: signInSubject,
      html,
      text: toPlainText(html),
    });
  }

  async fetch() {
    return new Response("Dunly mail Worker: RPC only", { status: 404 });
  }
}

export default MailWorker;
