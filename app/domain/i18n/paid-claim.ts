import type { Catalogues } from "../i18n";

/**
 * "I've paid": the /p/… page and the form it shares with the debtor's page
 * (app/components/portal/paid-claim-form.tsx), what a pending claim said, and the form's field
 * errors (app/schemas/paid-claim.ts answers these keys; the page writes them). English is the source.
 */
const en = {
  "claim.title": "I've paid",
  "claim.heading": "Tell {sender} you have paid",
  "claim.intro": "Say what you paid: those invoices leave the reminders until the sender has checked your payment.",
  "claim.none": "Nothing is open that you could have paid.",
  "claim.submit": "Yes, I have paid",
  "claim.thanks": "Thank you",
  "claim.toldEmailed":
    "Thank you. {sender} has been told that you paid {what}. Reminders leave it out until they have checked the payment.",
  "claim.toldInDunly":
    "Thank you. {sender} sees in Dunly that you paid {what}. Reminders leave it out until they have checked the payment.",
  "claim.which": "Which invoices did you pay?",
  "claim.invoice": "Invoice",
  "claim.due": "due {date}",
  "claim.amount": "Amount you paid (optional)",
  "claim.amountHint": "Leave it empty when you paid the ticked invoices in full.",
  "claim.currency": "Currency",
  "claim.date": "Date you paid",
  "claim.reference": "Payment reference (optional)",
  "claim.referenceHint": "As it shows on your bank transfer: it helps match your payment.",
  "claim.said.payment": "your payment",
  "claim.said.anInvoice": "an invoice",
  "claim.said.on": "on {date}",
  "claim.said.for": "for {invoices}",
  "claim.said.reference": "(reference {reference})",
  "claim.error.nothing": "Please tick the invoices you paid, or enter the amount.",
  "claim.error.invoice": "Please choose among your open invoices.",
  "claim.error.amount": "Please enter the amount you paid, like {example}.",
  "claim.error.ambiguous":
    '"{typed}" could be read as {first} or as {second}. Please type the amount with its decimals, as in {example}.',
  "claim.error.otherFormat":
    '"{typed}" is written in another number format than this form\'s ({example}). Please type it as {value}.',
  "claim.error.currency": "Please choose the currency you paid in.",
  "claim.error.mixed":
    "The invoices you ticked are in different currencies: leave the amount empty, or tick invoices in one currency.",
  "claim.error.over": "That is more than is open in {currency} ({owed}). Please enter what you paid towards it.",
  "claim.error.date": "Please enter the date you paid.",
  "claim.error.future": "The date you paid cannot be in the future.",
  "claim.error.old": "Please enter a date within the last {days, plural, one {# day} other {# days}}.",
  "claim.error.reference":
    "Please keep the reference to {max, plural, one {# character} other {# characters}}, on one line.",
} as const;

export type PaidClaimKey = keyof typeof en;

