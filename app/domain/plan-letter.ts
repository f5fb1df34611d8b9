import type { MessageBrand } from "./brand";
import { type Catalogues, translator } from "./i18n";
import { DEFAULT_LANGUAGE, type Language } from "./languages";

/**
 * The debtor's e-mails about a payment plan (decisions/066), in their language: the confirmation of
 * an agreed plan listing every date and amount, the user's offer of a plan, a declined request, the
 * gentle reminder before an instalment's date, the nudge after it, and the end of a plan that broke.
 * Recorded and sent once each (sendRecorded, its key per plan, instalment and kind) by the mail
 * Worker's `sendPlanLetter`. Pure: the message, its subject and paragraphs; amounts and dates come
 * already written in the debtor's locale.
 */

export type PlanLetterKind = "confirmed" | "offered" | "declined" | "before" | "after" | "broken";

export interface PlanLetterMessage {
  to: string;
  senderName: string;
  /** The user's address: the debtor's answer goes to them. */
  replyTo: string;
  /** The user's verified sending domain's address, set as it is sent; absent or null: Dunly's. */
  fromAddress?: string | null;
  debtorName: string;
  kind: PlanLetterKind;
  /** The plan's total, written out ("€1,200.00"). */
  total: string;
  /** Every instalment, written out: its date and amount. */
  instalments: { date: string; amount: string }[];
  /** The instalment the letter is about (before, after): its date and what is still to pay on it. */
  due?: { date: string; amount: string } | null;
  /** The user's message with a decline; empty: none. */
  note?: string;
  portalUrl: string;
  language?: Language;
  brand?: MessageBrand | null;
}

const EN = {
  confirmedSubject: "Your payment plan with {senderName}",
  confirmedIntro: "Your payment plan with {senderName} for {total} is agreed. Please pay on these dates:",
  confirmedAfter:
    "Reminders of these invoices stop while you pay as agreed. If an instalment is not paid, the plan may end and the full amount becomes due again.",
  offeredSubject: "{senderName} offers you a payment plan",
  offeredIntro: "{senderName} offers to let you pay {total} in instalments, on these dates:",
  offeredAfter: "You can accept or decline the plan on your page.",
  declinedSubject: "About your payment plan request to {senderName}",
  declinedIntro: "{senderName} could not agree to the payment plan you asked for. What is open stays due.",
  declinedNote: "Their message: {note}",
  beforeSubject: "Your instalment to {senderName} is due on {date}",
  beforeIntro:
    "A friendly reminder: the instalment of {amount} of your payment plan with {senderName} is due on {date}.",
  afterSubject: "Your instalment to {senderName} is overdue",
  afterIntro:
    "The instalment of {amount} of your payment plan with {senderName}, due on {date}, has not been received yet. Please pay it soon to keep your plan.",
  brokenSubject: "Your payment plan with {senderName} has ended",
  brokenIntro:
    "Your payment plan with {senderName} has ended because an instalment was not paid. The full amount is due again.",
  hello: "Hello {debtorName},",
  line: "{date}: {amount}",
  open: "View the plan and pay",
  footer: "You get this e-mail about a payment plan with {senderName}.",
} as const;
type Key = keyof typeof EN;

