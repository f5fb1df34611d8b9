import { bankTransfersFor } from "~/bank/index.server";
import type { Db } from "~/db/client.server";
import { withLogoOrigin } from "~/domain/brand";
import { debtorLanguage } from "~/domain/languages";
import type { TemplateId } from "~/domain/presets";
import { toTone } from "~/domain/strategies";
import { optOutLink, paidClaimLink, portalLink, replyAddress } from "~/links/index.server";
import { linkOrigin, readConfig } from "~/platform/config.server";
import { stripeSetup } from "~/stripe/index.server";
import { debtorValues, type ReminderMessage, reminderMessage, reminderProps } from "../../emails/reminder-message";
import type { MessageParts } from "./firing.server";

/**
 * The reminder of a claimed delivery, built by the mail queue's consumer just before its batch is
 * written (docs/decisions/024): its template and tone, the debtor's statement as it is now (open
 * invoices and totals, today in the debtor's zone at `now`), header-safe names, the signed opt-out,
 * "I've paid" and portal links and the reply address. `repeats`: whether the copy announces more
 * reminders. Throws when no opt-out link can be made (no signing secret): never a reminder without one.
 */
export async function buildReminder(
  env: Env,
  db: Db,
  parts: MessageParts,
  repeats: boolean,
  now: number,
): Promise<ReminderMessage> {
  const { debtor, user, org, statement } = parts;
  const config = readConfig(env);
  const [unsubscribeUrl, paidUrl, portalUrl, replyTo] = await Promise.all([
    optOutLink(db, config, debtor),
    paidClaimLink(db, config, debtor),
    portalLink(db, config, debtor),
    // Replies come home (decisions/020): Reply-To is the debtor's reply address when configured.
    replyAddress(db, config, debtor),
  ]);
  const choice = {
    template: parts.template as TemplateId,
    tone: toTone(parts.tone),
    // The copy announces further reminders only when some follow (reminderProps reads it off the frequency).
    frequency: repeats ? parts.frequency : ("now" as const),
  };
  // The user's own words for this step in the debtor's language, else Dunly's (decisions/056).
  const language = debtorLanguage(debtor.language, user.locale);
  const custom = parts.texts.find((t) => t.language === language);
  const props = reminderProps(choice, user, org, debtorValues(debtor, statement, now, parts.firstContact), language);
  const message = {
    custom: custom ? { subject: custom.subject, body: custom.body } : null,
    // From the user's own domain while it is verified, else Dunly's address (decisions/059).
    fromAddress: parts.fromAddress,
    // The debtor's other contacts that may get a copy now (decisions/057); re-checked at every attempt.
    ...(parts.copies.length > 0 ? { cc: parts.copies } : {}),
    ...reminderMessage(
      // The logo as mail clients fetch it: an absolute URL (docs/decisions/058).
      { ...props, brand: props.brand && withLogoOrigin(props.brand, linkOrigin(config)) },
      debtor.email,
      { unsubscribeUrl, paidUrl, portalUrl },
    ),
    // Bank transfer in each currency the statement is in, with the reference for its invoices (decisions/051).
    // The listed invoices, and the currency of any total beyond them (a statement lists at most 50).
    bankTransfer: bankTransfersFor(
      parts.bankAccounts,
      [
        ...statement.lines,
        ...statement.totals.map((t) => ({ number: null, currency: t.currency })),
        // A currency only late-payment charges are owed in (decisions/067).
        ...(statement.charges?.totals ?? []).map((t) => ({ number: null, currency: t.currency })),
      ],
      debtor.fullName,
    ),
  };
  // Paid online on the user's own Stripe account (decisions/018): Pay now starts Checkout for the
  // signed debtor; else the sender's payment page, as before.
  if (parts.chargeable && stripeSetup(config, env)) return { ...message, replyTo, payUrl: `${portalUrl}/pay` };
  return { ...message, replyTo };
}