export const PAID_CLAIM_COPY: Catalogues<PaidClaimKey> = {
  en,
  de: {
    "claim.title": "Ich habe bezahlt",
    "claim.heading": "Teilen Sie {sender} mit, dass Sie bezahlt haben",
    "claim.intro":
      "Geben Sie an, was Sie bezahlt haben: Diese Rechnungen werden nicht mehr angemahnt, bis der Absender Ihre Zahlung geprüft hat.",
    "claim.none": "Es ist nichts offen, das Sie bezahlt haben könnten.",
    "claim.submit": "Ja, ich habe bezahlt",
    "claim.thanks": "Vielen Dank",
    "claim.toldEmailed":
      "Vielen Dank. {sender} wurde informiert, dass Sie {what} bezahlt haben. Bis die Zahlung geprüft ist, wird dafür nicht mehr erinnert.",
    "claim.toldInDunly":
      "Vielen Dank. {sender} sieht in Dunly, dass Sie {what} bezahlt haben. Bis die Zahlung geprüft ist, wird dafür nicht mehr erinnert.",
    "claim.which": "Welche Rechnungen haben Sie bezahlt?",
    "claim.invoice": "Rechnung",
    "claim.due": "fällig am {date}",
    "claim.amount": "Bezahlter Betrag (optional)",
    "claim.amountHint": "Lassen Sie das Feld leer, wenn Sie die angekreuzten Rechnungen vollständig bezahlt haben.",
    "claim.currency": "Währung",
    "claim.date": "Zahlungsdatum",
    "claim.reference": "Verwendungszweck (optional)",
    "claim.referenceHint": "Wie auf Ihrer Überweisung angegeben: So lässt sich Ihre Zahlung leichter zuordnen.",
    "claim.said.payment": "Ihre Zahlung",
    "claim.said.anInvoice": "eine Rechnung",
    "claim.said.on": "am {date}",
    "claim.said.for": "für {invoices}",
    "claim.said.reference": "(Verwendungszweck {reference})",
    "claim.error.nothing": "Bitte kreuzen Sie die bezahlten Rechnungen an oder geben Sie den Betrag ein.",
    "claim.error.invoice": "Bitte wählen Sie unter Ihren offenen Rechnungen.",
    "claim.error.amount": "Bitte geben Sie den bezahlten Betrag ein, etwa {example}.",
    "claim.error.ambiguous":
      "„{typed}“ kann als {first} oder als {second} gelesen werden. Bitte geben Sie den Betrag mit Nachkommastellen ein, etwa {example}.",
    "claim.error.otherFormat":
      "„{typed}“ ist in einem anderen Zahlenformat geschrieben als in diesem Formular ({example}). Bitte geben Sie {value} ein.",
    "claim.error.currency": "Bitte wählen Sie die Währung, in der Sie bezahlt haben.",
    "claim.error.mixed":
      "Die angekreuzten Rechnungen haben verschiedene Währungen: Lassen Sie den Betrag leer oder kreuzen Sie Rechnungen in einer Währung an.",
    "claim.error.over":
      "Das ist mehr, als in {currency} offen ist ({owed}). Bitte geben Sie ein, was Sie darauf bezahlt haben.",
    "claim.error.date": "Bitte geben Sie das Zahlungsdatum ein.",
    "claim.error.future": "Das Zahlungsdatum darf nicht in der Zukunft liegen.",
    "claim.error.old":
      "Bitte geben Sie ein Datum {days, plural, one {innerhalb des letzten Tages} other {innerhalb der letzten # Tage}} ein.",
    "claim.error.reference":
      "Bitte beschränken Sie den Verwendungszweck auf {max, plural, one {# Zeichen} other {# Zeichen}} in einer Zeile.",
  },
  fr: {
    "claim.title": "J’ai payé",
    "claim.heading": "Indiquez à {sender} que vous avez payé",
    "claim.intro":
      "Indiquez ce que vous avez payé : ces factures ne font plus l’objet de rappels jusqu’à ce que l’expéditeur ait vérifié votre paiement.",
    "claim.none": "Rien n’est ouvert que vous auriez pu payer.",
    "claim.submit": "Oui, j’ai payé",
    "claim.thanks": "Merci",
    "claim.toldEmailed":
      "Merci. {sender} a été informé que vous avez payé {what}. Les rappels n’en tiennent plus compte jusqu’à la vérification du paiement.",
    "claim.toldInDunly":
      "Merci. {sender} voit dans Dunly que vous avez payé {what}. Les rappels n’en tiennent plus compte jusqu’à la vérification du paiement.",
    "claim.which": "Quelles factures avez-vous payées ?",
    "claim.invoice": "Facture",
    "claim.due": "échéance le {date}",
    "claim.amount": "Montant payé (facultatif)",
    "claim.amountHint": "Laissez ce champ vide si vous avez payé intégralement les factures cochées.",
    "claim.currency": "Devise",
    "claim.date": "Date du paiement",
    "claim.reference": "Référence du paiement (facultatif)",
    "claim.referenceHint": "Telle qu’elle figure sur votre virement : elle aide à retrouver votre paiement.",
    "claim.said.payment": "votre paiement",
    "claim.said.anInvoice": "une facture",
    "claim.said.on": "le {date}",
    "claim.said.for": "pour {invoices}",
    "claim.said.reference": "(référence {reference})",
    "claim.error.nothing": "Veuillez cocher les factures payées ou saisir le montant.",
    "claim.error.invoice": "Veuillez choisir parmi vos factures ouvertes.",
    "claim.error.amount": "Veuillez saisir le montant payé, par exemple {example}.",
    "claim.error.ambiguous":
      "« {typed} » peut se lire {first} ou {second}. Veuillez saisir le montant avec ses décimales, par exemple {example}.",
    "claim.error.otherFormat":
      "« {typed} » est écrit dans un autre format de nombre que celui de ce formulaire ({example}). Veuillez saisir {value}.",
    "claim.error.currency": "Veuillez choisir la devise de votre paiement.",
    "claim.error.mixed":
      "Les factures cochées sont dans des devises différentes : laissez le montant vide ou cochez des factures dans une seule devise.",
    "claim.error.over":
      "C’est plus que ce qui reste dû en {currency} ({owed}). Veuillez saisir ce que vous avez payé sur ce montant.",
    "claim.error.date": "Veuillez saisir la date du paiement.",
    "claim.error.future": "La date du paiement ne peut pas être dans le futur.",
    "claim.error.old":
      "Veuillez saisir une date dans {days, plural, one {le dernier jour} other {les # derniers jours}}.",
    "claim.error.reference":
      "Veuillez limiter la référence à {max, plural, one {# caractère} other {# caractères}}, sur une seule ligne.",
  },
  es: {
    "claim.title": "Ya he pagado",
    "claim.heading": "Comunique a {sender} que ha pagado",
    "claim.intro":
      "Indique lo que ha pagado: esas facturas dejan de recordarse hasta que el remitente haya comprobado su pago.",
    "claim.none": "No hay nada pendiente que pudiera haber pagado.",
    "claim.submit": "Sí, he pagado",
    "claim.thanks": "Gracias",
    "claim.toldEmailed":
      "Gracias. Se ha informado a {sender} de que ha pagado {what}. No se le recordará hasta que se haya comprobado el pago.",
    "claim.toldInDunly":
      "Gracias. {sender} ve en Dunly que ha pagado {what}. No se le recordará hasta que se haya comprobado el pago.",
    "claim.which": "¿Qué facturas ha pagado?",
    "claim.invoice": "Factura",
    "claim.due": "vence el {date}",
    "claim.amount": "Importe pagado (opcional)",
    "claim.amountHint": "Déjelo vacío si ha pagado por completo las facturas marcadas.",
    "claim.currency": "Moneda",
    "claim.date": "Fecha del pago",
    "claim.reference": "Referencia del pago (opcional)",
    "claim.referenceHint": "Tal como aparece en su transferencia: ayuda a identificar su pago.",
    "claim.said.payment": "su pago",
    "claim.said.anInvoice": "una factura",
    "claim.said.on": "el {date}",
    "claim.said.for": "por {invoices}",
    "claim.said.reference": "(referencia {reference})",
    "claim.error.nothing": "Marque las facturas que ha pagado o introduzca el importe.",
    "claim.error.invoice": "Elija entre sus facturas pendientes.",
    "claim.error.amount": "Introduzca el importe que ha pagado, por ejemplo {example}.",
    "claim.error.ambiguous":
      "«{typed}» puede leerse como {first} o como {second}. Escriba el importe con sus decimales, por ejemplo {example}.",
    "claim.error.otherFormat":
      "«{typed}» está escrito en un formato numérico distinto al de este formulario ({example}). Escríbalo como {value}.",
    "claim.error.currency": "Elija la moneda en la que ha pagado.",
    "claim.error.mixed":
      "Las facturas marcadas están en monedas distintas: deje el importe vacío o marque facturas de una sola moneda.",
    "claim.error.over": "Es más de lo pendiente en {currency} ({owed}). Introduzca lo que ha pagado de esa cantidad.",
    "claim.error.date": "Introduzca la fecha del pago.",
    "claim.error.future": "La fecha del pago no puede ser futura.",
    "claim.error.old": "Introduzca una fecha de {days, plural, one {el último día} other {los últimos # días}}.",
    "claim.error.reference":
      "La referencia puede tener como máximo {max, plural, one {# carácter} other {# caracteres}}, en una sola línea.",
  },
  nl: {
    "claim.title": "Ik heb betaald",
    "claim.heading": "Laat {sender} weten dat u hebt betaald",
    "claim.intro":
      "Geef aan wat u hebt betaald: voor die facturen krijgt u geen herinneringen meer totdat de afzender uw betaling heeft gecontroleerd.",
    "claim.none": "Er staat niets open dat u betaald zou kunnen hebben.",
    "claim.submit": "Ja, ik heb betaald",
    "claim.thanks": "Dank u wel",
    "claim.toldEmailed":
      "Dank u wel. {sender} is ingelicht dat u {what} hebt betaald. Herinneringen laten dit weg totdat de betaling is gecontroleerd.",
    "claim.toldInDunly":
      "Dank u wel. {sender} ziet in Dunly dat u {what} hebt betaald. Herinneringen laten dit weg totdat de betaling is gecontroleerd.",
    "claim.which": "Welke facturen hebt u betaald?",
    "claim.invoice": "Factuur",
    "claim.due": "vervalt op {date}",
    "claim.amount": "Betaald bedrag (optioneel)",
    "claim.amountHint": "Laat dit leeg als u de aangevinkte facturen volledig hebt betaald.",
    "claim.currency": "Valuta",
    "claim.date": "Betaaldatum",
    "claim.reference": "Betalingskenmerk (optioneel)",
    "claim.referenceHint": "Zoals het op uw overschrijving staat: zo kan uw betaling worden herkend.",
    "claim.said.payment": "uw betaling",
    "claim.said.anInvoice": "een factuur",
    "claim.said.on": "op {date}",
    "claim.said.for": "voor {invoices}",
    "claim.said.reference": "(kenmerk {reference})",
    "claim.error.nothing": "Vink de facturen aan die u hebt betaald, of vul het bedrag in.",
    "claim.error.invoice": "Kies uit uw openstaande facturen.",
    "claim.error.amount": "Vul het bedrag in dat u hebt betaald, bijvoorbeeld {example}.",
    "claim.error.ambiguous":
      "‘{typed}’ kan worden gelezen als {first} of als {second}. Typ het bedrag met decimalen, bijvoorbeeld {example}.",
    "claim.error.otherFormat":
      "‘{typed}’ is in een andere getalnotatie geschreven dan die van dit formulier ({example}). Typ het als {value}.",
    "claim.error.currency": "Kies de valuta waarin u hebt betaald.",
    "claim.error.mixed":
      "De aangevinkte facturen hebben verschillende valuta: laat het bedrag leeg, of vink facturen in één valuta aan.",
    "claim.error.over": "Dat is meer dan er in {currency} openstaat ({owed}). Vul in wat u daarvan hebt betaald.",
    "claim.error.date": "Vul de datum in waarop u hebt betaald.",
    "claim.error.future": "De betaaldatum kan niet in de toekomst liggen.",
    "claim.error.old": "Vul een datum in binnen {days, plural, one {de laatste dag} other {de laatste # dagen}}.",
    "claim.error.reference":
      "Houd het kenmerk op maximaal {max, plural, one {# teken} other {# tekens}}, op één regel.",
  },
};
