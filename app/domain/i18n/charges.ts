import type { Catalogues } from "../i18n";

/**
 * Late-payment charges where the debtor reads them (decisions/067): the reminder's statement
 * (emails/reminder.tsx), its text part, the statement PDF (emails/statement-pdf.ts) and the
 * debtor's page (app/components/portal/portal-page.tsx). The charge's own label and its legal
 * basis come from the rules (app/domain/late-charges); these are the words around them. English
 * is the source.
 */
const en = {
  "charges.invoices": "Invoices",
  "charges.invoicesIn": "Invoices in {currency}",
  "charges.charges": "Charges",
  "charges.chargesIn": "Charges in {currency}",
  "charges.total": "Total",
  "charges.totalIn": "Total in {currency}",
  "charges.onPaid": "Charges still owed on paid invoices",
  "charges.ofInvoice": "{label}, invoice {number}",
  "charges.ofInvoiceDue": "{label}, invoice due {date}",
  "charges.partlyPaid": "{paid} of {amount} paid",
  "charges.paid": "Paid",
  "charges.more": "and {count, plural, one {# more charge} other {# more charges}}, included in the total",
  "charges.heading": "Late-payment charges",
  "charges.note": "Charges for paying late are shown apart from the invoices, each with how it was computed.",
  "charges.pdfHeading": "Charge",
} as const;
export type ChargeCopyKey = keyof typeof en;

export const CHARGE_COPY: Catalogues<ChargeCopyKey> = {
  en,
  de: {
    "charges.invoices": "Rechnungen",
    "charges.invoicesIn": "Rechnungen in {currency}",
    "charges.charges": "Verzugskosten",
    "charges.chargesIn": "Verzugskosten in {currency}",
    "charges.total": "Gesamt",
    "charges.totalIn": "Gesamt in {currency}",
    "charges.onPaid": "Noch offene Verzugskosten bezahlter Rechnungen",
    "charges.ofInvoice": "{label}, Rechnung {number}",
    "charges.ofInvoiceDue": "{label}, Rechnung fällig am {date}",
    "charges.partlyPaid": "{paid} von {amount} bezahlt",
    "charges.paid": "Bezahlt",
    "charges.more": "und {count, plural, one {# weiterer Posten} other {# weitere Posten}}, im Gesamtbetrag enthalten",
    "charges.heading": "Verzugskosten",
    "charges.note": "Kosten für verspätete Zahlung stehen getrennt von den Rechnungen, jeweils mit ihrer Berechnung.",
    "charges.pdfHeading": "Posten",
  },
  fr: {
    "charges.invoices": "Factures",
    "charges.invoicesIn": "Factures en {currency}",
    "charges.charges": "Pénalités",
    "charges.chargesIn": "Pénalités en {currency}",
    "charges.total": "Total",
    "charges.totalIn": "Total en {currency}",
    "charges.onPaid": "Pénalités encore dues sur des factures payées",
    "charges.ofInvoice": "{label}, facture {number}",
    "charges.ofInvoiceDue": "{label}, facture échue le {date}",
    "charges.partlyPaid": "{paid} payés sur {amount}",
    "charges.paid": "Payé",
    "charges.more":
      "et {count, plural, one {# autre pénalité, incluse} other {# autres pénalités, incluses}} dans le total",
    "charges.heading": "Pénalités de retard",
    "charges.note": "Les pénalités de retard sont indiquées à part des factures, chacune avec son mode de calcul.",
    "charges.pdfHeading": "Pénalité",
  },
  es: {
    "charges.invoices": "Facturas",
    "charges.invoicesIn": "Facturas en {currency}",
    "charges.charges": "Recargos",
    "charges.chargesIn": "Recargos en {currency}",
    "charges.total": "Total",
    "charges.totalIn": "Total en {currency}",
    "charges.onPaid": "Recargos aún pendientes de facturas pagadas",
    "charges.ofInvoice": "{label}, factura {number}",
    "charges.ofInvoiceDue": "{label}, factura con vencimiento el {date}",
    "charges.partlyPaid": "{paid} de {amount} pagados",
    "charges.paid": "Pagado",
    "charges.more": "y {count, plural, one {# recargo más, incluido} other {# recargos más, incluidos}} en el total",
    "charges.heading": "Recargos por demora",
    "charges.note": "Los recargos por pago tardío se muestran aparte de las facturas, cada uno con su cálculo.",
    "charges.pdfHeading": "Recargo",
  },
  nl: {
    "charges.invoices": "Facturen",
    "charges.invoicesIn": "Facturen in {currency}",
    "charges.charges": "Kosten",
    "charges.chargesIn": "Kosten in {currency}",
    "charges.total": "Totaal",
    "charges.totalIn": "Totaal in {currency}",
    "charges.onPaid": "Nog verschuldigde kosten op betaalde facturen",
    "charges.ofInvoice": "{label}, factuur {number}",
    "charges.ofInvoiceDue": "{label}, factuur vervallen op {date}",
    "charges.partlyPaid": "{paid} van {amount} betaald",
    "charges.paid": "Betaald",
    "charges.more": "en nog {count, plural, one {# post} other {# posten}}, opgenomen in het totaal",
    "charges.heading": "Kosten wegens late betaling",
    "charges.note": "Kosten wegens late betaling staan los van de facturen, elk met hoe ze berekend zijn.",
    "charges.pdfHeading": "Post",
  },
};
