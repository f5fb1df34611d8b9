import { type StepChannel, sendsEmail, sendsText } from "./cadence";

/**
 * Whether a step's text may go, and what the occurrence sends instead when it may not: the rules
 * the claim applies when it writes an occurrence's deliveries and the consumer re-checks before
 * each text leaves (a compliance officer's list: nobody is texted without consent, after STOP, to a
 * country the account did not enable, or past the plan's allowance). Pure and client-safe; the
 * facts come from the debtor's row (phone, consent), text_opt_outs, text_settings, the Twilio
 * configuration and text_usage.
 */

export interface TextReachFacts {
  /** Twilio is configured (or the local stand-in in development and tests): false hides the channel. */
  configured: boolean;
  /** The account's Settings → Text messages switch. */
  enabled: boolean;
  /** The debtor's mobile in E.164, null: none. */
  phone: string | null;
  /** When the user confirmed they may text this debtor; null: never, or ended (a new number, STOP). */
  consentAt: number | null;
  /** The number said STOP (or the user or the carrier ended it): a text_opt_outs row. */
  optedOut: boolean;
  /** The number's country is one the account enables (app/domain/phone.ts textAllowedTo). */
  countryEnabled: boolean;
}

/** Why a debtor cannot be texted, most basic first (the first that applies is the one shown). */
export type NoTextReason = "off" | "no-number" | "no-consent" | "opted-out" | "country";

export const NO_TEXT_MESSAGES: Readonly<Record<NoTextReason, string>> = {
  off: "Text messages are off for this account",
  "no-number": "The debtor has no mobile number",
  "no-consent": "You have not confirmed you may text this debtor",
  "opted-out": "The debtor's number replied STOP",
  country: "Texts to the debtor's country are not enabled in Settings → Text messages",
};

/** null: the debtor may be texted; else why not. */
export function noTextReason(f: TextReachFacts): NoTextReason | null {
  if (!f.configured || !f.enabled) return "off";
  if (!f.phone) return "no-number";
  // STOP wins over any consent, whenever either was recorded.
  if (f.optedOut) return "opted-out";
  if (f.consentAt === null) return "no-consent";
  if (!f.countryEnabled) return "country";
  return null;
}

/** The plan's monthly texts and how many this month's claims took (text_usage). */
export interface TextAllowance {
  monthlyTexts: number;
  used: number;
}

export function allowanceLeft(a: TextAllowance): boolean {
  return a.used < a.monthlyTexts;
}

/**
 * What one occurrence sends, given its step's channel (app/domain/cadence.ts pointChannel):
 * - `email`: whether the e-mail goes now;
 * - `text`: 'send' now; 'none' (the step has no text, or the debtor cannot be texted: the e-mail
 *   goes instead, so a step is never silently dropped); 'held': a text-only step past the month's
 *   allowance waits (deferred to the next month, the user told) rather than going as an e-mail
 *   nobody chose; 'skipped': a step that sends both goes by e-mail and its text is recorded
 *   'skipped' with why (a text a month late next to later steps would mislead the debtor);
 * - `note`: what the delivery and the timeline say when the step goes otherwise than chosen.
 */
export interface StepSend {
  email: boolean;
  text: "send" | "none" | "held" | "skipped";
  note: string | null;
}

export const ALLOWANCE_NOTE = "this month's text messages are used up";

export function stepSend(channel: StepChannel, reach: TextReachFacts, allowance: TextAllowance): StepSend {
  if (!sendsText(channel)) return { email: true, text: "none", note: null };
  const reason = noTextReason(reach);
  if (reason) return { email: true, text: "none", note: `Sent by e-mail only: ${NO_TEXT_MESSAGES[reason]}.` };
  if (!allowanceLeft(allowance)) {
    return sendsEmail(channel)
      ? { email: true, text: "skipped", note: `Sent by e-mail only: ${ALLOWANCE_NOTE}.` }
      : { email: false, text: "held", note: `The text waits: ${ALLOWANCE_NOTE}.` };
  }
  return { email: sendsEmail(channel), text: "send", note: null };
}