const DE: Record<Key, string> = {
  confirmedSubject: "Ihr Ratenplan mit {senderName}",
  confirmedIntro: "Ihr Ratenplan mit {senderName} über {total} ist vereinbart. Bitte zahlen Sie zu diesen Terminen:",
  confirmedAfter:
    "Erinnerungen zu diesen Rechnungen ruhen, solange Sie wie vereinbart zahlen. Wird eine Rate nicht bezahlt, kann der Plan enden und der volle Betrag wird wieder fällig.",
  offeredSubject: "{senderName} bietet Ihnen einen Ratenplan an",
  offeredIntro: "{senderName} bietet Ihnen an, {total} in Raten zu zahlen, zu diesen Terminen:",
  offeredAfter: "Sie können den Plan auf Ihrer Seite annehmen oder ablehnen.",
  declinedSubject: "Zu Ihrer Anfrage nach einem Ratenplan bei {senderName}",
  declinedIntro: "{senderName} konnte dem erbetenen Ratenplan nicht zustimmen. Der offene Betrag bleibt fällig.",
  declinedNote: "Die Nachricht dazu: {note}",
  beforeSubject: "Ihre Rate an {senderName} ist am {date} fällig",
  beforeIntro:
    "Eine freundliche Erinnerung: Die Rate von {amount} Ihres Ratenplans mit {senderName} ist am {date} fällig.",
  afterSubject: "Ihre Rate an {senderName} ist überfällig",
  afterIntro:
    "Die Rate von {amount} Ihres Ratenplans mit {senderName}, fällig am {date}, ist noch nicht eingegangen. Bitte zahlen Sie sie bald, damit Ihr Plan bestehen bleibt.",
  brokenSubject: "Ihr Ratenplan mit {senderName} ist beendet",
  brokenIntro:
    "Ihr Ratenplan mit {senderName} ist beendet, weil eine Rate nicht bezahlt wurde. Der volle Betrag ist wieder fällig.",
  hello: "Guten Tag {debtorName},",
  line: "{date}: {amount}",
  open: "Plan ansehen und bezahlen",
  footer: "Sie erhalten diese E-Mail zu einem Ratenplan mit {senderName}.",
};

const FR: Record<Key, string> = {
  confirmedSubject: "Votre échéancier avec {senderName}",
  confirmedIntro: "Votre échéancier avec {senderName} pour {total} est convenu. Merci de payer aux dates suivantes :",
  confirmedAfter:
    "Les relances de ces factures s’arrêtent tant que vous payez comme convenu. Si une échéance n’est pas payée, l’échéancier peut prendre fin et la totalité redevient exigible.",
  offeredSubject: "{senderName} vous propose un échéancier",
  offeredIntro: "{senderName} vous propose de payer {total} en plusieurs fois, aux dates suivantes :",
  offeredAfter: "Vous pouvez accepter ou refuser l’échéancier sur votre page.",
  declinedSubject: "Votre demande d’échéancier auprès de {senderName}",
  declinedIntro: "{senderName} n’a pas pu accepter l’échéancier demandé. Le montant ouvert reste dû.",
  declinedNote: "Son message : {note}",
  beforeSubject: "Votre échéance pour {senderName} est due le {date}",
  beforeIntro: "Petit rappel : l’échéance de {amount} de votre échéancier avec {senderName} est due le {date}.",
  afterSubject: "Votre échéance pour {senderName} est en retard",
  afterIntro:
    "L’échéance de {amount} de votre échéancier avec {senderName}, due le {date}, n’a pas encore été reçue. Merci de la régler rapidement pour conserver votre échéancier.",
  brokenSubject: "Votre échéancier avec {senderName} a pris fin",
  brokenIntro:
    "Votre échéancier avec {senderName} a pris fin car une échéance n’a pas été payée. La totalité est de nouveau due.",
  hello: "Bonjour {debtorName},",
  line: "{date} : {amount}",
  open: "Voir l’échéancier et payer",
  footer: "Vous recevez cet e-mail au sujet d’un échéancier avec {senderName}.",
};

const ES: Record<Key, string> = {
  confirmedSubject: "Su plan de pagos con {senderName}",
  confirmedIntro: "Su plan de pagos con {senderName} por {total} está acordado. Pague en estas fechas:",
  confirmedAfter:
    "Los recordatorios de estas facturas se detienen mientras pague lo acordado. Si un plazo no se paga, el plan puede terminar y el importe total vuelve a ser exigible.",
  offeredSubject: "{senderName} le ofrece un plan de pagos",
  offeredIntro: "{senderName} le ofrece pagar {total} a plazos, en estas fechas:",
  offeredAfter: "Puede aceptar o rechazar el plan en su página.",
  declinedSubject: "Sobre su solicitud de plan de pagos a {senderName}",
  declinedIntro: "{senderName} no ha podido aceptar el plan de pagos solicitado. Lo pendiente sigue vencido.",
  declinedNote: "Su mensaje: {note}",
  beforeSubject: "Su plazo para {senderName} vence el {date}",
  beforeIntro: "Un recordatorio amable: el plazo de {amount} de su plan de pagos con {senderName} vence el {date}.",
  afterSubject: "Su plazo para {senderName} está vencido",
  afterIntro:
    "El plazo de {amount} de su plan de pagos con {senderName}, con vencimiento el {date}, aún no se ha recibido. Páguelo pronto para mantener su plan.",
  brokenSubject: "Su plan de pagos con {senderName} ha terminado",
  brokenIntro:
    "Su plan de pagos con {senderName} ha terminado porque un plazo no se pagó. El importe total vuelve a ser exigible.",
  hello: "Hola, {debtorName}:",
  line: "{date}: {amount}",
  open: "Ver el plan y pagar",
  footer: "Recibe este correo por un plan de pagos con {senderName}.",
};

