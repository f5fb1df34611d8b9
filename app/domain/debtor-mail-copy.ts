import { type Catalogues, translator } from "./i18n";
import { DEFAULT_LANGUAGE, debtorLanguage, debtorLocale, type Language } from "./languages";

/**
 * What Dunly writes to a debtor besides the reminder (decisions/055): the receipt of a payment
 * online, the answer to a payment they said they made that was not found, and the statement PDF
 * from their page, in each of LANGUAGES as ICU messages. English is the source; a test checks
 * every language has its keys and arguments (catalogueProblems). Values are plain text.
 */
const EN = {
  receiptSubject: "Receipt: {amount} paid to {senderName}",
  receiptPreview: "Thank you: {senderName} has received {amount}.",
  receiptFooter: "You get this e-mail because you paid online. Keep it for your records.",
  receiptHeading: "Payment received",
  receiptBody: "Hello {debtorName}, thank you: {senderName} has received your payment of {amount} on {paidOn}.",
  reference: "Reference: {reference}",
  viewStatement: "View your statement",
  claimSubject: "About your payment to {senderName}",
  claimPreview: "{senderName} has not found your payment of {claimed} yet.",
  claimFooter: "You get this e-mail because you told the sender you had paid.",
  claimHeading: "Payment not found yet",
  claimHello: "Hello {debtorName},",
  claimThanks: "Thank you for letting {senderName} know that you paid {claimed}.",
  claimThanksFor: "Thank you for letting {senderName} know that you paid {claimed} for {invoices}.",
  claimNotFound:
    "{senderName} has not been able to find this payment yet, so the {what, select, invoice {invoice remains} other {amount remains}} open and reminders continue.",
  claimNext:
    "If you have paid, please reply to this e-mail with a proof of payment (a bank statement or transfer confirmation), and it will be matched as soon as possible. If not, you can see what is open and the ways to pay on your statement.",
  claimYourPayment: "your payment",
  claimOn: "on {date}",
  claimReference: "(reference {reference})",
  anInvoice: "an invoice",
  statementFrom: "Statement from {sender}",
  statementFor: "For {debtorName}",
  statementAsOf: "As of {date}",
  invoiceHeading: "Invoice",
  issuedHeading: "Issued",
  dueHeading: "Due",
  balanceHeading: "Balance",
  nothingOpen: "Nothing is open. Thank you.",
  payByBank: "Pay by bank transfer",
  payByBankIn: "Pay by bank transfer ({currency})",
  payOnline: "Pay online, tell us you have paid, or ask a question on your page:",
  invoiceNoNumber: "Invoice",
  disputed: "Disputed",
  beingChecked: "Paid, being checked",
  open: "Open",
  overdue: "Overdue · {count, plural, one {# day} other {# days}}",
  totalOwed: "Total still owed: {amount}",
} as const;
export type DebtorMailKey = keyof typeof EN;

const DE: Record<DebtorMailKey, string> = {
  receiptSubject: "Quittung: {amount} an {senderName} bezahlt",
  receiptPreview: "Vielen Dank: {senderName} hat {amount} erhalten.",
  receiptFooter:
    "Sie erhalten diese E-Mail, weil Sie online bezahlt haben. Bitte bewahren Sie sie für Ihre Unterlagen auf.",
  receiptHeading: "Zahlung erhalten",
  receiptBody: "Guten Tag {debtorName}, vielen Dank: {senderName} hat Ihre Zahlung von {amount} am {paidOn} erhalten.",
  reference: "Referenz: {reference}",
  viewStatement: "Ihre Aufstellung ansehen",
  claimSubject: "Zu Ihrer Zahlung an {senderName}",
  claimPreview: "{senderName} hat Ihre Zahlung von {claimed} noch nicht gefunden.",
  claimFooter: "Sie erhalten diese E-Mail, weil Sie dem Absender mitgeteilt haben, dass Sie bezahlt haben.",
  claimHeading: "Zahlung noch nicht gefunden",
  claimHello: "Guten Tag {debtorName},",
  claimThanks: "vielen Dank für Ihre Mitteilung an {senderName}, dass Sie {claimed} bezahlt haben.",
  claimThanksFor: "vielen Dank für Ihre Mitteilung an {senderName}, dass Sie {claimed} für {invoices} bezahlt haben.",
  claimNotFound:
    "{senderName} konnte diese Zahlung bisher nicht finden, daher {what, select, invoice {bleibt die Rechnung} other {bleibt der Betrag}} offen und die Erinnerungen werden fortgesetzt.",
  claimNext:
    "Wenn Sie bezahlt haben, antworten Sie bitte mit einem Zahlungsnachweis (Kontoauszug oder Überweisungsbestätigung) auf diese E-Mail; die Zahlung wird dann so bald wie möglich zugeordnet. Andernfalls sehen Sie in Ihrer Aufstellung, was offen ist und wie Sie bezahlen können.",
  claimYourPayment: "Ihre Zahlung",
  claimOn: "am {date}",
  claimReference: "(Referenz {reference})",
  anInvoice: "eine Rechnung",
  statementFrom: "Aufstellung von {sender}",
  statementFor: "Für {debtorName}",
  statementAsOf: "Stand: {date}",
  invoiceHeading: "Rechnung",
  issuedHeading: "Ausgestellt",
  dueHeading: "Fällig",
  balanceHeading: "Offen",
  nothingOpen: "Es ist nichts offen. Vielen Dank.",
  payByBank: "Zahlung per Banküberweisung",
  payByBankIn: "Zahlung per Banküberweisung ({currency})",
  payOnline: "Online bezahlen, eine Zahlung melden oder eine Frage stellen auf Ihrer Seite:",
  invoiceNoNumber: "Rechnung",
  disputed: "Beanstandet",
  beingChecked: "Bezahlt, wird geprüft",
  open: "Offen",
  overdue: "Überfällig · {count, plural, one {# Tag} other {# Tage}}",
  totalOwed: "Noch offen insgesamt: {amount}",
};

