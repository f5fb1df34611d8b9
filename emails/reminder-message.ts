import type { MessageBrand } from "../app/domain/brand";
import { debtorLanguage, debtorLocale, type Language } from "../app/domain/languages";
import type { TemplateId } from "../app/domain/presets";
import { frequencyRepeats, reminderReceiver, reminderSender } from "../app/domain/sender";
import { type Statement, todayIn } from "../app/domain/statement";
import type { Tone } from "../app/domain/strategies";
import type { ReminderEmailProps } from "./reminder";
import { REMINDER_SAMPLE } from "./reminder-sample";

/**
 * The one builder of a reminder's values: the engine's reminder, the
 * test send and the in-app preview all come from `reminderProps`, so the preview shows what would
 * be sent. Plain data and pure functions (the template is imported for its type only): the app
 * Worker takes this module without react-email; only the mail Worker renders.
 */

/** A typed reminder: what to render and who it goes to (the mail Worker's `sendReminder` takes it). */
export interface ReminderMessage extends ReminderEmailProps {
  /** The debtor's address (a test send: the user's own). */
  to: string;
  /**
   * The debtor's other contacts copied on it (decisions/057): only addresses that may receive it
   * (CC on, not opted out, not bouncing), re-checked at every attempt. Absent: none.
   */
  cc?: string[];
  /**
   * The debtor's signed opt-out link (app/links/signed-links.server.ts `optOutLink`): shown in the footer
   * and sent as List-Unsubscribe with one-click List-Unsubscribe-Post (RFC 8058). Required: no
   * reminder leaves without one.
   */
  unsubscribeUrl: string;
  /**
   * The sender's payment page (the organization's when sent as one, else the user's): the 'Pay
   * now' button. Null: no button.
   */
  payUrl: string | null;
  /** The debtor's signed "I've paid" page (app/responses/paid-claims.server.ts `paidClaimLink`). */
  paidUrl: string;
  /** The debtor's signed page: their statement and answers (app/links/debtor-pages.server.ts `portalLink`). */
  portalUrl: string;
  /**
   * Where replies go: the debtor's reply address on INBOUND_DOMAIN (app/links/signed-links.server.ts
   * `replyAddress`, decisions/020). Absent or null: the sender's own address, as before.
   */
  replyTo?: string | null;
  /**
   * The From address while the user's own domain is verified (docs/decisions/059-sending-domains.md),
   * read with the batch; absent or null: Dunly's address (MAIL_FROM_ADDRESS).
   */
  fromAddress?: string | null;
  /** Put before the subject, e.g. "[Test] " for a test send to the user's own address. */
  subjectPrefix?: string;
}

/**
 * Which reminder: its template and tone, and whether more follow. (No due date: each invoice on
 * the statement has its own.)
 */
export interface ReminderChoice {
  template: TemplateId;
  tone: Tone;
  /** The schedule's frequency: only a daily or weekly one announces further reminders. */
  frequency: string;
}

interface SenderValues {
  fullName: string;
  email: string;
  paymentUrl: string | null;
  /** The user's number and date format (users.locale); none: the default. */
  locale?: string | null;
  /** Their brand (docs/decisions/058); its name becomes the reminder's sender's. None: Dunly's look. */
  brand?: MessageBrand | null;
}
interface OrganizationValues {
  name: string;
  address: string;
  paymentUrl: string | null;
}
/** The debtor's side of a reminder: their name, their statement, and today in their zone. */
export interface DebtorValues {
  fullName: string;
  /** The primary contact's name (decisions/057): the greeting's; none: the debtor's name. */
  contactName?: string | null;
  /** Their open invoices as app/reminders/statement.server.ts loads them (the first ones, and all totals). */
  statement: Statement;
  /** "YYYY-MM-DD" in the debtor's time zone: what "12 days overdue" counts from. */
  today: string;
  /** No reminder reached them before: the copy speaks of no earlier one. */
  firstContact?: boolean;
  /** Their language as stored (debtors.language); null: the user's (app/domain/languages.ts debtorLanguage). */
  language?: string | null;
}

/**
 * A debtor's values at `now`, the same for the engine, the test send and the preview: today is
 * the date in the debtor's own zone.
 */
export function debtorValues(
  debtor: {
    fullName: string;
    contactName?: string | null;
    timeZone: string | null | undefined;
    language?: string | null;
  },
  statement: Statement,
  now: number,
  firstContact = false,
): DebtorValues {
  return {
    fullName: debtor.fullName,
    contactName: debtor.contactName ?? null,
    statement,
    today: todayIn(debtor.timeZone, now),
    firstContact,
    language: debtor.language ?? null,
  };
}

/**
 * A reminder's values for a choice: the debtor's name and statement (without a debtor, the
 * sample's two-invoice statement); the sender (the organization when sent as one, else the user)
 * with their payment page (without a user, the sample sender and no payment page); and whether
 * more reminders follow. Written in `language` when given (the text editor's), else the debtor's
 * (their own, else the user's), its dates and amounts in that language's locale (debtorLocale).
 */
export function reminderProps(
  choice: ReminderChoice,
  user: SenderValues | undefined,
  org: OrganizationValues | undefined,
  debtor?: DebtorValues,
  language?: Language | null,
) {
  const written = language ?? debtorLanguage(debtor?.language, user?.locale);
  const receiver = debtor
    ? reminderReceiver(debtor)
    : {
        receiverName: REMINDER_SAMPLE.receiverName,
        statement: REMINDER_SAMPLE.statement.map((line) => ({ ...line })),
        statementTotals: null,
        today: REMINDER_SAMPLE.today,
      };
  const sender = user
    ? reminderSender(user, org)
    : {
        senderName: REMINDER_SAMPLE.senderName,
        senderEmail: REMINDER_SAMPLE.senderEmail,
        senderCompany: null,
        payUrl: null,
      };
  return {
    template: choice.template,
    tone: choice.tone,
    ...receiver,
    ...sender,
    language: written,
    locale: debtorLocale(written, user?.locale),
    repeats: frequencyRepeats(choice.frequency),
    // The brand speaks with the sender's name (the organization's when sent as one).
    brand: user?.brand ? { ...user.brand, name: sender.senderName } : null,
  } satisfies ReminderEmailProps;
}

/** The sample opt-out, "I've paid" and debtor's page links the preview shows (every reminder has them). */
export const SAMPLE_LINKS = {
  unsubscribeUrl: REMINDER_SAMPLE.unsubscribeUrl,
  paidUrl: REMINDER_SAMPLE.paidUrl,
  portalUrl: REMINDER_SAMPLE.portalUrl,
};

/** The message to send: a reminder's values, its address and its links. */
export function reminderMessage(
  props: ReturnType<typeof reminderProps>,
  to: string,
  links: { unsubscribeUrl: string; paidUrl: string; portalUrl: string },
  subjectPrefix?: string,
): ReminderMessage {
  return { ...props, to, ...links, ...(subjectPrefix ? { subjectPrefix } : {}) };
}