const NL: Record<Key, string> = {
  confirmedSubject: "Uw betalingsregeling met {senderName}",
  confirmedIntro: "Uw betalingsregeling met {senderName} voor {total} is afgesproken. Betaal op deze data:",
  confirmedAfter:
    "Herinneringen voor deze facturen stoppen zolang u betaalt zoals afgesproken. Wordt een termijn niet betaald, dan kan de regeling eindigen en is het volledige bedrag weer verschuldigd.",
  offeredSubject: "{senderName} biedt u een betalingsregeling aan",
  offeredIntro: "{senderName} biedt u aan {total} in termijnen te betalen, op deze data:",
  offeredAfter: "U kunt de regeling op uw pagina aannemen of afwijzen.",
  declinedSubject: "Over uw verzoek om een betalingsregeling bij {senderName}",
  declinedIntro:
    "{senderName} kon niet instemmen met de gevraagde betalingsregeling. Wat openstaat, blijft verschuldigd.",
  declinedNote: "Het bericht daarbij: {note}",
  beforeSubject: "Uw termijn aan {senderName} vervalt op {date}",
  beforeIntro:
    "Een vriendelijke herinnering: de termijn van {amount} van uw betalingsregeling met {senderName} vervalt op {date}.",
  afterSubject: "Uw termijn aan {senderName} is te laat",
  afterIntro:
    "De termijn van {amount} van uw betalingsregeling met {senderName}, te betalen op {date}, is nog niet ontvangen. Betaal deze snel om uw regeling te behouden.",
  brokenSubject: "Uw betalingsregeling met {senderName} is beëindigd",
  brokenIntro:
    "Uw betalingsregeling met {senderName} is beëindigd omdat een termijn niet is betaald. Het volledige bedrag is weer verschuldigd.",
  hello: "Beste {debtorName},",
  line: "{date}: {amount}",
  open: "Regeling bekijken en betalen",
  footer: "U ontvangt deze e-mail over een betalingsregeling met {senderName}.",
};

export const PLAN_LETTER_COPY: Catalogues<Key> = { en: EN, de: DE, fr: FR, es: ES, nl: NL };

const text = (language: Language | undefined) => translator(PLAN_LETTER_COPY, language ?? DEFAULT_LANGUAGE, "en");

export function planLetterSubject(m: Pick<PlanLetterMessage, "kind" | "senderName" | "language" | "due">): string {
  return text(m.language)(`${m.kind}Subject`, { senderName: m.senderName, date: m.due?.date ?? "" });
}

/** The letter's words, shared by its HTML and plain text: greeting, paragraphs, the dates listed, the button. */
export function planLetterText(m: Omit<PlanLetterMessage, "to" | "replyTo" | "portalUrl">) {
  const t = text(m.language);
  const values = { senderName: m.senderName, total: m.total, date: m.due?.date ?? "", amount: m.due?.amount ?? "" };
  const lists = m.kind === "confirmed" || m.kind === "offered";
  const after =
    m.kind === "confirmed"
      ? t("confirmedAfter")
      : m.kind === "offered"
        ? t("offeredAfter")
        : m.kind === "declined" && m.note
          ? t("declinedNote", { note: m.note })
          : null;
  return {
    hello: t("hello", { debtorName: m.debtorName }),
    intro: t(`${m.kind}Intro`, values),
    lines: lists ? m.instalments.map((i) => t("line", i)) : [],
    after,
    button: t("open"),
    footer: t("footer", { senderName: m.senderName }),
  };
}