const FR: Record<DebtorMailKey, string> = {
  receiptSubject: "Reçu : {amount} payé à {senderName}",
  receiptPreview: "Merci : {senderName} a bien reçu {amount}.",
  receiptFooter: "Vous recevez cet e-mail parce que vous avez payé en ligne. Conservez-le pour vos archives.",
  receiptHeading: "Paiement reçu",
  receiptBody: "Bonjour {debtorName}, merci : {senderName} a bien reçu votre paiement de {amount} le {paidOn}.",
  reference: "Référence : {reference}",
  viewStatement: "Voir votre relevé",
  claimSubject: "À propos de votre paiement à {senderName}",
  claimPreview: "{senderName} n’a pas encore trouvé votre paiement de {claimed}.",
  claimFooter: "Vous recevez cet e-mail parce que vous avez indiqué à l’expéditeur avoir payé.",
  claimHeading: "Paiement pas encore trouvé",
  claimHello: "Bonjour {debtorName},",
  claimThanks: "Merci d’avoir informé {senderName} que vous avez payé {claimed}.",
  claimThanksFor: "Merci d’avoir informé {senderName} que vous avez payé {claimed} pour {invoices}.",
  claimNotFound:
    "{senderName} n’a pas encore pu retrouver ce paiement : {what, select, invoice {la facture reste donc ouverte} other {le montant reste donc dû}} et les rappels se poursuivent.",
  claimNext:
    "Si vous avez payé, merci de répondre à cet e-mail avec un justificatif de paiement (relevé bancaire ou confirmation de virement) ; il sera rapproché dès que possible. Sinon, votre relevé indique ce qui reste dû et les moyens de paiement.",
  claimYourPayment: "votre paiement",
  claimOn: "le {date}",
  claimReference: "(référence {reference})",
  anInvoice: "une facture",
  statementFrom: "Relevé de {sender}",
  statementFor: "Pour {debtorName}",
  statementAsOf: "Au {date}",
  invoiceHeading: "Facture",
  issuedHeading: "Émise le",
  dueHeading: "Échéance",
  balanceHeading: "Solde",
  nothingOpen: "Rien n’est dû. Merci.",
  payByBank: "Payer par virement bancaire",
  payByBankIn: "Payer par virement bancaire ({currency})",
  payOnline: "Payez en ligne, indiquez que vous avez payé ou posez une question sur votre page :",
  invoiceNoNumber: "Facture",
  disputed: "Contestée",
  beingChecked: "Payée, en cours de vérification",
  open: "Ouverte",
  overdue: "En retard · {count, plural, one {# jour} other {# jours}}",
  totalOwed: "Total restant dû : {amount}",
};

const ES: Record<DebtorMailKey, string> = {
  receiptSubject: "Recibo: {amount} pagado a {senderName}",
  receiptPreview: "Gracias: {senderName} ha recibido {amount}.",
  receiptFooter: "Recibe este correo porque pagó en línea. Consérvelo para sus registros.",
  receiptHeading: "Pago recibido",
  receiptBody: "Hola, {debtorName}. Gracias: {senderName} ha recibido su pago de {amount} el {paidOn}.",
  reference: "Referencia: {reference}",
  viewStatement: "Ver su estado de cuenta",
  claimSubject: "Sobre su pago a {senderName}",
  claimPreview: "{senderName} aún no ha encontrado su pago de {claimed}.",
  claimFooter: "Recibe este correo porque indicó al remitente que había pagado.",
  claimHeading: "Pago aún no encontrado",
  claimHello: "Estimado/a {debtorName}:",
  claimThanks: "Gracias por informar a {senderName} de que pagó {claimed}.",
  claimThanksFor: "Gracias por informar a {senderName} de que pagó {claimed} por {invoices}.",
  claimNotFound:
    "{senderName} aún no ha podido encontrar este pago, por lo que {what, select, invoice {la factura sigue pendiente} other {el importe sigue pendiente}} y los recordatorios continúan.",
  claimNext:
    "Si ya pagó, responda a este correo con un justificante de pago (un extracto bancario o la confirmación de la transferencia) y se conciliará lo antes posible. Si no, puede ver lo pendiente y las formas de pago en su estado de cuenta.",
  claimYourPayment: "su pago",
  claimOn: "el {date}",
  claimReference: "(referencia {reference})",
  anInvoice: "una factura",
  statementFrom: "Estado de cuenta de {sender}",
  statementFor: "Para {debtorName}",
  statementAsOf: "A fecha de {date}",
  invoiceHeading: "Factura",
  issuedHeading: "Emitida",
  dueHeading: "Vence",
  balanceHeading: "Saldo",
  nothingOpen: "No hay nada pendiente. Gracias.",
  payByBank: "Pagar por transferencia bancaria",
  payByBankIn: "Pagar por transferencia bancaria ({currency})",
  payOnline: "Pague en línea, indique que ya pagó o haga una pregunta en su página:",
  invoiceNoNumber: "Factura",
  disputed: "En disputa",
  beingChecked: "Pagada, en comprobación",
  open: "Pendiente",
  overdue: "Vencida · {count, plural, one {# día} other {# días}}",
  totalOwed: "Total pendiente: {amount}",
};

const NL: Record<DebtorMailKey, string> = {
  receiptSubject: "Betalingsbewijs: {amount} betaald aan {senderName}",
  receiptPreview: "Bedankt: {senderName} heeft {amount} ontvangen.",
  receiptFooter: "U ontvangt deze e-mail omdat u online hebt betaald. Bewaar hem voor uw administratie.",
  receiptHeading: "Betaling ontvangen",
  receiptBody: "Beste {debtorName}, bedankt: {senderName} heeft uw betaling van {amount} op {paidOn} ontvangen.",
  reference: "Kenmerk: {reference}",
  viewStatement: "Bekijk uw overzicht",
  claimSubject: "Over uw betaling aan {senderName}",
  claimPreview: "{senderName} heeft uw betaling van {claimed} nog niet gevonden.",
  claimFooter: "U ontvangt deze e-mail omdat u de afzender hebt laten weten dat u hebt betaald.",
  claimHeading: "Betaling nog niet gevonden",
  claimHello: "Beste {debtorName},",
  claimThanks: "Bedankt dat u {senderName} hebt laten weten dat u {claimed} hebt betaald.",
  claimThanksFor: "Bedankt dat u {senderName} hebt laten weten dat u {claimed} voor {invoices} hebt betaald.",
  claimNotFound:
    "{senderName} heeft deze betaling nog niet kunnen vinden, dus {what, select, invoice {de factuur blijft} other {het bedrag blijft}} openstaan en de herinneringen gaan door.",
  claimNext:
    "Als u hebt betaald, beantwoord deze e-mail dan met een betalingsbewijs (een bankafschrift of overboekingsbevestiging); de betaling wordt dan zo snel mogelijk verwerkt. Zo niet, dan ziet u op uw overzicht wat openstaat en hoe u kunt betalen.",
  claimYourPayment: "uw betaling",
  claimOn: "op {date}",
  claimReference: "(kenmerk {reference})",
  anInvoice: "een factuur",
  statementFrom: "Overzicht van {sender}",
  statementFor: "Voor {debtorName}",
  statementAsOf: "Per {date}",
  invoiceHeading: "Factuur",
  issuedHeading: "Datum",
  dueHeading: "Vervalt",
  balanceHeading: "Openstaand",
  nothingOpen: "Er staat niets open. Bedankt.",
  payByBank: "Betalen per bankoverschrijving",
  payByBankIn: "Betalen per bankoverschrijving ({currency})",
  payOnline: "Betaal online, laat weten dat u hebt betaald of stel een vraag op uw pagina:",
  invoiceNoNumber: "Factuur",
  disputed: "Betwist",
  beingChecked: "Betaald, wordt gecontroleerd",
  open: "Open",
  overdue: "Te laat · {count, plural, one {# dag} other {# dagen}}",
  totalOwed: "Totaal nog open: {amount}",
};

export const DEBTOR_MAIL_COPY: Catalogues<DebtorMailKey> = { en: EN, de: DE, fr: FR, es: ES, nl: NL };

/**
 * The language, locale and texts of what is written to one debtor: their language (their own, else
 * the user's), dates in its locale, and amounts too in a language other than English (English keeps
 * Dunly's one format, "€42.00", as the reminders do).
 */
export function debtorWriting(storedLanguage: string | null | undefined, userStoredLocale: string | null | undefined) {
  const language = debtorLanguage(storedLanguage, userStoredLocale);
  const locale = debtorLocale(language, userStoredLocale);
  return {
    language,
    locale,
    moneyLocale: language === DEFAULT_LANGUAGE ? "en-US" : locale,
    t: translator(DEBTOR_MAIL_COPY, language, locale, { grouping: false }),
  };
}

/** The texts of one language (a message built earlier without one: English). */
export function debtorMailText(language: Language | null | undefined, locale = "en-US") {
  return translator(DEBTOR_MAIL_COPY, language ?? DEFAULT_LANGUAGE, locale, { grouping: false });
}
